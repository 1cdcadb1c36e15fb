import type { IncomingMessage, ServerResponse } from 'node:http'
import type { DocsApi } from '../api.js'
import { errorBody, logUnexpected } from '../core/errors.js'
import { API_CORE } from '../http/api-core.js'
import { createFetchHandler, type AnsweredRequest, type FetchFunction } from '../http/fetch-handler.js'
import { createRequest, mountPath, UnreadableRequestError, type HostRequest } from './request.js'
import { sendResponse } from './response.js'

export interface NodeHandlerOptions {
  /**
   * Prefix stripped from the request's full path (`originalUrl`) before routing, replacing both
   * the mount path and the API's own `basePath`.
   * @default the mount path when mounted (`app.use('/api', handler)` in Express or Connect),
   *   else the API's `basePath`
   * @example toNodeHandler(api, { basePath: '/api' })
   */
  basePath?: string
  /**
   * Called with the unexpected errors answered as 500 (or cut off, after the headers went out).
   * Under a mount path it also gets the API's own unexpected errors.
   * @default the API's `onError` (createDocsApi's option), else console.error
   */
  onError?: (error: unknown) => void
  /**
   * Called once per request the API answered, with the Node request and what it came to (status,
   * the operation it matched): a request log, say. It must not throw. See `createFetchHandler`'s
   * option of the same name.
   */
  onAnswered?: (req: IncomingMessage, answer: AnsweredRequest) => void
}

/** A Node request listener that is also a Connect/Express middleware. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

/** Most prefixes a handler keeps a router for (a mount path with parameters yields many). */
const MAX_PREFIXES = 32

/**
 * The API as a Node request listener and Connect/Express middleware:
 * `createServer(toNodeHandler(api))`, `app.use('/api', toNodeHandler(api))`.
 *
 * - The `Request` the API sees carries the full URL the client asked for (`req.originalUrl`).
 * - Prefix: under a mount path (Express's `req.baseUrl`, Connect's `originalUrl`), routing starts
 *   after it, whether or not the API was created with the same `basePath`; at the root, the
 *   API's `basePath` applies; `options.basePath` overrides both.
 * - Body: a body a middleware already parsed (`req.body`) is used (an object or array as JSON, a
 *   string or bytes as they are), unless the headers announce no body; otherwise the request
 *   stream. HEAD is answered as GET without the body.
 * - The response streams out (status, headers, repeated `set-cookie`s, body). An error the API
 *   raises is its own JSON answer; an unexpected failure is a 500
 *   `{"error":{"code":500,"message":"Internal server error"}}`, never a hang. `next(error)` is
 *   called only when the API cannot answer: the request could not be read (its body consumed by
 *   another middleware), or the response failed after its headers went out.
 *
 * @example
 * import express from 'express'
 * import { toNodeHandler } from 'docs-content-api/node'
 * const app = express()
 * app.use(express.json())
 * app.use('/api', toNodeHandler(createDocsApi({ baseUrl: 'https://example.com/api' })))
 */
export function toNodeHandler(api: DocsApi, options: NodeHandlerOptions = {}): NodeHandler {
  // The API's own onError (createDocsApi's option) unless this handler is given one.
  const onError = options.onError ?? api[API_CORE].http.onError ?? logUnexpected
  const byPrefix = new Map<string, FetchFunction>()

  // With onAnswered, the Node request of each Request the handler built, to tell it which one was answered.
  const nodeRequests = options.onAnswered ? new WeakMap<Request, IncomingMessage>() : undefined
  const onAnswered =
    options.onAnswered &&
    ((answer: AnsweredRequest) => {
      const req = nodeRequests!.get(answer.request)
      if (req) options.onAnswered!(req, answer)
    })
  // Without onAnswered, the API's own fetch at the root; with it, a handler of the same basePath that tells it.
  const root = onAnswered ? createFetchHandler(api, { basePath: api[API_CORE].basePath, onError, onAnswered }) : api.fetch

  const fetchFor = (req: HostRequest): FetchFunction => {
    const prefix = options.basePath ?? (mountPath(req) || undefined)
    if (prefix === undefined) return root
    let fetch = byPrefix.get(prefix)
    if (!fetch) {
      if (byPrefix.size >= MAX_PREFIXES) byPrefix.delete(byPrefix.keys().next().value!)
      fetch = createFetchHandler(api, { basePath: prefix, onError, onAnswered })
      byPrefix.set(prefix, fetch)
    }
    return fetch
  }

  const internalError = (res: ServerResponse) => {
    if (res.destroyed) return
    if (res.headersSent) {
      res.destroy()
      return
    }
    // Headers the failed response had set (not sent) do not belong to the error.
    for (const name of res.getHeaderNames()) res.removeHeader(name)
    const body = JSON.stringify(errorBody(500, 'Internal server error'))
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  }

  const handle = async (req: HostRequest, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> => {
    const controller = new AbortController()
    const onClose = () => {
      if (!res.writableFinished) controller.abort()
    }
    res.once('close', onClose)
    try {
      let request: Request
      try {
        request = createRequest(req, controller.signal)
        nodeRequests?.set(request, req)
      } catch (error) {
        if (next) return next(error)
        onError(error)
        return internalError(res)
      }

      let response: Response
      try {
        response = await fetchFor(req)(request)
      } catch (error) {
        onError(error)
        return internalError(res)
      }
      if (res.destroyed) {
        await response.body?.cancel().catch(() => {})
        return
      }

      try {
        await sendResponse(res, response, req.method === 'HEAD')
      } catch (error) {
        if (res.headersSent && next) return next(error)
        onError(error)
        internalError(res)
      }
    } finally {
      res.off('close', onClose)
    }
  }

  return (req, res, next) => {
    handle(req, res, next).catch((error: unknown) => {
      // Only a throwing onError or next can land here: report it, and never leave the client hanging.
      logUnexpected(error)
      try {
        internalError(res)
      } catch {
        res.destroy()
      }
    })
  }
}

export { UnreadableRequestError }
