import { promises as dns } from 'node:dns'
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { addressRefusal, hostRefusal, refusedAddressError } from '../core/outgoing.js'

/**
 * A fetch for the API's outgoing requests (`createDocsApi({ fetch })`) that checks what the
 * runtime-neutral guard of core/outgoing.ts cannot: the addresses a name resolves to. Before each
 * connection it resolves the host, refuses it when ANY of its addresses is not public (the same
 * ranges as a host written as an address: private, loopback, link-local, metadata...), and
 * connects to the addresses it checked, never resolving the name a second time (a name whose
 * answer changes between the check and the connection, DNS rebinding, cannot slip through). A
 * redirect is fetched through it again, so every hop is checked too.
 *
 * It is Node's http and https clients with a `lookup` of their own (no dependency): the requests
 * the library makes (GET and POST with a buffered body, `redirect: 'manual'`, an abort signal)
 * and ordinary `fetch` calls besides (redirects followed by default, as `fetch` does).
 */

/** One address of a name, as `dns.lookup(name, { all: true })` gives them. */
export interface ResolvedAddress {
  address: string
  family?: number
}

export interface GuardedFetchOptions {
  /**
   * Let requests reach private, loopback, link-local and other reserved addresses (the
   * `allowPrivateNetwork` of createDocsApi: give both the same value).
   * @default false
   */
  allowPrivateNetwork?: boolean
  /**
   * Every address of a host name. A stub in tests (`async () => [{ address: '127.0.0.1' }]`),
   * a resolver of your own elsewhere.
   * @default (hostname) => dns.promises.lookup(hostname, { all: true }) (the system's resolver, hosts file included)
   */
  lookup?: (hostname: string) => Promise<readonly ResolvedAddress[]>
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** The most redirects a followed fetch takes (the fetch standard's 20). */
const MAX_FOLLOWED = 20
/** Statuses whose response has no body (the fetch standard's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304])

/** A network failure as `fetch` reports one: a TypeError whose cause says why. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause })
}

/** The resolver's answers, checked: every address must be public (unless allowed), whatever family the connection would use. */
async function resolveChecked(hostname: string, options: Required<GuardedFetchOptions>): Promise<Array<{ address: string; family: number }>> {
  const answers = await options.lookup(hostname)
  if (answers.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname })
  const addresses = answers.map(({ address }) => ({ address, family: isIP(address) }))
  for (const { address, family } of addresses) {
    if (family === 0) throw refusedAddressError(hostname, `resolves to ${JSON.stringify(address)}, not an IP address`)
    const why = options.allowPrivateNetwork ? undefined : addressRefusal(address)
    if (why) throw refusedAddressError(hostname, `resolves to ${address}, ${why}`)
  }
  return addresses
}

/**
 * The `lookup` of each connection: the checked addresses, which net.connect then connects to
 * (with `all`, the happy-eyeballs path of Node 20, it tries them in turn; else the first).
 */
function pinnedLookup(options: Required<GuardedFetchOptions>): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolveChecked(hostname, options).then(
      (addresses) => {
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 6 || lookupOptions.family === 'IPv6' ? 6 : 0
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses
        if (usable.length === 0) {
          const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname })
          return lookupOptions.all ? (callback as (e: Error) => void)(error) : callback(error, '', 0)
        }
        if (lookupOptions.all) return (callback as unknown as (e: null, a: typeof usable) => void)(null, usable)
        callback(null, usable[0]!.address, usable[0]!.family)
      },
      (error: Error) => (lookupOptions.all ? (callback as (e: Error) => void)(error) : callback(error, '', 0)),
    )
  }
}

/** The body as fetch hands it over: decoded as the Content-Encoding says (fetch does; Node's client does not). */
function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase()
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined
  if (!decoder) return res
  res.on('error', (error) => decoder.destroy(error))
  res.once('close', () => {
    if (!res.complete) decoder.destroy(new Error('the connection closed before the body ended'))
  })
  return res.pipe(decoder)
}

/**
 * A Node stream as a web stream that holds at most about 64 KiB ahead of its reader: the socket
 * is paused until the reader asks for more (Readable.toWeb of Node 20 counts chunks, not bytes,
 * and would take in a whole large body ahead of a reader that stopped at its cap).
 */
function webStream(source: Readable): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let settled = false
        const settle = (error?: unknown) => {
          if (settled) return
          settled = true
          if (error === undefined) controller.close()
          else controller.error(error)
        }
        source.on('data', (chunk: Buffer) => {
          if (settled) return
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          if ((controller.desiredSize ?? 0) <= 0) source.pause()
        })
        source.once('end', () => settle())
        source.once('error', (error) => settle(error))
        // A connection that closes before the body's end is a failure, not a shorter body.
        source.once('close', () => settle(new Error('the connection closed before the body ended')))
        source.pause()
      },
      pull() {
        source.resume()
      },
      cancel() {
        source.destroy()
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  )
}

function responseOf(res: IncomingMessage, method: string, url: string): Response {
  const headers = new Headers()
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!)
  const status = res.statusCode ?? 0
  const empty = method === 'HEAD' || NULL_BODY.has(status)
  if (empty) res.resume()
  const body = empty ? null : webStream(decoded(res))
  const response = new Response(body, { status, statusText: res.statusMessage ?? '', headers })
  // `url` is read-only on a constructed Response: say where the answer came from, as fetch does.
  Object.defineProperty(response, 'url', { value: url })
  return response
}

interface Exchange {
  url: URL
  method: string
  headers: Headers
  body: Uint8Array | undefined
  signal: AbortSignal
}

/** One request and its response headers, connected through the checked lookup. */
function exchange(ex: Exchange, options: Required<GuardedFetchOptions>, lookup: LookupFunction): Promise<Response> {
  const { url } = ex
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(fetchFailed(new Error(`only http and https URLs can be fetched, not ${url.protocol}`)))
  // A host written as an address (or `localhost`) is never given to `lookup`: net connects to it directly.
  const why = options.allowPrivateNetwork ? undefined : hostRefusal(url.hostname)
  if (why) return Promise.reject(fetchFailed(refusedAddressError(url.hostname, `is ${why}`)))
  if (ex.signal.aborted) return Promise.reject(ex.signal.reason)
  const headers: Record<string, string> = {}
  ex.headers.forEach((value, name) => {
    if (name !== 'host' && name !== 'connection' && name !== 'content-length') headers[name] = value
  })
  if (ex.body) headers['content-length'] = String(ex.body.byteLength)
  const requestOptions: RequestOptions = { method: ex.method, headers, lookup, agent: false, signal: ex.signal }
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, requestOptions, (res) => {
      try {
        resolve(responseOf(res, ex.method, url.href))
      } catch (error) {
        res.destroy()
        reject(fetchFailed(error))
      }
    })
    req.on('error', (error) => reject(ex.signal.aborted ? ex.signal.reason : fetchFailed(error)))
    req.end(ex.body)
  })
}

/**
 * A `fetch` that resolves each host and refuses any whose addresses are not all public, then
 * connects to the addresses it checked (see above). Its refusals are the `cause` of the
 * TypeError it rejects with, which the API answers as the 400 naming the field (files by URL),
 * the failure of a spec's processing (OpenAPI URLs) or of a Git Sync operation.
 *
 * @example
 * import { createDocsApi } from 'docs-content-api'
 * import { createGuardedFetch } from 'docs-content-api/node'
 * const api = createDocsApi({ fetch: createGuardedFetch() })
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): typeof fetch {
  const settled: Required<GuardedFetchOptions> = {
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    lookup: options.lookup ?? ((hostname) => dns.lookup(hostname, { all: true })),
  }
  const lookup = pinnedLookup(settled)
  const guardedFetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const ex: Exchange = {
      url: new URL(request.url),
      method: request.method,
      headers: new Headers(request.headers),
      body: request.body ? new Uint8Array(await request.arrayBuffer()) : undefined,
      signal: request.signal,
    }
    for (let followed = 0; ; followed++) {
      const response = await exchange(ex, settled, lookup)
      const location = response.headers.get('location')
      if (!REDIRECTS.has(response.status) || location === null || request.redirect === 'manual') return response
      await response.body?.cancel()
      if (request.redirect === 'error') throw fetchFailed(new Error(`the server redirected (${response.status}) and the request's redirect mode is "error"`))
      if (followed >= MAX_FOLLOWED) throw fetchFailed(new Error(`more than ${MAX_FOLLOWED} redirects`))
      const next = new URL(location, ex.url)
      // As fetch does: 303 (and 301/302 of a POST) go on as a GET without a body; credentials stay with their origin.
      if (response.status === 303 ? ex.method !== 'HEAD' : (response.status === 301 || response.status === 302) && ex.method === 'POST') {
        ex.method = 'GET'
        ex.body = undefined
        for (const name of ['content-type', 'content-encoding', 'content-language', 'content-location']) ex.headers.delete(name)
      }
      if (next.origin !== ex.url.origin) ex.headers.delete('authorization')
      ex.url = next
    }
  }
  return guardedFetch as typeof fetch
}
