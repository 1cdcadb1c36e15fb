import { createServer, request as httpRequest, type IncomingHttpHeaders, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createDocsApi, type DocsApiOptions } from '../../src/index.js'

export interface Listening {
  url: string
  close(): Promise<void>
}

/** A real HTTP server on a free port around `listener`. */
export async function listen(listener: RequestListener): Promise<Listening> {
  const server = createServer(listener)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    close: () =>
      new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()))
        server.closeAllConnections()
      }),
  }
}

/** An API with an admin (token) in an organization. */
export async function createSeededApi(options: DocsApiOptions = {}) {
  const api = createDocsApi(options)
  const ada = await api.fixtures.createUser({ displayName: 'Ada Lovelace', email: 'ada@acme.test' })
  const token = await api.fixtures.createToken(ada.id)
  const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
  return { api, token, org, auth: { authorization: `Bearer ${token}` } }
}

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/**
 * One request through `node:http` (unlike `fetch`, it can send a HEAD and read its raw headers,
 * or send a body without a Content-Length).
 */
export function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; chunked?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    if (init.body !== undefined && init.chunked) {
      // Two writes without a Content-Length: Node sends it chunked.
      const half = Math.floor(init.body.length / 2)
      req.write(init.body.slice(0, half))
      setTimeout(() => req.end(init.body!.slice(half)), 10)
    } else req.end(init.body)
  })
}
