import { describe, expect, it } from 'vitest'
import type { BoundOperation } from '../../src/core/operation.js'
import { createRouter } from '../../src/http/router.js'
import { createDocsApi, createFetchHandler } from '../../src/index.js'
import { BASE, call, createWorld } from '../helpers.js'

describe('http: routing', () => {
  it('answers 404 with the error body for an unknown route', async () => {
    const w = await createWorld()
    for (const path of ['/v1/nothing-here', '/v2/orgs', '/', '/v1/orgs/x/y/z/w']) {
      const res = await call(w.api, w.tokens.ada, 'GET', path)
      expect(res.status, path).toBe(404)
      expect(res.body).toEqual({ error: { code: 404, message: expect.stringContaining('No route') } })
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    }
  })

  it('answers 405 with an allow header for a known path and another method', async () => {
    const w = await createWorld()
    const list = await call(w.api, w.tokens.ada, 'DELETE', '/v1/orgs')
    expect(list.status).toBe(405)
    expect(list.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS')
    expect(list.body.error).toEqual({ code: 405, message: expect.stringContaining('allowed: GET, HEAD, POST, OPTIONS') })
    const one = await call(w.api, w.tokens.ada, 'PUT', `/v1/orgs/${w.org.id}`, { title: 'Nope' })
    expect(one.status).toBe(405)
    expect(one.headers.get('allow')!.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'PATCH'])
    // nothing ran: the title is unchanged
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)).body.title).toBe('Acme')
  })

  it('decodes parameters and ignores a trailing slash', async () => {
    const w = await createWorld()
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/user')).body.id).toBe(w.users.ada.id)
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/`)).body.id).toBe(w.org.id)
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/users/${encodeURIComponent(w.users.rita.id)}`)).body.id).toBe(w.users.rita.id)
    const encoded = await call(w.api, w.tokens.ada, 'GET', '/v1/orgs/a%2Fb')
    expect(encoded.body.error).toEqual({ code: 404, message: 'Organization not found' })
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/orgs/%E0%A4%A')).status).toBe(404)
  })

  it('createRouter matches static segments before parameters, whatever the order of the table', () => {
    const never = (): never => {
      throw new Error('a handler must not run while routing')
    }
    const op = (id: string, path: string): BoundOperation => ({
      def: { id, method: 'GET', path, summary: id, tag: 'x', status: 200, errors: [] },
      handler: never,
      parents: [],
    })
    const me = op('getMe', '/v1/x/me')
    const byId = op('getById', '/v1/x/{id}')
    for (const table of [
      [me, byId],
      [byId, me],
    ]) {
      const router = createRouter(table)
      const mine = router.match('GET', '/v1/x/me')
      expect(mine).toEqual({ kind: 'found', operation: me, params: {} })
      expect(mine.kind === 'found' && mine.operation).toBe(me)
      const other = router.match('GET', '/v1/x/42')
      expect(other).toEqual({ kind: 'found', operation: byId, params: { id: '42' } })
      expect(other.kind === 'found' && other.operation).toBe(byId)
      expect(router.match('POST', '/v1/x/me')).toEqual({ kind: 'method-not-allowed', allow: ['GET'] })
      expect(router.match('GET', '/v1/x/42/more')).toEqual({ kind: 'not-found' })
    }
  })

  it('accepts a URL and init as well as a Request', async () => {
    const w = await createWorld()
    const res = await w.api.fetch(`${BASE}/v1/user`, { headers: { authorization: `Bearer ${w.tokens.ada}` } })
    expect(res.status).toBe(200)
    expect((await res.json()).id).toBe(w.users.ada.id)
  })

  describe('basePath', () => {
    it('serves /api/v1/... and 404s /v1/... when mounted under /api', async () => {
      const api = createDocsApi({ basePath: '/api' })
      const user = await api.fixtures.createUser({ displayName: 'Ada' })
      const token = await api.fixtures.createToken(user.id)
      const auth = { authorization: `Bearer ${token}` }
      const mounted = await api.fetch(`${BASE}/api/v1/user`, { headers: auth })
      expect(mounted.status).toBe(200)
      expect((await mounted.json()).id).toBe(user.id)
      for (const path of ['/v1/user', '/apix/v1/user', '/api', '/ap/v1/user']) {
        const res = await api.fetch(`${BASE}${path}`, { headers: auth })
        expect(res.status, path).toBe(404)
        expect(await res.json()).toEqual({ error: { code: 404, message: expect.stringContaining('No route') } })
      }
    })

    it('createFetchHandler mounts the same API under another prefix (a trailing slash is ignored)', async () => {
      const api = createDocsApi()
      const user = await api.fixtures.createUser({ displayName: 'Ada' })
      const token = await api.fixtures.createToken(user.id)
      const handler = createFetchHandler(api, { basePath: '/docs/' })
      const res = await handler(`${BASE}/docs/v1/user`, { headers: { authorization: `Bearer ${token}` } })
      expect(res.status).toBe(200)
      expect((await handler(`${BASE}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404)
      // the default handler of the API still serves the unprefixed paths
      expect((await api.fetch(`${BASE}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)
    })
  })
})

describe('http: path parameters the router guarantees', () => {
  it('are not validated again; a stricter schema still is', async () => {
    const { z } = await import('zod')
    const { routerSatisfies } = await import('../../src/http/codec.js')
    expect(routerSatisfies(z.object({ spaceId: z.string().min(1) }))).toBe(true)
    expect(routerSatisfies(z.object({ a: z.string(), b: z.string().min(1) }))).toBe(true)
    expect(routerSatisfies(z.object({ a: z.string().min(3) }))).toBe(false)
    expect(routerSatisfies(z.object({ a: z.string().regex(/^x/) }))).toBe(false)
    expect(routerSatisfies(z.object({ a: z.enum(['x']) }))).toBe(false)
    // Every operation of the table is of the first kind (a path segment is never empty), but one
    // that creates what its path names: PUT of an OpenAPI spec holds `specSlug` to the slug's rules,
    // and ones that name a thing by its form: getOrganizationsForEmailDomain holds `emailDomain` to a domain name's,
    // getOrganizationAuditEvent `auditEventId` to a UUID's (the official format).
    const STRICTER = ['createOrUpdateOpenAPISpecBySlug', 'getOrganizationsForEmailDomain', 'getOrganizationAuditEvent']
    const w = await createWorld()
    for (const op of w.api.operations) expect(routerSatisfies(op.params), op.id).toBe(!STRICTER.includes(op.id))
  })
})
