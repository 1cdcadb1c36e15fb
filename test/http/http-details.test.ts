import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { createDocsApi, createFetchHandler } from '../../src/index.js'
import { BASE, call, createWorld } from '../helpers.js'

describe('http: HEAD', () => {
  it('every GET route answers HEAD with the GET status and headers, and no body', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Guide' })
    for (const path of ['/v1/user', `/v1/orgs/${w.org.id}`, `/v1/spaces/${space.id}`, `/v1/orgs/${w.org.id}/spaces?limit=1`]) {
      const get = await w.api.fetch(new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${w.tokens.ada}` } }))
      const head = await w.api.fetch(new Request(`${BASE}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${w.tokens.ada}` } }))
      expect(head.status, path).toBe(200)
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
      expect(await head.text()).toBe('')
      expect((await get.text()).length).toBeGreaterThan(0)
    }
    // Errors too: the status and headers of the GET, no body.
    const missing = await w.api.fetch(new Request(`${BASE}/v1/spaces/nope`, { method: 'HEAD', headers: { authorization: `Bearer ${w.tokens.ada}` } }))
    expect(missing.status).toBe(404)
    expect(await missing.text()).toBe('')
    const anonymous = await w.api.fetch(new Request(`${BASE}/v1/user`, { method: 'HEAD' }))
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="docs-content-api"')
  })

  it('HEAD on a path without GET is a 405', async () => {
    const w = await createWorld()
    const res = await w.api.fetch(new Request(`${BASE}/v1/orgs/${w.org.id}/join`, { method: 'HEAD', headers: { authorization: `Bearer ${w.tokens.ada}` } }))
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
  })
})

describe('http: 401 carries WWW-Authenticate: Bearer', () => {
  it('without a token, and with error="invalid_token" for an unknown one', async () => {
    const w = await createWorld()
    const none = await call(w.api, undefined, 'GET', '/v1/orgs')
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="docs-content-api"')
    const bad = await call(w.api, 'gb_api_nope', 'GET', '/v1/orgs')
    expect(bad.status).toBe(401)
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="docs-content-api", error="invalid_token"')
    // Other errors carry none.
    expect((await call(w.api, w.tokens.rita, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'No' })).headers.get('www-authenticate')).toBeNull()
  })
})

describe('http: OPTIONS and CORS', () => {
  it('without cors, OPTIONS lists the methods of a path, and answers carry no CORS headers', async () => {
    const w = await createWorld()
    const res = await w.api.fetch(
      new Request(`${BASE}/v1/orgs/${w.org.id}`, { method: 'OPTIONS', headers: { origin: 'https://app.test', 'access-control-request-method': 'PATCH' } }),
    )
    expect(res.status).toBe(204)
    expect(res.headers.get('allow')).toBe('GET, HEAD, PATCH, OPTIONS')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const get = await call(w.api, w.tokens.ada, 'GET', '/v1/orgs', undefined, { origin: 'https://app.test' })
    expect(get.headers.get('access-control-allow-origin')).toBeNull()
    expect((await w.api.fetch(new Request(`${BASE}/v1/nothing`, { method: 'OPTIONS' }))).status).toBe(404)
  })

  it('cors: true answers preflights with the methods of the path and marks every answer, errors included', async () => {
    const api = createDocsApi({ baseUrl: BASE, cors: true })
    const ada = await api.fixtures.createUser({ displayName: 'Ada' })
    const token = await api.fixtures.createToken(ada.id)
    const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
    const preflight = await api.fetch(
      new Request(`${BASE}/v1/orgs/${org.id}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.test', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization, content-type' },
      }),
    )
    expect(preflight.status).toBe(204)
    expect(Object.fromEntries(preflight.headers)).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, PATCH, OPTIONS',
      'access-control-allow-headers': 'authorization, content-type',
      'access-control-max-age': '600',
    })
    const patched = await api.fetch(
      new Request(`${BASE}/v1/orgs/${org.id}`, {
        method: 'PATCH',
        headers: { origin: 'https://app.test', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Acme Inc' }),
      }),
    )
    expect(patched.status).toBe(200)
    expect(patched.headers.get('access-control-allow-origin')).toBe('*')
    expect(patched.headers.get('access-control-expose-headers')).toContain('www-authenticate')
    const denied = await api.fetch(new Request(`${BASE}/v1/orgs`, { headers: { origin: 'https://app.test' } }))
    expect(denied.status).toBe(401)
    expect(denied.headers.get('access-control-allow-origin')).toBe('*')
    // A request without Origin (not from a browser) gets no CORS headers.
    expect((await api.fetch(new Request(`${BASE}/v1/orgs`))).headers.get('access-control-allow-origin')).toBeNull()
  })

  it('a handler built over the API keeps its cors (and takes its own when given)', async () => {
    const api = createDocsApi({ baseUrl: BASE, cors: true })
    const prefixed = createFetchHandler(api, { basePath: '/api' })
    const res = await prefixed(new Request(`${BASE}/api/v1/orgs`, { headers: { origin: 'https://app.test' } }))
    expect(res.status).toBe(401)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const closed = createFetchHandler(api, { cors: false })
    expect((await closed(new Request(`${BASE}/v1/orgs`, { headers: { origin: 'https://app.test' } }))).headers.get('access-control-allow-origin')).toBeNull()
  })

  it('an origin list echoes allowed origins with Vary, credentials when asked, and leaves others out', async () => {
    const api = createDocsApi({ baseUrl: BASE })
    const fetch = createFetchHandler(api, { cors: { origin: ['https://app.test'], credentials: true, maxAge: 60 } })
    const ok = await fetch(
      new Request(`${BASE}/v1/orgs`, { method: 'OPTIONS', headers: { origin: 'https://app.test', 'access-control-request-method': 'GET' } }),
    )
    expect(Object.fromEntries(ok.headers)).toMatchObject({
      'access-control-allow-origin': 'https://app.test',
      'access-control-allow-credentials': 'true',
      'access-control-max-age': '60',
      'access-control-allow-headers': 'authorization, content-type, prefer',
    })
    expect(ok.headers.get('vary')).toContain('Origin')
    const other = await fetch(
      new Request(`${BASE}/v1/orgs`, { method: 'OPTIONS', headers: { origin: 'https://evil.test', 'access-control-request-method': 'GET' } }),
    )
    expect(other.status).toBe(204)
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('http: a body already read before it reached the API', () => {
  it('is a 500 that says so, never a silent empty body, and writes nothing', async () => {
    const w = await createWorld()
    const request = new Request(`${BASE}/v1/orgs/${w.org.id}/spaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.tokens.ada}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'From the client' }),
    })
    await request.json()
    const res = await w.api.fetch(request)
    expect(res.status).toBe(500)
    expect(((await res.json()) as any).error.message).toContain('The request body was already read before it reached the API')
    expect(w.api.store.read((tx) => tx.count('spaces', 'byOrganization', w.org.id))).toBe(0)
  })

  it('in Hono, after a middleware read the body: the same clear 500 (and c.req.raw.clone() before reading avoids it)', async () => {
    const w = await createWorld()
    const app = new Hono()
    app.use('*', async (c, next) => {
      if (c.req.method === 'POST') await c.req.json()
      await next()
    })
    app.all('/v1/*', (c) => w.api.fetch(c.req.raw))
    const init = {
      method: 'POST',
      headers: { authorization: `Bearer ${w.tokens.ada}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Handbook' }),
    }
    const res = await app.request(`/v1/orgs/${w.org.id}/spaces`, init)
    expect(res.status).toBe(500)
    expect(((await res.json()) as any).error.message).toContain('already read')

    const fixed = new Hono()
    fixed.use('*', async (c, next) => {
      if (c.req.method === 'POST') await c.req.raw.clone().json()
      await next()
    })
    fixed.all('/v1/*', (c) => w.api.fetch(c.req.raw))
    const ok = await fixed.request(`/v1/orgs/${w.org.id}/spaces`, init)
    expect(ok.status).toBe(201)
    expect(((await ok.json()) as any).title).toBe('Handbook')
  })
})
