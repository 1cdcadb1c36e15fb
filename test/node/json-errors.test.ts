import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { jsonErrors, toNodeHandler } from '../../src/node.js'
import { createSeededApi, listen, rawRequest, type Listening } from './helpers.js'

let server: Listening | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** express.json() (1 kB limit) before the API under /api, jsonErrors() after it; an app route that throws. */
async function setup() {
  const seeded = await createSeededApi({ baseUrl: 'http://docs.test/api' })
  const app = express()
  app.use(express.json({ limit: '1kb' }))
  app.use('/api', toNodeHandler(seeded.api))
  app.get('/boom', () => {
    throw new Error('the app failed')
  })
  app.use('/api', jsonErrors())
  server = await listen(app)
  const headers = { ...seeded.auth, 'content-type': 'application/json' }
  return { ...seeded, url: server.url, headers, spaces: `${server.url}/api/v1/orgs/${seeded.org.id}/spaces` }
}

const JSON_TYPE = 'application/json; charset=utf-8'

describe("jsonErrors(): what the app's body parser refuses gets the API's error body", () => {
  it("malformed JSON: 400 naming the problem, in the API's shape", async () => {
    const { spaces, headers, api } = await setup()
    const res = await rawRequest(spaces, { method: 'POST', headers, body: '{"title": ' })
    expect(res.status).toBe(400)
    expect(res.headers['content-type']).toBe(JSON_TYPE)
    const body = JSON.parse(res.body)
    expect(body).toEqual({ error: { code: 400, message: expect.stringMatching(/^Invalid request: body is not valid JSON \(.+\)$/) } })
    // The same shape and wording as the API's own answer to malformed JSON (read from the stream).
    const own = await api.fetch('http://docs.test/v1/orgs/x/spaces', { method: 'POST', headers, body: '{"title": ' })
    expect(Object.keys(((await own.json()) as { error: object }).error)).toEqual(Object.keys(body.error))
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)))
  })

  it("a body past the parser's limit: 413 naming the limit", async () => {
    const { spaces, headers } = await setup()
    const body = JSON.stringify({ title: 'x'.repeat(2000) })
    const res = await rawRequest(spaces, { method: 'POST', headers, body })
    expect(res.status).toBe(413)
    expect(res.headers['content-type']).toBe(JSON_TYPE)
    expect(JSON.parse(res.body)).toEqual({ error: { code: 413, message: `Request body is larger than 1024 bytes (${body.length} bytes sent)` } })
  })

  it('a body sent chunked past the limit (no Content-Length): 413 as well', async () => {
    const { spaces, headers } = await setup()
    const res = await rawRequest(spaces, { method: 'POST', headers, body: JSON.stringify({ title: 'x'.repeat(2000) }), chunked: true })
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body).error).toEqual({ code: 413, message: 'Request body is larger than 1024 bytes' })
  })

  it('an unsupported charset: 415 naming it', async () => {
    const { spaces, headers } = await setup()
    const res = await rawRequest(spaces, { method: 'POST', headers: { ...headers, 'content-type': 'application/json; charset=klingon' }, body: '{}' })
    expect(res.status).toBe(415)
    expect(JSON.parse(res.body)).toEqual({ error: { code: 415, message: 'Unsupported request body charset "klingon"' } })
  })

  it("a good body still reaches the API; other errors and other paths keep Express's handling", async () => {
    const { spaces, headers, url } = await setup()
    const created = await rawRequest(spaces, { method: 'POST', headers, body: JSON.stringify({ title: 'Fine' }) })
    expect(created.status).toBe(201)
    expect(JSON.parse(created.body).title).toBe('Fine')
    // Not a body-parser error: next(error), Express's own 500 page.
    const boom = await rawRequest(`${url}/boom`)
    expect(boom.status).toBe(500)
    expect(boom.headers['content-type']).toMatch(/^text\/html/)
    // Outside the prefix jsonErrors is mounted under: Express's page.
    const outside = await rawRequest(`${url}/elsewhere`, { method: 'POST', headers, body: '{' })
    expect(outside.status).toBe(400)
    expect(outside.headers['content-type']).toMatch(/^text\/html/)
  })
})
