import type { IncomingMessage, ServerResponse } from 'node:http'
import type { DocsApi } from '../api.js'
import { errorBody, logUnexpected } from '../core/errors.js'
import type { Answer } from '../http/codec.js'
import { API_CORE } from '../http/api-core.js'
import {
  createDispatcher,
  type AnsweredRequest,
  type Dispatched,
  type DispatchOptions,
  type FetchFunction,
  type IncomingRequest,
} from '../http/fetch-handler.js'
import { NodeIncoming } from './incoming.js'
import { mountPath, UnreadableRequestError, type HostRequest } from './request.js'
import { sendAnswer, sendResponse } from './response.js'

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
   * Called with the unexpected errors answered as 500 (or cut off, after the headers went out),
   * the API's own included (a replaced `api.fetch` at the root keeps its own).
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
 * - No `Request`/`Response` where nothing needs them: Node's request goes to the core `api.fetch`
 *   runs (http/fetch-handler.ts createDispatcher) as it is, and a JSON answer is written to Node as
 *   one string. A `Request` is made only for a body, the control plane, or `answer.request` read
 *   by `onAnswered`; event streams and answers past 1 MiB go out through a `Response`. A replaced
 *   `api.fetch` is called as it is.
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
  type Dispatch = ReturnType<typeof createDispatcher>
  const byPrefix = new Map<string, Dispatch>()

  // The core api.fetch runs (http/fetch-handler.ts), given Node's request as it is (node/incoming.ts).
  const onAnswered: DispatchOptions['onAnswered'] =
    options.onAnswered && ((answer: AnsweredRequest, incoming: IncomingRequest) => options.onAnswered!((incoming as NodeIncoming).req, answer))
  const root = createDispatcher(api, { basePath: api[API_CORE].basePath, onError, onAnswered })

  /** The core for the request's prefix; undefined at the root when `api.fetch` was replaced (it is then called as it is). */
  const dispatcherFor = (req: HostRequest): Dispatch | undefined => {
    const prefix = options.basePath ?? (mountPath(req) || undefined)
    if (prefix === undefined) return onAnswered || api.fetch === api[API_CORE].fetch ? root : undefined
    let dispatch = byPrefix.get(prefix)
    if (!dispatch) {
      if (byPrefix.size >= MAX_PREFIXES) byPrefix.delete(byPrefix.keys().next().value!)
      dispatch = createDispatcher(api, { basePath: prefix, onError, onAnswered })
      byPrefix.set(prefix, dispatch)
    }
    return dispatch
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

  /** The fetch path: Node's request made a `Request`, given to `fetch`, its `Response` written back. */
  const viaFetch = async (fetch: FetchFunction, req: HostRequest, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> => {
    // The Request NodeIncoming makes: its signal aborts when the client goes away before the answer.
    let incoming: NodeIncoming | undefined
    try {
      let request: Request
      try {
        incoming = new NodeIncoming(req, res)
        request = incoming.request()
      } catch (error) {
        if (next) return next(error)
        onError(error)
        return internalError(res)
      }
      let response: Response
      try {
        response = await fetch(request)
      } catch (error) {
        onError(error)
        return internalError(res)
      }
      await send(res, response, undefined, req, next)
    } finally {
      incoming?.done()
    }
  }

  /** Write what the API answered (a `Response`, or the core's answer as it is), or a 500 when that fails. */
  const send = (
    res: ServerResponse,
    response: Response | undefined,
    answer: Answer | undefined,
    req: HostRequest,
    next?: (error?: unknown) => void,
  ): void | Promise<void> => {
    if (res.destroyed) return (response ? response.body : answer?.stream)?.cancel().catch(() => {})
    const failed = (error: unknown) => {
      if (res.headersSent && next) return next(error)
      onError(error)
      internalError(res)
    }
    try {
      const sent = response ? sendResponse(res, response, req.method === 'HEAD') : sendAnswer(res, answer!, req.method === 'HEAD')
      if (sent instanceof Promise) return sent.catch(failed)
    } catch (error) {
      failed(error)
    }
  }

  /**
   * The fast path: the dispatcher on Node's request as it is. A request with nothing to wait on
   * is dispatched and written in this call (no promise: the write then happens as Node's parser
   * hands over the request, as a bare server's does); the rest continues in `sendLater`.
   */
  const handle = (req: HostRequest, res: ServerResponse, next?: (error?: unknown) => void): void | Promise<void> => {
    const dispatch = dispatcherFor(req)
    if (!dispatch) return viaFetch(api.fetch, req, res, next)
    let incoming: NodeIncoming
    try {
      incoming = new NodeIncoming(req, res)
      // A body streams to the API through a Request made now, while Node's request is unread.
      if (incoming.hasBody) incoming.request()
    } catch (error) {
      if (next) return next(error)
      onError(error)
      return internalError(res)
    }
    let out: Dispatched | Promise<Dispatched>
    try {
      out = dispatch(incoming)
    } catch (error) {
      incoming.done()
      onError(error)
      return internalError(res)
    }
    if (out instanceof Promise) return sendLater(out, incoming, req, res, next)
    let sent: void | Promise<void>
    try {
      sent = send(res, out.response, out.answer, req, next)
    } catch (error) {
      incoming.done()
      throw error
    }
    if (sent instanceof Promise) return sent.finally(() => incoming.done())
    incoming.done()
  }

  const sendLater = async (out: Promise<Dispatched>, incoming: NodeIncoming, req: HostRequest, res: ServerResponse, next?: (error?: unknown) => void) => {
    try {
      let dispatched: Dispatched
      try {
        dispatched = await out
      } catch (error) {
        onError(error)
        return internalError(res)
      }
      await send(res, dispatched.response, dispatched.answer, req, next)
    } finally {
      incoming.done()
    }
  }

  // Only a throwing onError or next can land here: report it, and never leave the client hanging.
  const unexpected = (error: unknown, res: ServerResponse) => {
    logUnexpected(error)
    try {
      internalError(res)
    } catch {
      res.destroy()
    }
  }
  return (req, res, next) => {
    let done: void | Promise<void>
    try {
      done = handle(req, res, next)
    } catch (error) {
      return unexpected(error, res)
    }
    if (done instanceof Promise) done.catch((error: unknown) => unexpected(error, res))
  }
}

export { UnreadableRequestError }
