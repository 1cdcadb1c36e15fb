import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { createGuardedFetch, type ResolvedAddress } from '../../src/node.js'
import { refusalIn } from '../../src/core/outgoing.js'
import { call, expectError } from '../helpers.js'

/**
 * The Node guard resolves names and checks every address before connecting. No real DNS here: a
 * stub resolver answers from a table (names under example.com, which the stub alone resolves),
 * and the one server the tests reach listens on 127.0.0.1, so only `allowPrivateNetwork` reaches it.
 */

const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0))

/** A server on 127.0.0.1 recording each request (method, Host header, path, body). */
const seen: Array<{ method: string; host: string; path: string; body: string }> = []
let port = 0
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    seen.push({ method: req.method!, host: req.headers.host!, path: req.url!, body: Buffer.concat(chunks).toString() })
    if (req.url === '/dot.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG)
    if (req.url === '/gzip') return res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('hello, decoded'))
    if (req.url?.startsWith('/to/')) return res.writeHead(302, { location: decodeURIComponent(req.url.slice(4)) }).end()
    if (req.url === '/see-other') return res.writeHead(303, { location: '/echo' }).end()
    if (req.url === '/cut') {
      res.writeHead(200, { 'content-length': '1000' }).write('only a little')
      return void setTimeout(() => res.destroy(), 10)
    }
    if (req.url === '/cut-gzip') {
      res.writeHead(200, { 'content-encoding': 'gzip' }).write(gzipSync('x'.repeat(100_000)).subarray(0, 50))
      return void setTimeout(() => res.destroy(), 10)
    }
    if (req.url === '/echo')
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, auth: req.headers.authorization ?? null }))
    res.writeHead(404).end('no such thing')
  })
})
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise((done) => server.close(done))
})

/** A resolver from a table, recording each name it is asked. Unknown names fail as getaddrinfo does. */
function stubDns(table: Record<string, string[]>) {
  const asked: string[] = []
  const lookup = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname)
    const addresses = table[hostname]
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return { lookup, asked }
}

const DNS = {
  'files.example.com': ['127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'mixed.example.com': ['93.184.216.34', '10.0.0.7'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'v6.example.com': ['2606:2800:220:1::', 'fd00::1'],
}

/** What a guarded fetch rejects with: a TypeError whose cause chain holds the refusal. */
async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(TypeError)
  return refusalIn(error)
}

describe('createGuardedFetch', () => {
  it('refuses a name when any of its addresses is not public, before connecting', async () => {
    const dns = stubDns(DNS)
    const fetch = createGuardedFetch({ lookup: dns.lookup })
    const before = seen.length
    expect(await refusal(fetch(`http://files.example.com:${port}/dot.png`))).toBe(
      'files.example.com resolves to 127.0.0.1, a loopback address; only public addresses can be fetched',
    )
    expect(await refusal(fetch(`http://metadata.example.com:${port}/latest/meta-data/`))).toBe(
      'metadata.example.com resolves to 169.254.169.254, a link-local address; only public addresses can be fetched',
    )
    expect(await refusal(fetch(`http://mixed.example.com:${port}/`))).toBe(
      'mixed.example.com resolves to 10.0.0.7, a private address; only public addresses can be fetched',
    )
    expect(await refusal(fetch(`http://mapped.example.com:${port}/`))).toMatch(/resolves to ::ffff:127\.0\.0\.1, a loopback address/)
    expect(await refusal(fetch(`https://v6.example.com:${port}/`))).toMatch(/resolves to fd00::1, a unique-local address/)
    expect(seen.length).toBe(before)
  })

  it('refuses a host written as a private address or a local name without asking the resolver', async () => {
    const dns = stubDns(DNS)
    const fetch = createGuardedFetch({ lookup: dns.lookup })
    expect(await refusal(fetch(`http://127.0.0.1:${port}/dot.png`))).toBe('127.0.0.1 is a loopback address; only public addresses can be fetched')
    expect(await refusal(fetch(`http://[::1]:${port}/`))).toMatch(/is a loopback address/)
    expect(await refusal(fetch(`http://localhost:${port}/`))).toMatch(/localhost is a local host name/)
    expect(dns.asked).toEqual([])
  })

  it('connects to the address it checked: the name is resolved once, by the given resolver, and never again', async () => {
    const dns = stubDns(DNS)
    // Allowed here, so the loopback server can stand for the address the check let through.
    const fetch = createGuardedFetch({ lookup: dns.lookup, allowPrivateNetwork: true })
    const before = seen.length
    const res = await fetch(`http://files.example.com:${port}/dot.png`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG)
    expect(res.url).toBe(`http://files.example.com:${port}/dot.png`)
    // No other resolver knows files.example.com: the connection went where the stub said, asked once.
    expect(dns.asked).toEqual(['files.example.com'])
    expect(seen.slice(before)).toEqual([{ method: 'GET', host: `files.example.com:${port}`, path: '/dot.png', body: '' }])
  })

  it('checks every redirect it follows, and follows as fetch does (303 to GET, credentials kept to their origin)', async () => {
    const dns = stubDns({ ...DNS, 'other.example.com': ['127.0.0.1'] })
    const open = createGuardedFetch({ lookup: dns.lookup, allowPrivateNetwork: true })
    const followed = await open(`http://files.example.com:${port}/to/${encodeURIComponent(`http://other.example.com:${port}/echo`)}`, {
      headers: { authorization: 'Bearer secret' },
    })
    expect(await followed.json()).toEqual({ method: 'GET', auth: null })
    expect(dns.asked).toEqual(['files.example.com', 'other.example.com'])
    const seeOther = await open(`http://files.example.com:${port}/see-other`, { method: 'POST', body: 'x', headers: { authorization: 'Bearer secret' } })
    expect(await seeOther.json()).toEqual({ method: 'GET', auth: 'Bearer secret' })
    const manual = await open(`http://files.example.com:${port}/see-other`, { redirect: 'manual' })
    expect([manual.status, manual.headers.get('location')]).toEqual([303, '/echo'])
    // A redirect to a host written as a private address is refused when the guard is on.
    const guarded = createGuardedFetch({ lookup: stubDns({}).lookup })
    expect(await refusal(guarded(`http://127.0.0.1:${port}/to/x`))).toMatch(/127\.0\.0\.1 is a loopback address/)
  })

  it('sends a body, answers errors as responses and decodes an encoded body, as fetch does', async () => {
    const fetch = createGuardedFetch({ lookup: stubDns(DNS).lookup, allowPrivateNetwork: true })
    const before = seen.length
    const posted = await fetch(`http://files.example.com:${port}/nothing`, {
      method: 'POST',
      body: new TextEncoder().encode('{"a":1}'),
      headers: { 'content-type': 'application/json' },
    })
    expect([posted.status, await posted.text()]).toEqual([404, 'no such thing'])
    expect(seen.slice(before).map((r) => [r.method, r.body])).toEqual([['POST', '{"a":1}']])
    expect(await (await fetch(`http://files.example.com:${port}/gzip`)).text()).toBe('hello, decoded')
    const unknown = await fetch(`http://nowhere.example.com:${port}/`).catch((e: unknown) => e)
    expect(unknown).toBeInstanceOf(TypeError)
    expect(String((unknown as { cause?: unknown }).cause)).toMatch(/ENOTFOUND nowhere\.example\.com/)
    // A body cut short fails its reader, encoded or not (never a shorter body taken for the whole).
    for (const path of ['/cut', '/cut-gzip']) {
      const cut = await fetch(`http://files.example.com:${port}${path}`)
      expect(cut.status).toBe(200)
      await expect(cut.arrayBuffer(), path).rejects.toThrow()
    }
    const aborted = await fetch(`http://files.example.com:${port}/dot.png`, { signal: AbortSignal.abort() }).catch((e: unknown) => e)
    expect((aborted as Error).name).toBe('AbortError')
  })
})

describe('the API over the guarded fetch', () => {
  async function world(options: { allowPrivateNetwork?: boolean } = {}) {
    const dns = stubDns(DNS)
    const api = createDocsApi({ fetch: createGuardedFetch({ lookup: dns.lookup, ...options }), ...options })
    const ada = await api.fixtures.createUser({ displayName: 'Ada' })
    const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
    const token = await api.fixtures.createToken(ada.id)
    const space = await api.fixtures.createSpace(org.id, { title: 'Files' })
    const cr = (await call(api, token, 'POST', `/v1/spaces/${space.id}/change-requests`, {})).body
    const insert = (url: string) =>
      call(api, token, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
        changes: [{ operation: 'insert_files', files: [{ name: 'dot.png', url }] }],
      })
    return { api, token, org, insert, dns }
  }

  it('answers a file URL whose name resolves to a private address with the 400 of a private host, nothing fetched', async () => {
    const w = await world()
    const before = seen.length
    const res = await w.insert(`http://files.example.com:${port}/dot.png`)
    expectError(
      res,
      400,
      'Invalid request: body field `changes[0].files[0].url`: files.example.com resolves to 127.0.0.1, a loopback address; only public addresses can be fetched',
    )
    const metadata = await w.insert('http://metadata.example.com/latest/meta-data/iam/security-credentials/')
    expectError(metadata, 400, 'metadata.example.com resolves to 169.254.169.254, a link-local address')
    expect(seen.length).toBe(before)
  })

  it('checks the hops of a redirect through the same fetch', async () => {
    const dns = stubDns(DNS)
    const guarded = createGuardedFetch({ lookup: dns.lookup })
    // The first hop stands for a public server (the one test server is on loopback): it redirects to a name of a private address.
    const fetch = (async (input: string | URL | Request, init?: RequestInit) =>
      String(input) === 'https://public.example.com/logo.png'
        ? new Response(null, { status: 302, headers: { location: `http://files.example.com:${port}/dot.png` } })
        : guarded(input, init)) as typeof globalThis.fetch
    const api = createDocsApi({ fetch })
    const ada = await api.fixtures.createUser({ displayName: 'Ada' })
    const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
    const token = await api.fixtures.createToken(ada.id)
    const space = await api.fixtures.createSpace(org.id, { title: 'Files' })
    const cr = (await call(api, token, 'POST', `/v1/spaces/${space.id}/change-requests`, {})).body
    const before = seen.length
    const res = await call(api, token, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'logo.png', url: 'https://public.example.com/logo.png' }] }],
    })
    expectError(
      res,
      400,
      `body field \`changes[0].files[0].url\`: could not fetch the URL: redirected to http://files.example.com:${port}/dot.png: files.example.com resolves to 127.0.0.1, a loopback address`,
    )
    expect(dns.asked).toEqual(['files.example.com'])
    expect(seen.length).toBe(before)
  })

  it('fetches through the checked address when private addresses are allowed', async () => {
    const w = await world({ allowPrivateNetwork: true })
    const res = await w.insert(`http://files.example.com:${port}/dot.png`)
    expect(res.status).toBe(200)
    expect(res.body.insertedFiles[0]).toMatchObject({ contentType: 'image/png', size: PNG.byteLength, dimensions: { width: 1, height: 1 } })
  })

  it('ends an OpenAPI spec whose URL resolves to a private address in FETCH_ERROR, saying why', async () => {
    const w = await world()
    const before = seen.length
    const created = await call(w.api, w.token, 'POST', `/v1/orgs/${w.org.id}/openapi`, {
      slug: 'pets',
      source: { url: `http://files.example.com:${port}/openapi.json` },
    })
    expect(created.status).toBe(201)
    await w.api.idle()
    const spec = await call(w.api, w.token, 'GET', `/v1/orgs/${w.org.id}/openapi/pets`)
    expect(spec.body).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'FETCH_ERROR' })
    expect(spec.body.lastProcessedErrors[0].message).toBe(
      `Fetching http://files.example.com:${port}/openapi.json failed: files.example.com resolves to 127.0.0.1, a loopback address; only public addresses can be fetched`,
    )
    expect(seen.length).toBe(before)
  })
})
