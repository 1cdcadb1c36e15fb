import { afterEach, describe, expect, it, vi } from 'vitest'
import { createDocsApi, createMemoryStore, schema, type AppSchema, type DocsApi, type StoragePort, type WriteTx } from '../../src/index.js'
import { BASE, call } from '../helpers.js'
import { sequentialIds } from '../../src/testing.js'

/**
 * A store that behaves like the memory store until armed, then throws on the `failAt`-th write
 * (counting from 1): a stand-in for a disk that fails half-way through a request.
 */
function createFaultyStore() {
  const inner = createMemoryStore(schema)
  let armed = false
  let failAt = 1
  let writes = 0
  const guard = (what: string): void => {
    if (armed && ++writes === failAt) throw new Error(`disk on fire during ${what}`)
  }
  const wrap = (tx: WriteTx<AppSchema>): WriteTx<AppSchema> => ({
    ...tx,
    insert: (collection, row) => (guard(`insert ${collection}`), tx.insert(collection, row)),
    update: (collection, row) => (guard(`update ${collection}`), tx.update(collection, row)),
    delete: (collection, id) => (guard(`delete ${collection}`), tx.delete(collection, id)),
  })
  const store: StoragePort<AppSchema> = {
    schema,
    read: (fn) => inner.read(fn),
    transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))),
  }
  return {
    store,
    arm(at: number) {
      armed = true
      failAt = at
      writes = 0
    },
  }
}

/** Every row of every collection of the store. */
function snapshot(api: DocsApi): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {}
  for (const name of Object.keys(schema) as Array<keyof AppSchema>) out[name] = api.store.read((tx) => tx.all(name))
  return out
}

async function world(options: { store?: StoragePort<AppSchema>; onError?: (e: unknown) => void } = {}) {
  const api = createDocsApi({ baseUrl: BASE, ids: sequentialIds('id'), ...options })
  const ada = await api.fixtures.createUser({ displayName: 'Ada' })
  const gina = await api.fixtures.createUser({ displayName: 'Gina' })
  const olga = await api.fixtures.createUser({ displayName: 'Olga' })
  const org = await api.fixtures.createOrganization({
    title: 'Acme',
    members: [
      { user: ada.id, role: 'admin' },
      { user: gina.id, role: null },
    ],
  })
  const space = await api.fixtures.createSpace(org.id, { title: 'Private' })
  const token = await api.fixtures.createToken(ada.id)
  return { api, ada, gina, olga, org, space, token }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('http: unexpected failures', () => {
  it('an exception in a handler is a 500 with a generic message, passed to onError', async () => {
    const faulty = createFaultyStore()
    const errors: unknown[] = []
    const w = await world({ store: faulty.store, onError: (e) => errors.push(e) })
    faulty.arm(1)
    const res = await call(w.api, w.token, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'Acme Inc' })
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ error: { code: 500, message: 'Internal server error' } })
    expect(JSON.stringify(res.body)).not.toContain('disk')
    expect(errors).toHaveLength(1)
    expect((errors[0] as Error).message).toBe('disk on fire during update organizations')
    expect(w.api.store.read((tx) => tx.get('organizations', w.org.id)!.title)).toBe('Acme')
  })

  it('without onError, the error is logged with console.error', async () => {
    const faulty = createFaultyStore()
    const w = await world({ store: faulty.store })
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    faulty.arm(1)
    expect((await call(w.api, w.token, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'Acme Inc' })).status).toBe(500)
    expect(log).toHaveBeenCalledTimes(1)
    expect(log.mock.calls[0]!.some((arg) => arg instanceof Error && arg.message.startsWith('disk on fire'))).toBe(true)
  })

  it('API errors are answered, not logged', async () => {
    const errors: unknown[] = []
    const w = await world({ onError: (e) => errors.push(e) })
    expect((await call(w.api, w.token, 'GET', '/v1/orgs/missing')).status).toBe(404)
    expect((await call(w.api, w.token, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'A' })).status).toBe(400)
    expect(errors).toEqual([])
  })
})

describe('http: a failed request leaves the whole store unchanged', () => {
  it('when the handler fails half-way with an API error (404 after some writes)', async () => {
    const w = await world()
    const before = snapshot(w.api)
    // olga joins the organization as a guest and gina gets a grant, then the unknown user fails the request
    const res = await call(w.api, w.token, 'POST', `/v1/spaces/${w.space.id}/permissions`, {
      role: 'edit',
      users: [w.olga.id, w.gina.id, 'nobody'],
    })
    expect(res.status).toBe(404)
    expect(snapshot(w.api)).toEqual(before)
  })

  it('when the store fails on the n-th write of a request (500), for every n', async () => {
    const faulty = createFaultyStore()
    const w = await world({ store: faulty.store, onError: () => {} })
    const body = { role: 'edit', users: [w.olga.id, w.gina.id] }
    const path = `/v1/spaces/${w.space.id}/permissions`
    const before = snapshot(w.api)
    // the invitation writes olga's membership, two grants and their audit events: every write, in turn, fails it
    let n = 1
    for (; ; n++) {
      faulty.arm(n)
      const res = await call(w.api, w.token, 'POST', path, body)
      if (res.status === 204) break
      expect(res.status, `failing write ${n}`).toBe(500)
      expect(snapshot(w.api), `failing write ${n}`).toEqual(before)
      expect(n, 'the request never succeeds').toBeLessThan(20)
    }
    expect(n - 1).toBe(6)
    const after = snapshot(w.api)
    expect(after.spaceGrants).toHaveLength(2)
    expect(after.members).toHaveLength(before.members!.length + 1)
  })

  it('when validation or authorization refuses the request', async () => {
    const w = await world()
    const before = snapshot(w.api)
    const gina = await w.api.fixtures.createToken(w.gina.id)
    const withToken = snapshot(w.api)
    expect(withToken.tokens).toHaveLength(before.tokens!.length + 1)
    expect((await call(w.api, w.token, 'POST', `/v1/spaces/${w.space.id}/permissions`, { role: 'boss', users: [w.gina.id] })).status).toBe(400)
    expect((await call(w.api, gina, 'POST', `/v1/spaces/${w.space.id}/permissions`, { role: 'read', users: [w.gina.id] })).status).toBe(404)
    expect((await call(w.api, undefined, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'Nope' })).status).toBe(401)
    expect(snapshot(w.api)).toEqual(withToken)
  })
})
