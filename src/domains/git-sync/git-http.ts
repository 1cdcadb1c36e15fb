import { checkOutgoingUrl, refusalIn } from '../../core/outgoing.js'
import { isConnectionReset } from './connection-reset.js'
import { concatBytes } from './pack/pkt-line.js'
import type { Remote } from './remote.js'

/**
 * isomorphic-git's HTTP client (`{ request }`) over the `fetch` the API was given, guarded as
 * every outgoing request of the library is (core/outgoing.ts): http(s) only, private and loopback
 * addresses only with `allowPrivateNetwork`, each redirect checked like the first URL (at most 5),
 * and a name that resolves to a private address refused by the fetch itself when it checks that
 * (createGuardedFetch of the Node entry).
 * The remote's credentials go as an Authorization header, and only to the remote's own origin
 * (a redirect elsewhere does not carry them). Answers are capped at `maxBytes` while read.
 * A request that reads (the refs, an upload-pack negotiation) is sent again once when the
 * connection broke before an answer came (connection-reset.ts); a push never is.
 */

/** What isomorphic-git passes to `request` and expects back (its GitHttpRequest / GitHttpResponse). */
export interface GitHttpRequest {
  url: string
  method?: string
  headers?: Record<string, string>
  body?: AsyncIterable<Uint8Array> | Iterable<Uint8Array>
  signal?: unknown
}
export interface GitHttpResponse {
  url: string
  method: string
  statusCode: number
  statusMessage: string
  headers: Record<string, string>
  body: AsyncIterableIterator<Uint8Array>
}
export interface GitHttpClient {
  request(request: GitHttpRequest): Promise<GitHttpResponse>
}

/** A failure of the exchange itself (a refused address, no answer, too large), its message safe to record. */
export class GitTransportError extends Error {
  override name = 'GitTransportError'
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 5

async function collect(body: GitHttpRequest['body']): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!body) return undefined
  const chunks: Uint8Array[] = []
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(chunk)
  return concatBytes(chunks)
}

/** The response body as chunks, failing once more than `budget.left` bytes came in (shared by every response of a job). */
async function* capped(response: Response, budget: { left: number; max: number }): AsyncIterableIterator<Uint8Array> {
  if (!response.body) return
  const reader = response.body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      budget.left -= value.byteLength
      if (budget.left < 0) throw new GitTransportError(`the repository is larger than ${budget.max} bytes`)
      yield value
    }
  } finally {
    reader.cancel().catch(() => undefined)
  }
}

/**
 * Whether sending the request twice does what sending it once does: reading the refs (a GET) and
 * an upload-pack negotiation (a POST that only reads). A receive-pack POST pushes: the first may
 * have reached the remote before the connection broke, so it is never sent again.
 */
function isIdempotent(method: string, target: URL): boolean {
  return method === 'GET' || (method === 'POST' && target.pathname.endsWith('/git-upload-pack'))
}

function check(url: string, allowPrivateNetwork: boolean, redirected: boolean): URL {
  try {
    return checkOutgoingUrl(url, { field: 'url', allowPrivateNetwork })
  } catch (error) {
    // The guard's message is written for a request body; here it explains a job's failure.
    const why = (error as Error).message.replace(/^Invalid request: body field `url`: /, '')
    throw new GitTransportError(redirected ? `the remote redirected to ${url}: ${why}` : why)
  }
}

export function createGitHttp(options: {
  fetch: typeof fetch
  allowPrivateNetwork: boolean
  remote: Remote
  signal: AbortSignal
  maxBytes: number
}): GitHttpClient {
  const { remote, signal } = options
  const budget = { left: options.maxBytes, max: options.maxBytes }
  return {
    async request(req) {
      let method = (req.method ?? 'GET').toUpperCase()
      let body: Uint8Array<ArrayBuffer> | undefined = await collect(req.body)
      let target = check(req.url, options.allowPrivateNetwork, false)
      for (let hops = 0; ; hops++) {
        const headers: Record<string, string> = { ...req.headers }
        if (remote.authorization && target.origin === remote.origin) headers.authorization = remote.authorization
        let response: Response | undefined
        // The body is bytes already (collected above): sending it again sends the same request.
        for (let attempt = 0; !response; attempt++) {
          try {
            response = await options.fetch(target.href, { method, headers, ...(body && { body }), redirect: 'manual', signal })
          } catch (error) {
            if (signal.aborted) throw error
            // The API's fetch resolved the name and refused its address (createGuardedFetch): said as a host refused as written.
            const refused = refusalIn(error)
            if (refused) throw new GitTransportError(hops > 0 ? `the remote redirected to ${target.href}: ${refused}` : refused)
            const retry = isConnectionReset(error) && isIdempotent(method, target)
            if (retry && attempt === 0) continue
            throw new GitTransportError(
              `could not reach ${target.origin}: ${error instanceof Error ? error.message : String(error)}${retry ? ' (retried once)' : ''}`,
            )
          }
        }
        if (REDIRECTS.has(response.status)) {
          response.body?.cancel().catch(() => undefined)
          const location = response.headers.get('location')
          if (!location) throw new GitTransportError(`the remote answered ${response.status} without a Location`)
          if (hops >= MAX_REDIRECTS) throw new GitTransportError(`more than ${MAX_REDIRECTS} redirects`)
          target = check(new URL(location, target).href, options.allowPrivateNetwork, true)
          // 303 (and 301/302 of a POST, as browsers do) continue as a GET without a body.
          if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
            method = 'GET'
            body = undefined
          }
          continue
        }
        if (response.type === 'opaqueredirect' || response.status === 0)
          throw new GitTransportError('the remote redirected, and the redirect cannot be inspected')
        return {
          url: target.href,
          method,
          statusCode: response.status,
          statusMessage: response.statusText,
          headers: Object.fromEntries(response.headers),
          body: capped(response, budget),
        }
      }
    },
  }
}
