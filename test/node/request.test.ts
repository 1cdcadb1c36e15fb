import { readdirSync, readFileSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { join, relative, resolve } from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createRequest, mountPath, requestUrl, type HostRequest } from '../../src/node/request.js'

/** A stand-in for IncomingMessage: a readable with the fields the bridge reads. */
function fakeRequest(fields: Partial<HostRequest> & { headers?: Record<string, string> } = {}, body?: string): HostRequest {
  const stream = Readable.from(body === undefined ? [] : [Buffer.from(body)]) as unknown as IncomingMessage
  const headers = fields.headers ?? { host: 'example.test' }
  return Object.assign(stream, {
    method: 'GET',
    url: '/',
    socket: {},
    rawHeaders: Object.entries(headers).flat(),
    ...fields,
    headers,
  }) as HostRequest
}

describe('mountPath', () => {
  it("is Express's baseUrl when there is one", () => {
    expect(mountPath(fakeRequest({ baseUrl: '/api', originalUrl: '/api/v1/x', url: '/v1/x' }))).toBe('/api')
    expect(mountPath(fakeRequest({ baseUrl: '', originalUrl: '/v1/x', url: '/v1/x' }))).toBe('')
  })

  it('is what originalUrl has before url otherwise (Connect)', () => {
    expect(mountPath(fakeRequest({ originalUrl: '/api/v1/x?a=1', url: '/v1/x?a=1' }))).toBe('/api')
    expect(mountPath(fakeRequest({ originalUrl: '/api', url: '/' }))).toBe('/api')
    expect(mountPath(fakeRequest({ originalUrl: '/api/', url: '/' }))).toBe('/api')
    expect(mountPath(fakeRequest({ url: '/v1/x' }))).toBe('')
  })
})

describe('requestUrl', () => {
  it('is scheme, Host and the original URL', () => {
    expect(requestUrl(fakeRequest({ originalUrl: '/api/v1/x?a=1', url: '/v1/x?a=1', headers: { host: 'docs.acme.test:8080' } }))).toBe(
      'http://docs.acme.test:8080/api/v1/x?a=1',
    )
    const tls = fakeRequest({ url: '/v1/x', headers: { host: '[::1]:4000' } })
    Object.assign(tls, { socket: { encrypted: true } })
    expect(requestUrl(tls)).toBe('https://[::1]:4000/v1/x')
  })

  it('falls back to localhost on a missing or malformed Host, and takes the path of an absolute-form URL', () => {
    expect(requestUrl(fakeRequest({ url: '/v1/x', headers: {} }))).toBe('http://localhost/v1/x')
    expect(requestUrl(fakeRequest({ url: '/v1/x', headers: { host: 'evil.test/@x' } }))).toBe('http://localhost/v1/x')
    expect(requestUrl(fakeRequest({ url: 'http://proxy.test/v1/x?y=1', headers: { host: 'a.test' } }))).toBe('http://a.test/v1/x?y=1')
    // A path starting with // stays a path (not a protocol-relative URL naming another host).
    expect(new URL(requestUrl(fakeRequest({ url: '//other.test/v1/x' }))).host).toBe('example.test')
  })
})

describe('createRequest', () => {
  const signal = new AbortController().signal

  it('re-encodes a parsed body with its new length, dropping the transfer and content codings', async () => {
    const req = fakeRequest({
      method: 'POST',
      body: { title: 'é' },
      headers: { host: 'a.test', 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'content-encoding': 'gzip' },
    })
    req.resume()
    await new Promise((r) => req.on('end', r))
    const request = createRequest(req, signal)
    expect(await request.text()).toBe('{"title":"é"}')
    expect(request.headers.get('content-length')).toBe('14')
    expect(request.headers.has('transfer-encoding')).toBe(false)
    expect(request.headers.has('content-encoding')).toBe(false)
  })

  it('says application/json when it serialised a parsed value sent without a Content-Type', async () => {
    const req = fakeRequest({ method: 'PATCH', body: [1, 2], headers: { host: 'a.test', 'content-length': '5' } })
    req.resume()
    await new Promise((r) => req.on('end', r))
    const request = createRequest(req, signal)
    expect(request.headers.get('content-type')).toBe('application/json')
    expect(await request.json()).toEqual([1, 2])
  })

  it('reads the stream when nothing parsed it; none for GET and HEAD (HEAD is asked as GET)', async () => {
    const post = createRequest(fakeRequest({ method: 'POST', headers: { host: 'a.test', 'content-length': '7' } }, '{"a":1}'), signal)
    expect(await post.json()).toEqual({ a: 1 })
    const head = createRequest(fakeRequest({ method: 'HEAD', headers: { host: 'a.test', 'content-length': '7' } }, '{"a":1}'), signal)
    expect(head.method).toBe('GET')
    expect(head.body).toBeNull()
  })
})

describe('the Node entries', () => {
  it('(docs-content-api/node, docs-content-api/sqlite, docs-content-api/postgres and the command line) are the only code of src that imports Node built-ins, better-sqlite3, pg, or their code', () => {
    const src = resolve(import.meta.dirname, '../../src')
    const nodeOnly = (f: string) =>
      f === 'node.ts' ||
      f.startsWith('node/') ||
      f === 'sqlite.ts' ||
      f.startsWith('sqlite/') ||
      f === 'postgres.ts' ||
      f.startsWith('postgres/') ||
      f.startsWith('cli/')
    const offenders: string[] = []
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) walk(path)
        else if (
          /\.ts$/.test(entry.name) &&
          /from ['"]node:|import\(['"]node:|require\(['"]node:|['"]better-sqlite3['"]|from ['"]pg['"]/.test(readFileSync(path, 'utf8'))
        ) {
          offenders.push(relative(src, path))
        }
      }
    }
    walk(src)
    expect(offenders.filter((f) => !nodeOnly(f))).toEqual([])
    // Nor does the rest import the Node-only code itself (`../sqlite/store.js`, `./node.js`...).
    const importers: string[] = []
    const scan = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) scan(path)
        else if (/\.ts$/.test(entry.name) && !nodeOnly(relative(src, path))) {
          for (const m of readFileSync(path, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
            if (/(^|\/)(node|sqlite|postgres|cli)(\/|\.js$)/.test(m[1]!)) importers.push(`${relative(src, path)}: ${m[1]}`)
          }
        }
      }
    }
    scan(src)
    expect(importers).toEqual([])
    expect(offenders.length).toBeGreaterThan(0)
  })
})
