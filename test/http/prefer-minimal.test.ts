import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { API_CORE } from '../../src/http/api-core.js'
import { defineOperation } from '../../src/core/operation.js'
import { implement } from '../../src/domains/context.js'
import { createDocsApi, createFetchHandler } from '../../src/index.js'
import { BASE } from '../helpers.js'

/**
 * `Prefer: return=minimal` on an operation declared `minimal: true` answers 204 without a body.
 * No operation of the table is declared minimal yet, so the test binds one of its own to the
 * API's runtime (same store, tokens and executor); any real one is checked below as well.
 */
const table = {
  renameMe: defineOperation({
    id: 'renameMe',
    method: 'PATCH',
    path: '/v1/test/me',
    tag: 'test',
    summary: 'Rename the caller (a test operation whose body may be left out)',
    body: z.object({ displayName: z.string().min(1) }),
    bodyRequired: true,
    response: z.object({ id: z.string(), displayName: z.string() }),
    status: 200,
    minimal: true,
    errors: [],
  }),
  getMe: defineOperation({
    id: 'getMe',
    method: 'GET',
    path: '/v1/test/me',
    tag: 'test',
    summary: 'A test operation that is not minimal',
    response: z.object({ id: z.string() }),
    status: 200,
    errors: [],
  }),
}

async function setup() {
  const api = createDocsApi({ baseUrl: BASE })
  const user = await api.fixtures.createUser({ displayName: 'Ada' })
  const token = await api.fixtures.createToken(user.id)
  const operations = implement(table, {
    renameMe: (ctx, { body }) => {
      const row = ctx.tx.update('users', { ...ctx.tx.get('users', ctx.actor.user)!, displayName: body.displayName })
      return { id: row.id, displayName: row.displayName }
    },
    getMe: (ctx) => ({ id: ctx.actor.user }),
  })
  const fetch = createFetchHandler({ [API_CORE]: { ...api[API_CORE], operations } })
  const send = (method: string, prefer?: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` }
    if (prefer) headers.prefer = prefer
    if (body) headers['content-type'] = 'application/json'
    return fetch(`${BASE}/v1/test/me`, { method, headers, body: body ? JSON.stringify(body) : undefined })
  }
  const name = () => api.store.read((tx) => tx.get('users', user.id)!.displayName)
  return { api, user, send, name }
}

describe('http: Prefer: return=minimal', () => {
  it('answers 204 without a body, and the operation still runs', async () => {
    const { send, name } = await setup()
    const res = await send('PATCH', 'return=minimal', { displayName: 'Ada L.' })
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    expect(name()).toBe('Ada L.')
  })

  it('recognises return=minimal among other preferences, in any case', async () => {
    const { send, name } = await setup()
    for (const prefer of ['respond-async, return=minimal', 'Return=Minimal', 'handling=strict; return=minimal']) {
      expect((await send('PATCH', prefer, { displayName: prefer })).status, prefer).toBe(204)
      expect(name()).toBe(prefer)
    }
  })

  it('answers the body by default, and for return=representation', async () => {
    const { send, user } = await setup()
    for (const prefer of [undefined, 'return=representation']) {
      const res = await send('PATCH', prefer, { displayName: 'Ada' })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ id: user.id, displayName: 'Ada' })
    }
  })

  it('is ignored by operations not declared minimal, and by failures', async () => {
    const { send, user, name } = await setup()
    const got = await send('GET', 'return=minimal')
    expect(got.status).toBe(200)
    expect(await got.json()).toEqual({ id: user.id })
    const bad = await send('PATCH', 'return=minimal', { displayName: '' })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.message).toContain('`displayName`')
    expect(name()).toBe('Ada')
  })

  it('every operation of the table declared minimal has a body to leave out', () => {
    const api = createDocsApi()
    for (const op of api.operations.filter((o) => o.minimal)) {
      expect(op.response, op.id).toBeDefined()
      expect(op.status, op.id).not.toBe(204)
    }
  })
})
