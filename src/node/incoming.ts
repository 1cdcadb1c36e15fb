import type { ServerResponse } from 'node:http'
import type { IncomingRequest } from '../http/fetch-handler.js'
import { announcesBody, createRequest, requestUrl, type HostRequest } from './request.js'

/**
 * Characters a path and query may hold for `new URL()` to leave them as they are (unreserved,
 * sub-delims, `:@/?%`): a URL of only these, without a dot segment, is routed as Node received
 * it; any other goes through `new URL()` first, as the `Request` of the fetch path would.
 */
const PLAIN_URL = /^\/[\w\-.~!$&()*+,;=:@%/?]*$/
/** A dot segment (`/.`, `/..`, `/%2e`...), which `new URL()` resolves. */
const DOT_SEGMENT = /\/(?:\.|%2e)/i

/** The path and query of the request (mount path included), as `new URL(requestUrl(req))` has them. */
function pathAndQuery(req: HostRequest): string {
  const raw = req.originalUrl ?? req.url ?? '/'
  if (PLAIN_URL.test(raw)) {
    const q = raw.indexOf('?')
    if (!DOT_SEGMENT.test(q === -1 ? raw : raw.slice(0, q))) return raw
  }
  const url = new URL(requestUrl(req))
  return url.pathname + url.search
}

/**
 * Node's request as the API's core reads it (http/fetch-handler.ts `IncomingRequest`): method, path
 * and headers read from Node's request as they are, and a `Request` made only when something
 * reads it (a body, the control plane, `onAnswered` reading `request`), the way
 * `@hono/node-server` makes its light request a real one only on first read.
 *
 * HEAD comes as GET (the writer sends the headers only), as the `Request` of the fetch path did.
 */
export class NodeIncoming implements IncomingRequest {
  readonly method: string
  readonly url: string
  private made: Request | undefined
  private controller: AbortController | undefined

  constructor(
    readonly req: HostRequest,
    readonly res: ServerResponse,
  ) {
    this.method = req.method === 'HEAD' || req.method === undefined ? 'GET' : req.method
    this.url = pathAndQuery(req)
  }

  /** Whether the request's headers announce a body (its `Request` is then made up front). */
  get hasBody(): boolean {
    return this.method !== 'GET' && announcesBody(this.req)
  }

  header(name: string): string | null {
    // As `Headers.get`: every line of the name, joined with ", " (Node's `req.headers` drops repeats of some).
    const raw = this.req.rawHeaders
    let value: string | null = null
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const key = raw[i]!
      if (key.length === name.length && key.toLowerCase() === name) value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`
    }
    return value
  }

  /** The `Request` (made on first call); its `signal` aborts if the client goes away before the answer is sent. */
  request(): Request {
    if (this.made) return this.made
    this.controller = new AbortController()
    this.res.once('close', this.onClose)
    this.made = createRequest(this.req, this.controller.signal)
    return this.made
  }

  private readonly onClose = () => {
    if (!this.res.writableFinished) this.controller!.abort()
  }

  /** Stop listening for the client going away (the request is done with). */
  done(): void {
    if (this.controller) this.res.off('close', this.onClose)
  }
}
