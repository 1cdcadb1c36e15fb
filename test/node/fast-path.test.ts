import { request as httpRequest, Agent, type IncomingHttpHeaders } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDocsApi, type DocsApi } from '../../src/index.js'
import { toNodeHandler } from '../../src/node.js'
import { encodeCursor } from '../../src/core/paging.js'
import { createFuzzWorld, type FuzzWorld } from '../fuzz/world.js'
import { encodeSegment } from '../fuzz/requests.js'
import { listen, type Listening } from './helpers.js'

/**
 * The Node fast path (toNodeHandler without Request/Response objects) and `api.fetch` share one
 * core: a corpus of requests replayed through both, on two copies of the same world, must get the
 * same statuses, headers and bytes (less the headers of the connection).
 */

interface Case {
  name: string
  method: string
  /** Path and query, as sent on the wire. */
  path: string
  headers?: Record<string, string>
  body?: string
  /** Run on each side's API before the request (faults). */
  before?: (api: DocsApi) => void
}

interface Seen {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/** Headers of the connection, not of the answer (Node adds them; a `Response` has none). */
const CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'])

const agent = new Agent({ keepAlive: true, maxSockets: 1 })

function viaNode(base: string, c: Case): Promise<Seen & { contentLength: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${c.path}`, { method: c.method, headers: c.headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: answerHeaders(res.headers),
          body: Buffer.concat(chunks),
          contentLength: res.headers['content-length'],
        }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(c.body)
  })
}

function answerHeaders(headers: IncomingHttpHeaders | Headers): Record<string, string> {
  const out: Record<string, string> = {}
  const entries = headers instanceof Headers ? [...headers] : Object.entries(headers)
  for (const [name, value] of entries) if (!CONNECTION.has(name) && value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  return out
}

async function viaFetch(api: DocsApi, c: Case): Promise<Seen> {
  const init: RequestInit = { method: c.method, headers: c.headers }
  if (c.body !== undefined) init.body = c.body
  const res = await api.fetch(new Request(`http://localhost:4000${c.path}`, init))
  return { status: res.status, headers: answerHeaders(res.headers), body: Buffer.from(await res.arrayBuffer()) }
}

/** Replay each case through `api.fetch` on one API and the Node server on the other; compare them one by one. */
async function replay(fetchApi: DocsApi, server: Listening, nodeApi: DocsApi, cases: readonly Case[]): Promise<Map<string, number>> {
  const statuses = new Map<string, number>()
  for (const c of cases) {
    c.before?.(fetchApi)
    const viaApi = await viaFetch(fetchApi, c)
    c.before?.(nodeApi)
    const viaServer = await viaNode(server.url, c)
    const label = `${c.name}: ${c.method} ${c.path}`
    expect(viaServer.status, label).toBe(viaApi.status)
    expect(viaServer.headers, label).toEqual(viaApi.headers)
    if (c.method === 'HEAD') {
      // HEAD is answered as GET without the body: the length is the GET body's.
      expect(viaServer.body.byteLength, label).toBe(0)
    } else {
      expect(viaServer.body.toString('latin1'), label).toBe(viaApi.body.toString('latin1'))
      if (viaServer.contentLength !== undefined) expect(Number(viaServer.contentLength), label).toBe(viaApi.body.byteLength)
    }
    statuses.set(c.name, viaApi.status)
  }
  return statuses
}

describe('the Node fast path answers what api.fetch answers', () => {
  let fetchWorld: FuzzWorld
  let nodeWorld: FuzzWorld
  let server: Listening

  beforeAll(async () => {
    fetchWorld = await createFuzzWorld()
    nodeWorld = await createFuzzWorld()
    // Enough spaces for a list page of 100 and a next page: made the same way in both worlds.
    for (const world of [fetchWorld, nodeWorld]) {
      for (let i = 0; i < 110; i++) {
        const res = await world.api.fetch(
          new Request(`http://localhost:4000/v1/orgs/${world.orgs.main}/spaces`, {
            method: 'POST',
            headers: { authorization: `Bearer ${world.tokens.admin}`, 'content-type': 'application/json' },
            body: JSON.stringify({ title: `Space ${i} — ünïcode ✓` }),
          }),
        )
        expect(res.status).toBe(201)
      }
    }
    server = await listen(toNodeHandler(nodeWorld.api))
  }, 60_000)

  afterAll(async () => {
    agent.destroy()
    await server?.close()
  })

  it('every GET operation of the table, with the world ids, as the admin', async () => {
    const admin = { authorization: `Bearer ${fetchWorld.tokens.admin}` }
    const cases: Case[] = fetchWorld.api.operations
      .filter((op) => op.method === 'GET')
      .map((op) => ({
        name: op.id,
        method: 'GET',
        path: op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeSegment(fetchWorld.targets[name] ?? fetchWorld.candidates[name]?.[0] ?? 'x')),
        headers: admin,
      }))
    expect(cases.length).toBeGreaterThan(100)
    await replay(fetchWorld.api, server, nodeWorld.api, cases)
    // Both journals saw the same requests come to the same answers.
    const journal = (api: DocsApi) => api.journal.find().map(({ time: _t, seq: _s, ...entry }) => JSON.stringify(entry))
    expect(journal(nodeWorld.api)).toEqual(journal(fetchWorld.api))
  }, 60_000)

  it('a hand-made corpus: lists and pages, errors, faults, HEAD, bodiless writes, query arrays, encoded paths', async () => {
    const w = fetchWorld
    const org = w.orgs.main
    const space = w.spaces.privateSpace
    const as = (caller: keyof typeof w.tokens): Record<string, string> =>
      w.tokens[caller] === undefined ? {} : { authorization: `Bearer ${w.tokens[caller]}` }
    const admin = as('admin')
    const cases: Case[] = [
      { name: 'list, first page', method: 'GET', path: `/v1/orgs/${org}/spaces?limit=5`, headers: admin },
      { name: 'list, a cursor', method: 'GET', path: `/v1/orgs/${org}/spaces?limit=5&page=${encodeURIComponent(encodeCursor([5, 'x']))}`, headers: admin },
      { name: 'list, a large page', method: 'GET', path: `/v1/orgs/${org}/spaces?limit=100`, headers: admin },
      { name: 'list, a bad cursor', method: 'GET', path: `/v1/orgs/${org}/spaces?page=not-a-cursor`, headers: admin },
      { name: 'list, a bad limit', method: 'GET', path: `/v1/orgs/${org}/spaces?limit=abc`, headers: admin },
      { name: 'list, a limit too large', method: 'GET', path: `/v1/orgs/${org}/spaces?limit=1001`, headers: admin },
      { name: 'a scalar given twice', method: 'GET', path: `/v1/orgs/${org}/spaces?limit=1&limit=2`, headers: admin },
      { name: 'query array, repeated keys', method: 'GET', path: `/v1/orgs/${org}/change-requests?status=draft&status=open`, headers: admin },
      { name: 'query array, key[]', method: 'GET', path: `/v1/orgs/${org}/sites?type[]=basic&type[]=premium`, headers: admin },
      { name: 'query array, a bad value', method: 'GET', path: `/v1/orgs/${org}/sites?type=nope`, headers: admin },
      { name: 'a space', method: 'GET', path: `/v1/spaces/${space}`, headers: admin },
      { name: 'a space, trailing slash', method: 'GET', path: `/v1/spaces/${space}/`, headers: admin },
      { name: 'a space, HEAD', method: 'HEAD', path: `/v1/spaces/${space}`, headers: admin },
      { name: 'a list, HEAD', method: 'HEAD', path: `/v1/orgs/${org}/spaces?limit=20`, headers: admin },
      { name: 'no token: 401', method: 'GET', path: `/v1/spaces/${space}` },
      { name: 'a bad token: 401', method: 'GET', path: `/v1/spaces/${space}`, headers: as('badToken') },
      { name: 'a lowercase bearer', method: 'GET', path: '/v1/user', headers: { authorization: `bearer ${w.tokens.admin}` } },
      {
        name: 'two authorization lines',
        method: 'GET',
        path: '/v1/user',
        headers: { authorization: `Bearer ${w.tokens.admin}`, Authorization: 'Bearer other' },
      },
      { name: 'an outsider', method: 'GET', path: `/v1/spaces/${space}`, headers: as('outsider') },
      { name: 'a guest on the members', method: 'GET', path: `/v1/orgs/${org}/members`, headers: as('guest') },
      { name: 'a reader on the invites: 403', method: 'GET', path: `/v1/orgs/${org}/invites`, headers: as('read') },
      { name: 'a site token', method: 'GET', path: `/v1/spaces/${space}`, headers: as('siteToken') },
      { name: 'an installation token', method: 'GET', path: `/v1/spaces/${space}`, headers: as('installation') },
      { name: 'an unknown space: 404', method: 'GET', path: '/v1/spaces/no-such-space', headers: admin },
      { name: 'no route: 404', method: 'GET', path: '/v1/nothing/here', headers: admin },
      { name: 'outside /v1: 404', method: 'GET', path: '/elsewhere', headers: admin },
      { name: 'the root: 404', method: 'GET', path: '/', headers: admin },
      { name: 'a method not allowed: 405', method: 'PUT', path: `/v1/spaces/${space}`, headers: admin },
      { name: 'HEAD where GET is not allowed', method: 'HEAD', path: `/v1/orgs/${org}/ping`, headers: admin },
      { name: 'not implemented: 501', method: 'GET', path: '/v1/spaces/x/pdf', headers: admin },
      { name: 'not implemented, no token: 501', method: 'GET', path: '/v1/spaces/anything/change-requests/c/conversations' },
      { name: 'an encoded space in a path', method: 'GET', path: '/v1/spaces/a%20b', headers: admin },
      { name: 'an encoded slash in a path', method: 'GET', path: `/v1/spaces/${space}/content/path/welcome%2Fnext`, headers: admin },
      { name: 'encoded unicode in a path', method: 'GET', path: '/v1/spaces/%E2%9C%93', headers: admin },
      { name: 'a lowercase escape', method: 'GET', path: '/v1/spaces/%e2%9c%93', headers: admin },
      { name: 'a dot segment', method: 'GET', path: `/v1/spaces/nothing/../${space}`, headers: admin },
      { name: 'an encoded dot segment', method: 'GET', path: `/v1/spaces/nothing/%2e%2E/${space}`, headers: admin },
      { name: 'characters new URL() encodes', method: 'GET', path: `/v1/spaces/${space}?x='"<>{}|^\``, headers: admin },
      { name: 'a query with a bare %', method: 'GET', path: `/v1/orgs/${org}/spaces?limit=%zz`, headers: admin },
      { name: 'a download (bytes)', method: 'GET', path: `/files/${w.candidates.blobKey?.[0] ?? 'x'}/dot.png` },
      {
        name: 'a fault: 503',
        method: 'GET',
        path: '/v1/user',
        headers: admin,
        before: (api) => void api.faults.add({ path: '/v1/user', status: 503, times: 1 }),
      },
      {
        name: 'a fault: 429 with its own message',
        method: 'GET',
        path: `/v1/spaces/${space}`,
        headers: admin,
        before: (api) => void api.faults.add({ path: '/v1/spaces/{spaceId}', status: 429, message: 'slow down', retryAfter: 7, times: 1 }),
      },
      {
        name: 'a fault on a 501',
        method: 'GET',
        path: '/v1/spaces/x/pdf',
        before: (api) => void api.faults.add({ operationId: 'getSpacePDF', status: 500, times: 1 }),
      },
      {
        name: 'a delay fault, then the answer',
        method: 'GET',
        path: '/v1/user',
        headers: admin,
        before: (api) => void api.faults.add({ path: '/v1/user', delayMs: 5, times: 1 }),
      },
      { name: 'bodiless POST', method: 'POST', path: `/v1/orgs/${org}/ping`, headers: admin },
      { name: 'bodiless POST: 201 with Location', method: 'POST', path: `/v1/spaces/${space}/duplicate`, headers: admin },
      { name: 'bodiless POST, body required: 400', method: 'POST', path: `/v1/spaces/${space}/move`, headers: admin },
      { name: 'bodiless POST, an outsider', method: 'POST', path: `/v1/spaces/${space}/duplicate`, headers: as('outsider') },
      {
        name: 'a POST with a JSON body',
        method: 'POST',
        path: `/v1/orgs/${org}/spaces`,
        headers: { ...admin, 'content-type': 'application/json' },
        body: '{"title":"Via a body"}',
      },
      {
        name: 'a POST with bad JSON',
        method: 'POST',
        path: `/v1/orgs/${org}/spaces`,
        headers: { ...admin, 'content-type': 'application/json' },
        body: '{"title":',
      },
      { name: 'a POST as text/plain: 415', method: 'POST', path: `/v1/orgs/${org}/spaces`, headers: { ...admin, 'content-type': 'text/plain' }, body: '{}' },
      { name: 'DELETE: 204', method: 'DELETE', path: `/v1/collections/${w.collections.empty}`, headers: admin },
      { name: 'DELETE again: 204 or 404', method: 'DELETE', path: `/v1/collections/${w.collections.empty}`, headers: admin },
      { name: 'DELETE: 205', method: 'DELETE', path: `/v1/orgs/${org}/sites/${w.site.id}/redirects/${w.targets.siteRedirectId}`, headers: admin },
      { name: 'DELETE, a reader', method: 'DELETE', path: `/v1/spaces/${space}`, headers: as('read') },
      { name: 'OPTIONS without CORS', method: 'OPTIONS', path: `/v1/spaces/${space}` },
      { name: 'OPTIONS of no route', method: 'OPTIONS', path: '/v1/nothing' },
      { name: 'Prefer: return=minimal on a GET', method: 'GET', path: '/v1/user', headers: { ...admin, prefer: 'return=minimal' } },
    ]
    expect(cases.length).toBeGreaterThanOrEqual(40)
    const statuses = await replay(fetchWorld.api, server, nodeWorld.api, cases)
    // The corpus reaches what it is meant to.
    expect(new Set(statuses.values())).toEqual(new Set([200, 201, 204, 205, 400, 401, 403, 404, 405, 415, 429, 500, 501, 503]))
    expect(statuses.get('DELETE: 205')).toBe(205)
    expect(statuses.get('bodiless POST: 201 with Location')).toBe(201)
    expect(statuses.get('a dot segment')).toBe(200)
  }, 60_000)
})

describe('the Node fast path with CORS, a prefix and onAnswered', () => {
  it('answers preflights and CORS headers as api.fetch does, under the API basePath and a mount path', async () => {
    const make = () => createDocsApi({ basePath: '/api', cors: { origin: ['https://app.test'], credentials: true }, onError: () => {} })
    const fetchApi = make()
    const nodeApi = make()
    const told: Array<{ url: string | undefined; method: string; path: string; status: number; requestUrl: string }> = []
    const server = await listen(
      toNodeHandler(nodeApi, {
        onAnswered: (req, answer) =>
          told.push({ url: req.url, method: answer.method, path: answer.path, status: answer.status, requestUrl: answer.request.url }),
      }),
    )
    try {
      const origin = { origin: 'https://app.test' }
      const cases: Case[] = [
        { name: 'preflight', method: 'OPTIONS', path: '/api/v1/user', headers: { ...origin, 'access-control-request-method': 'GET' } },
        {
          name: 'preflight naming headers',
          method: 'OPTIONS',
          path: '/api/v1/orgs/x/spaces',
          headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-custom' },
        },
        {
          name: 'preflight, an origin not allowed',
          method: 'OPTIONS',
          path: '/api/v1/user',
          headers: { origin: 'https://evil.test', 'access-control-request-method': 'GET' },
        },
        { name: 'OPTIONS without a request method', method: 'OPTIONS', path: '/api/v1/user', headers: origin },
        { name: 'a 401 with CORS headers', method: 'GET', path: '/api/v1/user', headers: origin },
        { name: 'a 404 with CORS headers', method: 'GET', path: '/api/v1/nope', headers: origin },
        { name: 'outside the basePath', method: 'GET', path: '/v1/user', headers: origin },
        { name: 'a 501 with CORS headers', method: 'GET', path: '/api/v1/spaces/x/pdf', headers: origin },
        { name: 'a HEAD with CORS headers', method: 'HEAD', path: '/api/v1/user', headers: origin },
      ]
      await replay(fetchApi, server, nodeApi, cases)
      expect(told.map(({ path, status }) => `${path} ${status}`)).toEqual([
        '/v1/user 204',
        '/v1/orgs/x/spaces 204',
        '/v1/user 204',
        '/v1/user 204',
        '/v1/user 401',
        '/v1/nope 404',
        '/v1/user 404',
        '/v1/spaces/x/pdf 501',
        '/v1/user 401',
      ])
      // The hook gets Node's request, and a Request made on demand (HEAD comes as GET, as before).
      expect(told[0]!.url).toBe('/api/v1/user')
      expect(told[0]!.requestUrl).toBe(`${server.url}/api/v1/user`)
      expect(told.at(-1)!.method).toBe('GET')
    } finally {
      await server.close()
    }
  })
})

describe('what the fast path makes per request', () => {
  it('no Request nor Response for a bodiless GET, POST or DELETE; a Request for a body', async () => {
    const api = createDocsApi({ onError: () => {} })
    const ada = await api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
    const token = await api.fixtures.createToken(ada.id)
    const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
    const server = await listen(toNodeHandler(api))
    const made = { requests: 0, responses: 0 }
    const { Request: RealRequest, Response: RealResponse } = globalThis
    globalThis.Request = class extends RealRequest {
      constructor(...args: ConstructorParameters<typeof Request>) {
        super(...args)
        made.requests++
      }
    }
    globalThis.Response = class extends RealResponse {
      constructor(...args: ConstructorParameters<typeof Response>) {
        super(...args)
        made.responses++
      }
    }
    try {
      const auth = { authorization: `Bearer ${token}` }
      const bodiless: Case[] = [
        { name: 'GET', method: 'GET', path: `/v1/orgs/${org.id}`, headers: auth },
        { name: 'a list', method: 'GET', path: `/v1/orgs/${org.id}/spaces`, headers: auth },
        { name: 'HEAD', method: 'HEAD', path: `/v1/orgs/${org.id}`, headers: auth },
        { name: '404', method: 'GET', path: '/v1/nope', headers: auth },
        { name: 'a bodiless POST', method: 'POST', path: `/v1/orgs/${org.id}/ping`, headers: auth },
      ]
      for (const c of bodiless) expect((await viaNode(server.url, c)).status, c.name).toBeLessThan(500)
      expect(made).toEqual({ requests: 0, responses: 0 })
      const created = await viaNode(server.url, {
        name: 'a body',
        method: 'POST',
        path: `/v1/orgs/${org.id}/spaces`,
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"title":"A"}',
      })
      expect(created.status).toBe(201)
      expect(made).toEqual({ requests: 1, responses: 0 })
    } finally {
      globalThis.Request = RealRequest
      globalThis.Response = RealResponse
      await server.close()
    }
  })
})
