import { describe, expect, it } from 'vitest'
import { createDocsApi, createFetchHandler, createOpenApiDocument, type DocsApi } from '../../src/index.js'
import { createClock, createDemoState } from '../../src/testing.js'

// The control plane (/_admin/, src/http/admin.ts) over the fetch handler. A real served instance: test/cli/admin-serve.test.ts.

const ADMIN = 'test-admin-token-0123456789'
const BASE = 'http://localhost:4000'

async function setup(options: { admin?: boolean | { token?: string }; clock?: boolean } = {}) {
  const clock = createClock()
  const { state, demo } = await createDemoState()
  const api = createDocsApi({ seed: state, ...(options.clock !== false && { now: clock.now }), admin: options.admin ?? { token: ADMIN } })
  const adminCall = async (method: string, path: string, body?: unknown, token: string | null = ADMIN) => {
    const res = await api.fetch(`${BASE}/_admin${path}`, {
      method,
      headers: { ...(token !== null && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    })
    const text = await res.text()
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
  }
  const user = async (method: string, path: string, body?: unknown, token = demo.adminToken) => {
    const res = await api.fetch(`${BASE}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
  }
  const orgTitle = (a: DocsApi = api) => a.store.read((tx) => tx.get('organizations', demo.organization.id))!.title
  return { api, clock, demo, adminCall, user, orgTitle }
}

describe('control plane: access', () => {
  it('answers with the admin token; 401 without it, with a wrong one, and with a user API token', async () => {
    const { adminCall, demo } = await setup()
    const ok = await adminCall('GET', '/health')
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ ok: true, faults: 0, snapshots: 0, controllableClock: true })

    const none = await adminCall('GET', '/health', undefined, null)
    expect(none.status).toBe(401)
    expect(none.body.error.message).toMatch(/admin token/)
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect((await adminCall('GET', '/health', undefined, 'wrong-token-wrong-token')).status).toBe(401)
    const userToken = await adminCall('POST', '/reset', undefined, demo.adminToken)
    expect(userToken.status).toBe(401)
    expect(userToken.body.error.message).toMatch(/user API token does not open the control plane/)
  })

  it('is off by default: /_admin/ is then the API\u2019s usual 404', async () => {
    const api = createDocsApi()
    const res = await api.fetch(`${BASE}/_admin/health`)
    expect(res.status).toBe(404)
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/No route/)
  })

  it('admin: true opens it without a token (in process), and createFetchHandler can turn it on over an API without it', async () => {
    const open = await setup({ admin: true })
    expect((await open.adminCall('GET', '/health', undefined, null)).status).toBe(200)
    const api = createDocsApi()
    const handler = createFetchHandler(api, { basePath: '/api', admin: { token: ADMIN } })
    expect((await handler(`${BASE}/api/_admin/health`, { headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(200)
    expect((await handler(`${BASE}/api/_admin/health`)).status).toBe(401)
    expect(() => createDocsApi({ admin: { token: 'short' } })).toThrow(/at least 16/)
    expect(() => createFetchHandler(api, { admin: { token: 'short' } })).toThrow(/at least 16/)
  })

  it('unknown routes 404, wrong methods 405 with Allow, unknown query parameters 400; nothing is journaled', async () => {
    const { adminCall, api } = await setup()
    expect((await adminCall('GET', '/nope')).status).toBe(404)
    const wrong = await adminCall('PATCH', '/journal')
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, DELETE')
    const q = await adminCall('GET', '/health?x=1')
    expect(q.status).toBe(400)
    expect(q.body.error.message).toMatch(/x/)
    expect(api.journal.entries).toEqual([])
  })
})

describe('control plane: state', () => {
  it('reset goes back to the seed and clears the journal and faults (each can be kept)', async () => {
    const { adminCall, user, orgTitle, api, demo } = await setup()
    const original = orgTitle()
    expect((await user('PATCH', `/v1/orgs/${demo.organization.id}`, { title: 'Changed' })).status).toBe(200)
    expect(orgTitle()).toBe('Changed')
    api.faults.add({ path: '/v1/nothing', status: 500 })
    const res = await adminCall('POST', '/reset')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ reset: { state: true, journal: true, faults: true } })
    expect(orgTitle()).toBe(original)
    expect(api.journal.entries).toEqual([])
    expect(api.faults.list()).toEqual([])

    await user('GET', '/v1/orgs')
    expect((await adminCall('POST', '/reset', { journal: false })).status).toBe(200)
    expect(api.journal.entries).toHaveLength(1)
    const bad = await adminCall('POST', '/reset', { journal: 'no' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toMatch(/`journal`/)
  })

  it('named snapshots: create, list, restore (twice), delete; bad names 400 naming `name`; unknown 404', async () => {
    const { adminCall, user, orgTitle, demo } = await setup()
    const created = await adminCall('POST', '/snapshots', { name: 'before-rename' })
    expect(created.status).toBe(201)
    expect(created.body.name).toBe('before-rename')
    const original = orgTitle()
    await user('PATCH', `/v1/orgs/${demo.organization.id}`, { title: 'Renamed' })
    expect((await adminCall('GET', '/snapshots')).body.items.map((s: { name: string }) => s.name)).toEqual(['before-rename'])
    for (let i = 0; i < 2; i++) {
      expect((await adminCall('POST', '/snapshots/before-rename/restore')).status).toBe(200)
      expect(orgTitle()).toBe(original)
      await user('PATCH', `/v1/orgs/${demo.organization.id}`, { title: `Renamed ${i}` })
    }
    expect((await adminCall('DELETE', '/snapshots/before-rename')).status).toBe(204)
    expect((await adminCall('GET', '/snapshots')).body.items).toEqual([])
    const missing = await adminCall('POST', '/snapshots/before-rename/restore')
    expect(missing.status).toBe(404)
    expect(missing.body.error.message).toMatch(/before-rename/)
    const bad = await adminCall('POST', '/snapshots', { name: 'has space' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toMatch(/`name`/)
    expect((await adminCall('POST', '/snapshots')).status).toBe(400)
    expect((await adminCall('POST', '/snapshots', '{nope')).body.error.message).toMatch(/not JSON/)
  })

  it('GET /state dumps the state document; PUT replaces it; a refused document changes nothing', async () => {
    const { adminCall, user, orgTitle, demo } = await setup()
    const dumped = await adminCall('GET', '/state')
    expect(dumped.status).toBe(200)
    expect(dumped.body.format).toBe('docs-content-api/state')
    const doc = dumped.body
    doc.organizations[0].title = 'Seeded over HTTP'
    // Only the organization's first space is kept: the others go.
    const keep = doc.spaces[0].id
    const put = await adminCall('PUT', '/state', doc)
    expect(put.status).toBe(200)
    expect(put.body.loaded.organizations).toBe(1)
    expect(orgTitle()).toBe('Seeded over HTTP')
    expect((await user('GET', `/v1/spaces/${keep}`)).status).toBe(200)

    const minimal = { users: [{ id: 'u1', displayName: 'Only One' }], tokens: [{ id: 'gb_api_only_one_token', user: 'u1' }] }
    expect((await adminCall('PUT', '/state', minimal)).status).toBe(200)
    expect((await user('GET', `/v1/orgs/${demo.organization.id}`, undefined, 'gb_api_only_one_token')).status).toBe(404)
    expect((await user('GET', '/v1/user', undefined, 'gb_api_only_one_token')).body.displayName).toBe('Only One')
    expect((await user('GET', '/v1/user')).status).toBe(401)

    const refused = await adminCall('PUT', '/state', { users: [{ id: 'u2' }] })
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toMatch(/users\[0\]\.displayName/)
    expect((await user('GET', '/v1/user', undefined, 'gb_api_only_one_token')).body.displayName).toBe('Only One')
  })
})

describe('control plane: journal, faults, idle, clock', () => {
  it('the journal is filtered by operationId, status, path and limit; DELETE clears it', async () => {
    const { adminCall, user, demo } = await setup()
    await user('GET', '/v1/orgs')
    await user('GET', `/v1/orgs/${demo.organization.id}`)
    await user('GET', '/v1/orgs', undefined, 'not-a-token')
    await user('GET', '/v1/orgs')
    const byOp = await adminCall('GET', '/journal?operationId=listOrganizationsForAuthenticatedUser')
    expect(byOp.body.count).toBe(3)
    expect(byOp.body.items.map((e: { status: number }) => e.status)).toEqual([200, 401, 200])
    const unauthorized = await adminCall('GET', '/journal?status=401')
    expect(unauthorized.body.items).toHaveLength(1)
    expect(unauthorized.body.items[0]).toMatchObject({ path: '/v1/orgs', status: 401, method: 'GET' })
    const byPath = await adminCall('GET', `/journal?path=/v1/orgs/${demo.organization.id}`)
    expect(byPath.body.items.map((e: { operationId: string }) => e.operationId)).toEqual(['getOrganizationById'])
    expect(byPath.body.items[0].responseBody.id).toBe(demo.organization.id)
    const last = await adminCall('GET', '/journal?limit=1')
    expect(last.body.count).toBe(4)
    expect(last.body.items).toHaveLength(1)
    expect(last.body.items[0].seq).toBe(4)
    expect((await adminCall('GET', '/journal?since=3')).body.items.map((e: { seq: number }) => e.seq)).toEqual([4])
    const bad = await adminCall('GET', '/journal?status=abc')
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toMatch(/`status`/)
    expect((await adminCall('GET', '/journal?limit=0')).body.error.message).toMatch(/`limit`/)
    expect((await adminCall('DELETE', '/journal')).status).toBe(204)
    expect((await adminCall('GET', '/journal')).body).toEqual({ items: [], count: 0 })
  })

  it('a fault added over HTTP makes the next matching request fail as api.faults would, then it is spent', async () => {
    const { adminCall, user, api } = await setup()
    const added = await adminCall('POST', '/faults', { path: '/v1/orgs', method: 'get', status: 503, times: 1, message: 'down for a test' })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ id: expect.any(String), path: '/v1/orgs', status: 503, hits: 0, spent: false })
    expect((await adminCall('GET', '/faults')).body.items).toHaveLength(1)
    const failed = await user('GET', '/v1/orgs')
    expect(failed.status).toBe(503)
    expect(failed.headers.get('retry-after')).toBe('1')
    expect(failed.body).toEqual({ error: { code: 503, message: 'down for a test' } })
    expect(api.journal.last()!.fault).toBe(true)
    expect((await user('GET', '/v1/orgs')).status).toBe(200)
    expect((await adminCall('GET', '/faults')).body.items).toEqual([])
    expect((await adminCall('GET', '/journal?fault=true')).body.count).toBe(1)

    // By template and by pattern; one removed by id, the rest cleared.
    const byTemplate = await adminCall('POST', '/faults', { path: '/v1/orgs/{organizationId}', status: 500 })
    const byPattern = await adminCall('POST', '/faults', { pathPattern: '^/v1/user$', status: 429, retryAfter: 7 })
    expect(byPattern.body.pathPattern).toBe('^/v1/user$')
    const me = await user('GET', '/v1/user')
    expect(me.status).toBe(429)
    expect(me.headers.get('retry-after')).toBe('7')
    expect((await adminCall('DELETE', `/faults/${byPattern.body.id}`)).status).toBe(204)
    expect((await user('GET', '/v1/user')).status).toBe(200)
    expect((await adminCall('GET', '/faults')).body.items.map((f: { id: string }) => f.id)).toEqual([byTemplate.body.id])
    expect((await adminCall('DELETE', '/faults/fault-999')).status).toBe(404)
    expect((await adminCall('DELETE', '/faults')).status).toBe(204)
    expect(api.faults.list()).toEqual([])
  })

  it('a bad fault is refused with 400 naming the field', async () => {
    const { adminCall, api } = await setup()
    const cases: Array<[unknown, RegExp]> = [
      [{ status: 200 }, /`status`.*400\.\.599/],
      [{ status: 500, probability: 2 }, /`probability`/],
      [{ status: 500, times: 0 }, /`times`/],
      [{ path: '/v1/orgs' }, /`status`: give a status/],
      [{ status: 500, pathPattern: '(' }, /`pathPattern`: not a regular expression/],
      [{ status: 500, colour: 'red' }, /colour/],
      [{ status: '500' }, /`status`/],
    ]
    for (const [body, message] of cases) {
      const res = await adminCall('POST', '/faults', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message).toMatch(message)
    }
    expect(api.faults.list()).toEqual([])
  })

  it('idle answers once background work is done', async () => {
    const { adminCall } = await setup()
    const res = await adminCall('POST', '/idle')
    expect(res).toMatchObject({ status: 200, body: { idle: true } })
  })

  it('clock: advance moves the timestamps the API writes; set; 409 for an API on the real clock', async () => {
    const { adminCall, user, demo } = await setup()
    const before = (await adminCall('GET', '/clock')).body
    expect(before.controllable).toBe(true)
    const first = await user('POST', `/v1/orgs/${demo.organization.id}/spaces`, { title: 'First' })
    expect(first.status).toBe(201)
    const advanced = await adminCall('POST', '/clock/advance', { duration: '1d2h' })
    expect(advanced.status).toBe(200)
    expect(Date.parse(advanced.body.now) - Date.parse(before.now)).toBe(26 * 3600_000)
    const second = await user('POST', `/v1/orgs/${demo.organization.id}/spaces`, { title: 'Second' })
    expect(Date.parse(second.body.createdAt) - Date.parse(first.body.createdAt)).toBe(26 * 3600_000)
    expect((await adminCall('POST', '/clock/advance', { ms: 500 })).body.now).toBe(new Date(Date.parse(advanced.body.now) + 500).toISOString())

    const set = await adminCall('POST', '/clock/set', { at: '2030-05-01T12:00:00.000Z' })
    expect(set.body.now).toBe('2030-05-01T12:00:00.000Z')
    expect((await adminCall('POST', '/clock/set', { at: 'tomorrow' })).body.error.message).toMatch(/`at`/)
    expect((await adminCall('POST', '/clock/advance', {})).body.error.message).toMatch(/`ms`.*one of/)
    expect((await adminCall('POST', '/clock/advance', { duration: '3 weeks' })).body.error.message).toMatch(/`duration`/)

    const real = await setup({ clock: false })
    expect((await real.adminCall('GET', '/clock')).body.controllable).toBe(false)
    const refused = await real.adminCall('POST', '/clock/advance', { ms: 1000 })
    expect(refused.status).toBe(409)
    expect(refused.body.error.message).toMatch(/createClock/)
  })
})

describe('control plane: OpenAPI', () => {
  it('lists the admin routes as beyond-official operations under their own tag and credential when asked', () => {
    const api = createDocsApi()
    const plain = createOpenApiDocument(api.operations)
    expect(Object.keys(plain.paths).some((p) => p.startsWith('/_admin'))).toBe(false)
    const doc = createOpenApiDocument(api.operations, { admin: true })
    expect(doc.tags.map((t) => t.name)).toContain('Control plane (docs-content-api)')
    const reset = doc.paths['/_admin/reset']!.post as Record<string, any>
    expect(reset).toMatchObject({
      operationId: 'adminReset',
      tags: ['Control plane (docs-content-api)'],
      security: [{ adminBearer: [] }],
      'x-beyond-official': true,
    })
    expect(doc.components.securitySchemes.adminBearer).toEqual({ type: 'http', scheme: 'bearer', description: expect.any(String) })
    const faults = doc.paths['/_admin/faults']!.post as Record<string, any>
    expect(faults.requestBody.content['application/json'].schema.properties.status.maximum).toBe(599)
    const journal = doc.paths['/_admin/journal']!.get as Record<string, any>
    expect(journal.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['operationId', 'status', 'path', 'limit']))
    expect((doc.paths['/_admin/snapshots/{name}']!.delete as Record<string, any>).parameters[0]).toMatchObject({ name: 'name', in: 'path', required: true })
  })
})
