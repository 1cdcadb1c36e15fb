import type { IncomingMessage } from 'node:http'
import { ApiError } from '../core/errors.js'

/** What Express and Connect add to a Node request; a plain `node:http` request has none of it. */
export interface HostRequest extends IncomingMessage {
  /** The URL as received, before a mount path was stripped from `url` (Express, Connect). */
  originalUrl?: string
  /** The mount path Express stripped from `url` ('' at the app's root). */
  baseUrl?: string
  /** The body a middleware already parsed (express.json(), express.text(), express.raw()...). */
  body?: unknown
}

/** Thrown when the request cannot become a `Request`: the API never sees it. */
export class UnreadableRequestError extends Error {
  override name = 'UnreadableRequestError'
}

const pathOf = (url: string): string => {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

/**
 * The path a host mounted the handler under, as the client sent it: Express's `req.baseUrl`, or
 * for Connect (which only keeps `originalUrl`) what `originalUrl` has before `url`. '' at the root.
 */
export function mountPath(req: HostRequest): string {
  if (typeof req.baseUrl === 'string') return req.baseUrl
  if (typeof req.originalUrl !== 'string' || req.url === undefined || req.originalUrl === req.url) return ''
  const full = pathOf(req.originalUrl)
  const rest = pathOf(req.url)
  if (full.endsWith(rest)) return full.slice(0, full.length - rest.length)
  // Connect turns the remainder '' into '/' (a request for the mount path itself).
  if (rest === '/') return full
  return ''
}

const HOST = /^(?:[\w.-]+|\[[\da-fA-F:.]+\])(?::\d{1,5})?$/

/** The full URL the client asked for: scheme and Host, and `originalUrl` (mount path included). */
export function requestUrl(req: HostRequest): string {
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true
  const header = req.headers.host ?? req.headers[':authority']
  const host = typeof header === 'string' && HOST.test(header) ? header : 'localhost'
  const raw = req.originalUrl ?? req.url ?? '/'
  let path = raw
  if (!raw.startsWith('/')) {
    // Absolute form (`GET http://host/path`, as sent to proxies), or `*`.
    try {
      const url = new URL(raw)
      path = url.pathname + url.search
    } catch {
      path = '/'
    }
  }
  return `${encrypted ? 'https' : 'http'}://${host}${path}`
}

/** True when the request's headers announce a body (a length above 0, or chunked transfer). */
export function announcesBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true
  const length = Number(req.headers['content-length'] ?? 0)
  return Number.isFinite(length) && length > 0
}

const isEmptyPlainObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0

/**
 * The request's own bytes as a web stream, read as the API pulls them. A connection closing
 * before the body is complete is the client's doing: it surfaces as a 400 inside the API, not
 * as an unexpected error to log.
 */
function streamOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer | string> | undefined
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= req[Symbol.asyncIterator]()
        let next: IteratorResult<Buffer | string>
        try {
          next = await chunks.next()
        } catch {
          throw new ApiError('BAD_REQUEST', 'Invalid request: the body was not received in full (the connection closed)')
        }
        if (next.done) controller.close()
        else if (typeof next.value === 'string') controller.enqueue(new TextEncoder().encode(next.value))
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength))
      },
      cancel() {
        // Let Node discard the rest; destroying the request would close the connection.
        if (!chunks) req.resume()
      },
    },
    { highWaterMark: 0 },
  )
}

/** A body a middleware already parsed, as bytes: a string or bytes as they are, anything else as JSON. */
function encodeParsed(value: unknown): { bytes: Uint8Array<ArrayBuffer>; json: boolean } {
  if (typeof value === 'string') return { bytes: new TextEncoder().encode(value), json: false }
  // A copy: the body becomes the Request's own (it is at most the size the parser accepted).
  if (value instanceof Uint8Array) return { bytes: Uint8Array.from(value), json: false }
  return { bytes: new TextEncoder().encode(JSON.stringify(value) ?? ''), json: true }
}

/**
 * The `Request` the API sees. HEAD is asked as GET (the response goes out without its body).
 *
 * The body: none for GET/HEAD or when the headers announce none (so the `{}` that
 * express.json() leaves on a bodiless request is not taken for one); else the parsed `req.body`
 * when a middleware read the stream; else the stream itself.
 */
export function createRequest(req: HostRequest, signal: AbortSignal): Request {
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET')
  const headers = new Headers()
  const raw = req.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!raw[i]!.startsWith(':')) headers.append(raw[i]!, raw[i + 1]!)
  }
  let body: BodyInit | null = null
  if (method !== 'GET' && announcesBody(req)) {
    const consumed = req.readableDidRead || req.readableEnded
    // Express 4 sets req.body = {} even when express.json() skipped the request (another
    // Content-Type): the stream is then unread and holds the real body.
    const parsed = req.body !== undefined && !(isEmptyPlainObject(req.body) && !consumed)
    if (parsed) {
      const { bytes, json } = encodeParsed(req.body)
      // The bytes are the parsed value re-encoded: the announced length and coding no longer hold.
      headers.delete('transfer-encoding')
      headers.delete('content-encoding')
      headers.set('content-length', String(bytes.byteLength))
      if (json && !headers.has('content-type')) headers.set('content-type', 'application/json')
      body = bytes
    } else if (consumed) {
      throw new UnreadableRequestError(
        'The request body was already read by another middleware, which left no parsed req.body: mount the API before it, or parse JSON with express.json()',
      )
    } else {
      body = streamOf(req)
    }
  }
  // `duplex` is required by Node's fetch for a streamed body; the DOM typings do not know it yet.
  return new Request(requestUrl(req), { method, headers, body, signal, duplex: 'half' } as RequestInit)
}
