import { describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '../../src/fetch.js'
import { BASE, call, createWorld } from '../helpers.js'

/** The organization's title, to check a refused request changed nothing. */
const titleOf = (w: Awaited<ReturnType<typeof createWorld>>) => w.api.store.read((tx) => tx.get('organizations', w.org.id)!.title)

describe('http: request errors', () => {
  describe('bodies', () => {
    it('malformed JSON is a 400 naming the JSON error', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, '{"title": "Acme Inc"')
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toMatch(/^Invalid request: body is not valid JSON \(.+\)$/)
      expect(titleOf(w)).toBe('Acme')
    })

    it('a JSON body that is not an object is a 400 naming the body', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, '[1, 2]')
      expect(res.status).toBe(400)
      expect(res.body.error.message).toContain('body')
    })

    it('a body with a non-JSON content type is a 415; +json types are accepted', async () => {
      const w = await createWorld()
      const body = JSON.stringify({ title: 'Acme Inc' })
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, body, { 'content-type': type })
        expect(res.status, type).toBe(415)
        expect(res.body.error).toEqual({ code: 415, message: expect.stringContaining('application/json') })
      }
      expect(titleOf(w)).toBe('Acme')
      const ok = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, body, { 'content-type': 'application/merge-patch+json; charset=utf-8' })
      expect(ok.status).toBe(200)
      expect(titleOf(w)).toBe('Acme Inc')
    })

    it('a body over 1 MiB is a 413, counted in bytes, whether or not content-length says so', async () => {
      const w = await createWorld()
      expect(MAX_BODY_BYTES).toBe(1024 * 1024)
      // 600k two-byte characters: under 1 Mi characters, over 1 MiB of UTF-8
      const big = JSON.stringify({ title: 'é'.repeat(600_000) })
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, big)
      expect(res.status).toBe(413)
      expect(res.body.error).toEqual({ code: 413, message: expect.stringContaining('1 MiB') })
      const declared = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, '{}', { 'content-length': String(MAX_BODY_BYTES + 1) })
      expect(declared.status).toBe(413)
      // exactly at the limit is still parsed (and then validated)
      const atLimit = JSON.stringify({ title: 'x'.repeat(MAX_BODY_BYTES - 12) })
      expect(new TextEncoder().encode(atLimit).length).toBe(MAX_BODY_BYTES)
      const validated = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, atLimit)
      expect(validated.status).toBe(400)
      expect(validated.body.error.message).toContain('`title`: must be at most 255 characters')
      expect(titleOf(w)).toBe('Acme')
    })

    it('a streamed body without content-length is read no further than the limit (413)', async () => {
      const w = await createWorld()
      let pulled = 0
      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024))
      // An endless body: the API must stop reading once past 1 MiB, not wait for the end.
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += chunk.byteLength
          controller.enqueue(chunk)
        },
      })
      const request = new Request(`${BASE}/v1/orgs/${w.org.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${w.tokens.ada}`, 'content-type': 'application/json' },
        body: endless,
        duplex: 'half',
      } as RequestInit)
      expect(request.headers.get('content-length')).toBeNull()
      const res = await w.api.fetch(request)
      expect(res.status).toBe(413)
      expect(pulled).toBeLessThan(MAX_BODY_BYTES + 4 * chunk.byteLength)
      // A small streamed body is read as usual.
      const small = new Request(`${BASE}/v1/orgs/${w.org.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${w.tokens.ada}`, 'content-type': 'application/json' },
        body: new Blob(['{"title":"Streamed"}']).stream(),
        duplex: 'half',
      } as RequestInit)
      expect((await w.api.fetch(small)).status).toBe(200)
      expect(titleOf(w)).toBe('Streamed')
    })

    it('an empty body counts as {} for an operation whose body is optional', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`)
      expect(res.status).toBe(200)
      expect(res.body.title).toBe('Acme')
    })
  })

  describe('validation messages', () => {
    it('name array items by index, as a client writes the path (`emailDomains[1]`)', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { emailDomains: ['acme.test', 'not a domain'] })
      expect(res.status).toBe(400)
      expect(res.body.error.message).toBe('Invalid request: body field `emailDomains[1]`: must be a domain name such as example.com')
    })

    it('explain a failed union by the one form the value takes, down to the field', async () => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
      const cr = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests`, {})
      const edit = (document: unknown) =>
        call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, { changes: [{ operation: 'insert_page', document }] })
      // `{ markdown }` is the only form with a `markdown` key: its field is named.
      expect((await edit({ markdown: 5 })).body.error.message).toMatch(/^Invalid request: body field `changes\[0\]\.document\.markdown`: /)
      // Two forms at once fit none: the union's own message.
      expect((await edit({ markdown: '', document: { object: 'document', nodes: [] } })).body.error.message).toContain(
        'body field `changes[0].document`: must be {"markdown": "..."}, {"document": {...}} or {}',
      )
    })
  })

  describe('paging parameters', () => {
    it.each([
      ['limit=1001', 'query parameter `limit`: must be at most 1000'],
      ['limit=abc', 'query parameter `limit`: must be a whole number written in decimal digits'],
      ['limit=-1', 'query parameter `limit`: must be at least 0'],
      ['limit=1.5', 'query parameter `limit`: must be a whole number written in decimal digits'],
      // Number() would read these as 16, 100, 7 and 0: a strict parse refuses them.
      ['limit=0x10', 'query parameter `limit`: must be a whole number written in decimal digits'],
      ['limit=1e2', 'query parameter `limit`: must be a whole number written in decimal digits'],
      ['limit=%207', 'query parameter `limit`: must be a whole number written in decimal digits'],
      ['limit=', 'query parameter `limit`: must be a whole number written in decimal digits'],
      ['limit=99999999999999999999', 'query parameter `limit`: must be at most 1000'],
      ['page=', 'query parameter `page`'],
      ['page=garbage', 'Invalid query parameter `page`'],
      ['page=bm90IGpzb24', 'Invalid query parameter `page`'], // base64 of "not json"
      ['page=eyJhIjoxfQ', 'Invalid query parameter `page`'], // base64 of {"a":1}: not a sort key
    ])('%s is a 400', async (query, message) => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs?${query}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(message) } })
    })

    it.each([
      ['limit=1&limit=2', 'Invalid request: query parameter `limit`: takes one value, given more than once'],
      ['limit[]=1', 'Invalid request: query parameter `limit`: takes one value, given as a list (`limit[]`)'],
      ['page=a&limit=5&page=b', 'Invalid request: query parameter `page`: takes one value, given more than once'],
    ])('%s: a parameter that takes one value, given several, is a 400 naming it', async (query, message) => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs?${query}`)
      expect(res.body).toEqual({ error: { code: 400, message } })
    })

    it('a key the operation does not know is ignored, repeated or not', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.ada, 'GET', '/v1/orgs?x=1&x=2&y[]=3&limit=1')).body.count).toBe(1)
    })

    it('limit=1000 and limit=0 are fine; the default is 50', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.ada, 'GET', '/v1/orgs?limit=1000')).body.count).toBe(1)
      expect((await call(w.api, w.tokens.ada, 'GET', '/v1/orgs?limit=0')).body).toEqual({ items: [], count: 1 })
      for (let i = 0; i < 50; i++) await w.api.fixtures.addMember((await w.api.fixtures.createOrganization({ title: `Org ${i}` })).id, w.users.rita.id, 'read')
      const first = await call(w.api, w.tokens.rita, 'GET', '/v1/orgs')
      expect(first.body.count).toBe(51)
      expect(first.body.items).toHaveLength(50)
      expect(first.body.next.page).toEqual(expect.any(String))
    })
  })

  describe('authentication comes first', () => {
    it('missing token and unknown token are 401 with the error body', async () => {
      const w = await createWorld()
      const missing = await call(w.api, undefined, 'GET', '/v1/user')
      expect(missing.status).toBe(401)
      expect(missing.body).toEqual({ error: { code: 401, message: expect.stringContaining('Bearer') } })
      const unknown = await call(w.api, 'gb_api_nope', 'GET', '/v1/user')
      expect(unknown.status).toBe(401)
      expect(unknown.body).toEqual({ error: { code: 401, message: 'Invalid or revoked access token' } })
      const wrongScheme = await call(w.api, undefined, 'GET', '/v1/user', undefined, { authorization: `Basic ${w.tokens.ada}` })
      expect(wrongScheme.status).toBe(401)
      const lowerCase = await call(w.api, undefined, 'GET', '/v1/user', undefined, { authorization: `bearer ${w.tokens.ada}` })
      expect(lowerCase.status).toBe(200)
    })

    it('an anonymous or unknown caller with a bad request still gets 401, not 400/413/415', async () => {
      const w = await createWorld()
      const path = `/v1/orgs/${w.org.id}`
      for (const token of [undefined, 'gb_api_nope']) {
        expect((await call(w.api, token, 'PATCH', path, { title: 'A' })).status).toBe(401)
        expect((await call(w.api, token, 'PATCH', path, '{broken')).status).toBe(401)
        expect((await call(w.api, token, 'PATCH', path, '{}', { 'content-type': 'text/plain' })).status).toBe(401)
        expect((await call(w.api, token, 'PATCH', path, '{}', { 'content-length': String(MAX_BODY_BYTES * 2) })).status).toBe(401)
        expect((await call(w.api, token, 'GET', '/v1/orgs?limit=abc&page=garbage')).status).toBe(401)
      }
      expect(titleOf(w)).toBe('Acme')
    })

    it('a revoked token (row deleted) stops working at once', async () => {
      const w = await createWorld()
      expect((await call(w.api, w.tokens.rita, 'GET', '/v1/user')).status).toBe(200)
      w.api.system((ctx) => ctx.tx.delete('tokens', w.tokens.rita))
      expect((await call(w.api, w.tokens.rita, 'GET', '/v1/user')).status).toBe(401)
    })
  })

  it('answers JSON with a charset', async () => {
    const w = await createWorld()
    const res = await w.api.fetch(new Request(`${BASE}/v1/user`, { headers: { authorization: `Bearer ${w.tokens.ada}` } }))
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
  })
})
