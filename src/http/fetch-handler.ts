import { API_CORE, authenticate, execute, type ApiCore, type Runtime } from '../core/execute.js'
import type { BoundOperation } from '../core/operation.js'
import { ApiError } from '../core/errors.js'
import { decodeQuery, errorResponse, jsonResponse, parseBody, prefersMinimal, readBodyText, validate } from './codec.js'
import { createRouter } from './router.js'

/** A function with the signature of the global `fetch`. */
export type FetchFunction = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

export interface FetchHandlerOptions {
  /**
   * Prefix the API is mounted under, stripped before routing (the `/v1` paths follow it).
   * @default ''
   * @example '/api' // serves /api/v1/orgs
   */
  basePath?: string
  /** Called with unexpected errors (answered as 500). @default console.error */
  onError?: (error: unknown) => void
}

/** Split a URL string into pathname and query without building a URL object. */
function splitUrl(url: string): { pathname: string; search: string } {
  const scheme = url.indexOf('://')
  const pathStart = scheme === -1 ? 0 : url.indexOf('/', scheme + 3)
  if (pathStart === -1) return { pathname: '/', search: '' }
  const q = url.indexOf('?', pathStart)
  const hash = url.indexOf('#', pathStart)
  const end = hash === -1 ? url.length : hash
  if (q === -1 || q > end) return { pathname: url.slice(pathStart, end), search: '' }
  return { pathname: url.slice(pathStart, q), search: url.slice(q + 1, end) }
}

function bearer(header: string | null): string | undefined {
  if (!header) return undefined
  const m = /^Bearer\s+(.+)$/i.exec(header.trim())
  return m ? m[1]!.trim() : undefined
}

/** A routed, authenticated request with validated path and query parameters. */
interface Prepared {
  operation: BoundOperation
  user: string
  params: unknown
  query: unknown
}

/**
 * Validate the body, run the operation and encode its answer. A module function rather than a
 * closure made per request.
 */
function finish(rt: Runtime, operation: BoundOperation, request: Request, user: string, params: unknown, query: unknown, rawBody: unknown): Response {
  const { def } = operation
  const body = validate(def.body, rawBody, 'body field')
  const result = execute(rt, operation, { user, params, query, body })
  const status = def.minimal && def.response && prefersMinimal(request) ? 204 : def.status
  // A creation points at what it created (`Location`, as the official document declares on 201s).
  const location = status === 201 ? (result as { urls?: { location?: unknown } } | undefined)?.urls?.location : undefined
  return jsonResponse(status, def.response ? result : undefined, typeof location === 'string' ? { location } : undefined)
}

/**
 * The HTTP adapter: maps a `Request` onto the operation table and the result onto a `Response`.
 * It holds no domain rule and never touches the store itself.
 *
 * @example
 * const api = createDocsApi()
 * const handler = createFetchHandler(api, { basePath: '/api' }) // serves /api/v1/...
 */
export function createFetchHandler(api: { readonly [API_CORE]: ApiCore }, options: FetchHandlerOptions = {}): FetchFunction {
  const { runtime: rt, operations } = api[API_CORE]
  const router = createRouter(operations)
  const basePath = (options.basePath ?? '').replace(/\/+$/, '')

  /** Route, authenticate and validate: the operation and its inputs, or the answer already (an error). */
  const prepare = (request: Request): Response | Prepared => {
    let { pathname, search } = splitUrl(request.url)
    if (basePath) {
      if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return errorResponse(new ApiError('NOT_FOUND', `No route for ${pathname}`))
      pathname = pathname.slice(basePath.length) || '/'
    }
    const match = router.match(request.method, pathname)
    if (match.kind === 'not-found') return errorResponse(new ApiError('NOT_FOUND', `No route for ${request.method} ${pathname}`))
    if (match.kind === 'method-not-allowed') {
      const response = errorResponse(new ApiError('METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed on ${pathname}; allowed: ${match.allow.join(', ')}`))
      response.headers.set('allow', match.allow.join(', '))
      return response
    }
    const { operation } = match
    const user = authenticate(rt, operation, bearer(request.headers.get('authorization')))
    const rawQuery = decodeQuery(search)
    const params = validate(operation.def.params, match.params, 'path parameter') ?? match.params
    const query = validate(operation.def.query, rawQuery, 'query parameter') ?? {}
    return { operation, user, params, query }
  }

  return async (input, init) => {
    try {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init)
      const prepared = prepare(request)
      if (prepared instanceof Response) return prepared
      const { operation, user, params, query } = prepared
      // Operations without a body answer without waiting on the request stream; the others await
      // the stream's text itself (no promise wrapped around it).
      const rawBody = operation.def.body ? parseBody(request, operation.def, await readBodyText(request)) : undefined
      return finish(rt, operation, request, user, params, query, rawBody)
    } catch (error) {
      return errorResponse(error, options.onError)
    }
  }
}
