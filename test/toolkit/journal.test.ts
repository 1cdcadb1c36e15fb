import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { createClock, sequentialIds } from '../../src/testing.js'
import { BASE, call, createWorld } from '../helpers.js'

describe('toolkit: api.journal', () => {
  it('records each answered request: operation, method, path, query, caller, status, time and both bodies', async () => {
    const w = await createWorld()
    w.api.journal.clear()
    const created = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 'Guide' })
    w.clock.advance(1000)
    await call(w.api, w.tokens.rita, 'PATCH', `/v1/spaces/${created.body.id}`, { title: 'Nope' })
    await call(w.api, undefined, 'GET', '/v1/orgs?limit=5')
    await call(w.api, w.tokens.ada, 'GET', '/v1/nothing')
    const entries = w.api.journal.entries
    expect(entries.map((e) => [e.operationId, e.method, e.status, e.user])).toEqual([
      ['createSpace', 'POST', 201, w.users.ada.id],
      ['updateSpaceById', 'PATCH', 403, w.users.rita.id],
      ['listOrganizationsForAuthenticatedUser', 'GET', 401, undefined],
      [undefined, 'GET', 404, undefined],
    ])
    const [create, denied, anonymous] = entries
    expect(create).toMatchObject({ path: `/v1/orgs/${w.org.id}/spaces`, query: '', time: '2026-03-01T10:00:00.000Z', fault: false })
    expect(create!.requestBody).toEqual({ title: 'Guide' })
    expect(create!.responseBody).toEqual(created.body)
    expect(denied!.time).toBe('2026-03-01T10:00:01.000Z')
    expect(denied!.responseBody).toEqual({ error: { code: 403, message: expect.any(String) } })
    expect(anonymous!.query).toBe('limit=5')
    expect(anonymous!.requestBody).toBeUndefined()
    expect(entries.map((e) => e.seq)).toEqual([...entries.map((e) => e.seq)].sort((a, b) => a - b))
    // A body is parsed afresh for each reader: changing one copy changes nothing recorded.
    ;(create!.responseBody as any).title = 'changed'
    expect((create!.responseBody as any).title).toBe('Guide')
    expect(JSON.parse(JSON.stringify(create))).toMatchObject({ operationId: 'createSpace', requestBody: { title: 'Guide' } })
  })

  it('find and last filter by operationId, status, method, user and path; clear forgets', async () => {
    const w = await createWorld()
    w.api.journal.clear()
    for (const token of [w.tokens.ada, w.tokens.rita, w.tokens.olga]) await call(w.api, token, 'GET', `/v1/orgs/${w.org.id}`)
    expect(w.api.journal.find({ operationId: 'getOrganizationById' })).toHaveLength(3)
    expect(w.api.journal.find({ operationId: 'getOrganizationById', status: 404 }).map((e) => e.user)).toEqual([w.users.olga.id])
    expect(w.api.journal.find({ status: 200, user: w.users.rita.id })).toHaveLength(1)
    expect(w.api.journal.find({ method: 'get', path: `/v1/orgs/${w.org.id}` })).toHaveLength(3)
    expect(w.api.journal.last({ status: 200 })!.user).toBe(w.users.rita.id)
    expect(w.api.journal.last({ status: 500 })).toBeUndefined()
    w.api.journal.clear()
    expect(w.api.journal.entries).toEqual([])
  })

  it('is bounded: past journalLimit the oldest entries go; 0 keeps none', async () => {
    const api = createDocsApi({ baseUrl: BASE, journalLimit: 3, ids: sequentialIds(), now: createClock().now })
    for (let i = 0; i < 7; i++) await api.fetch(new Request(`${BASE}/v1/orgs?n=${i}`))
    expect(api.journal.limit).toBe(3)
    expect(api.journal.entries.map((e) => e.query)).toEqual(['n=4', 'n=5', 'n=6'])
    expect(api.journal.entries.map((e) => e.seq)).toEqual([5, 6, 7])
    const none = createDocsApi({ journalLimit: 0 })
    await none.fetch(new Request(`${BASE}/v1/orgs`))
    expect(none.journal.entries).toEqual([])
    expect(() => createDocsApi({ journalLimit: -1 })).toThrow('journal limit must be a whole number >= 0')
  })

  it('records what the client sent when the body is not JSON, and HEAD without a response body', async () => {
    const w = await createWorld()
    w.api.journal.clear()
    await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, '{"title": nope')
    await w.api.fetch(new Request(`${BASE}/v1/user`, { method: 'HEAD', headers: { authorization: `Bearer ${w.tokens.ada}` } }))
    const [bad, head] = w.api.journal.entries
    expect(bad!.status).toBe(400)
    expect(bad!.requestBody).toBe('{"title": nope')
    expect(head).toMatchObject({ method: 'HEAD', operationId: 'getAuthenticatedUser', status: 200 })
  })
})
