import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { createClock, sequentialIds } from '../../src/testing.js'
import { BASE, call, createWorld } from '../helpers.js'
import { ask, askWorld } from '../domains/ask/helpers.js'

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

  it('keeps the first journalBodyLimit characters of a longer body, and says it was cut and how long the body was', async () => {
    const w = await createWorld({ journalBodyLimit: 1000 })
    const pad = 'é'.repeat(200_000)
    const sent = JSON.stringify({ changes: [{ pad }] })
    // A caller of no organization, a change request that does not exist: refused, and journaled.
    const refused = await call(w.api, w.tokens.olga, 'POST', '/v1/spaces/nospace/change-requests/nocr/content', sent)
    expect(refused.status).toBe(400)
    const entry = w.api.journal.last()!
    expect(entry.truncated).toEqual({ requestBody: sent.length })
    // A cut JSON text is no JSON: the body is the text kept, as a string.
    expect(entry.requestBody).toBe(sent.slice(0, 1000))
    expect(entry.responseBody).toEqual(refused.body)
    // A long answer is cut the same way; a body within the limit is kept whole and parsed.
    for (const title of ['One', 'Two']) expect((await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title })).status).toBe(201)
    const answer = await w.api.fetch(new Request(`${BASE}/v1/orgs/${w.org.id}/spaces`, { headers: { authorization: `Bearer ${w.tokens.ada}` } }))
    const text = await answer.text()
    expect(text.length).toBeGreaterThan(1000)
    const listed = w.api.journal.last()!
    expect(listed.truncated).toEqual({ responseBody: text.length })
    expect(listed.responseBody).toBe(text.slice(0, 1000))
    const create = w.api.journal.find({ operationId: 'createSpace' })[0]!
    expect(create.truncated).toBeUndefined()
    expect(create.requestBody).toEqual({ title: 'One' })
    expect(w.api.journal.bodyLimit).toBe(1000)
  })

  it('keeps at most journalSizeLimit characters in all: past it the oldest entries go, the newest stays', async () => {
    const { api, tokens } = await createWorld({ journalBodyLimit: 10_000, journalSizeLimit: 25_000 })
    const send = (n: number, size: number) => call(api, tokens.ada, 'PATCH', '/v1/orgs/none', { n, pad: 'x'.repeat(size) })
    for (let n = 0; n < 10; n++) await send(n, 5_000)
    expect(api.journal.size).toBeLessThanOrEqual(25_000)
    const kept = api.journal.entries.map((e) => (e.requestBody as { n: number }).n)
    expect(kept.length).toBeGreaterThanOrEqual(3)
    expect(kept).toEqual(kept.map((_, i) => 10 - kept.length + i))
    // A body past the whole budget (cut to journalBodyLimit) is still kept, alone if need be.
    await send(10, 50_000)
    expect(api.journal.last()!.truncated).toEqual({ requestBody: expect.any(Number) })
    expect(api.journal.size).toBeLessThanOrEqual(25_000)
    api.journal.clear()
    expect(api.journal.size).toBe(0)
    expect(() => createDocsApi({ journalBodyLimit: -1 })).toThrow('journal body limit must be a whole number >= 0')
    expect(() => createDocsApi({ journalSizeLimit: 1.5 })).toThrow('journal size limit must be a whole number >= 0')
  })

  it('cuts a streamed answer too, once sent, and counts it in the size', async () => {
    const w = await askWorld()
    const api = w.api.fork({ journalBodyLimit: 100 })
    const res = await ask(api, w.tokens.ada, w.org.id, w.site.id, { question: 'How do I upgrade the lantern?', scope: { mode: 'all' } })
    const before = api.journal.size
    const text = await res.text()
    expect(text.length).toBeGreaterThan(100)
    const entry = api.journal.last({ operationId: 'streamAskInSite' })!
    expect(entry.truncated).toEqual({ responseBody: text.length })
    expect(entry.responseBody).toBe(text.slice(0, 100))
    expect(api.journal.size).toBe(before + 100)
  })
})
