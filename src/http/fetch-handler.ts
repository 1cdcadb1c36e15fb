import type { JsonText } from '../core/large-text.js'
import { errorBody, ApiError, logUnexpected } from '../core/errors.js'
import { authenticate, authorize, caughtUp, finish, isFinishing, runOperation } from '../core/execute.js'
import type { BoundOperation } from '../core/operation.js'
import { NO_CONTENT } from '../core/operation.js'
import { isAwaitedAnswer, isEventStream, type EventStream } from '../core/stream.js'
import { isBinaryAnswer } from '../core/binary.js'
import { API_CORE, type ApiCore } from './api-core.js'
import {
  routerSatisfies,
  bytesAnswer,
  decodeQuery,
  queryShapeOf,
  type QueryShape,
  errorAnswer,
  jsonAnswer,
  jsonAnswerInSlices,
  LARGE_ANSWER_CHARS,
  prefersMinimal,
  readBody,
  settleLargeText,
  toResponse,
  validate,
  validBody,
  type Answer,
} from './codec.js'
import { createCors, type CorsOptions } from './cors.js'
import { createAdminHandler, isAdminPath, type AdminOptions } from './admin.js'
import { eventStreamBody } from './event-stream.js'
import type { FaultAction } from './faults.js'
import type { JournalRecord } from './journal.js'
import { createRouter, type Match } from './router.js'

/** A function with the signature of the global `fetch`. */
// `Request | string | URL` rather than the DOM's `RequestInfo`: the declarations then need no DOM lib.
export type FetchFunction = (input: Request | string | URL, init?: RequestInit) => Promise<Response>

export interface FetchHandlerOptions {
  /**
   * Prefix the API is mounted under, stripped before routing (the `/v1` paths follow it).
   * @default ''
   * @example '/api' // serves /api/v1/orgs
   */
  basePath?: string
  /** Called with unexpected errors (answered as 500). @default logUnexpected (console.error) */
  onError?: (error: unknown) => void
  /**
   * Answer cross-origin requests: `true` allows any origin; options narrow it. Preflight `OPTIONS`
   * requests are then answered 204 with the methods of the path.
   * @default false
   */
  cors?: boolean | CorsOptions
  /**
   * Serve the control plane under `/_admin/` (after `basePath`): reset, snapshots, state,
   * journal, faults, idle, clock (docs/guide/control-plane.md). `{ token }` asks for
   * `Authorization: Bearer <token>`; `true` opens it without one (in process only).
   * @default the API's `admin` option (off)
   */
  admin?: boolean | AdminOptions
  /**
   * Called once per request with what it came to (before a streamed body is sent): the method,
   * the path (after `basePath`, without the query), the status and the operation it matched.
   * A request log, say; it must not throw. Left out, nothing is done per request for it.
   */
  onAnswered?: (answer: AnsweredRequest) => void
}

/** What `onAnswered` is told of a request. */
export interface AnsweredRequest {
  /** The request as the handler received it (under `toNodeHandler`, made on first read). */
  readonly request: Request
  method: string
  /** The routed path: after `basePath`, without the query. */
  path: string
  status: number
  /** The operation the request matched (or the official one it names, when not implemented). */
  operationId: string | undefined
}

/**
 * A request as the API's core reads it: its method, URL and headers, and the `Request` itself
 * only where something needs one (a body to read, the control plane, `onAnswered` reading
 * `request`). The fetch handler gives the `Request` it received; `toNodeHandler` gives Node's
 * request, made a `Request` only when asked (src/node/incoming.ts): both go through the same core.
 */
export interface IncomingRequest {
  /** The method as routed and journaled (Node's HEAD comes as GET: its writer drops the body). */
  readonly method: string
  /** A full URL, or the path and query (`/v1/spaces/x?limit=5`) as `new URL()` would normalize them. */
  readonly url: string
  /** A header's value (repeated headers joined with ", "), as `Headers.get` gives it. */
  header(name: string): string | null
  /** The request as a `Request` (the same one on every call). */
  request(): Request
}

/** The `IncomingRequest` of a `Request`. */
function incomingOf(request: Request): IncomingRequest {
  return { method: request.method, url: request.url, header: (name) => request.headers.get(name), request: () => request }
}

/**
 * What the core came to: an answer to write (`head`: without its body), or the control plane's
 * own `Response`.
 */
export type Dispatched = { answer: Answer; head: boolean; response?: undefined } | { response: Response; answer?: undefined; head?: undefined }

/** Options of the shared core: `onAnswered` is also told the incoming request (the Node adapter's way back to Node's request). */
export interface DispatchOptions extends Omit<FetchHandlerOptions, 'onAnswered'> {
  onAnswered?: (answer: AnsweredRequest, incoming: IncomingRequest) => void
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

/** Methods a path answers, as the `Allow` header lists them: GET brings HEAD; OPTIONS always. */
function allowOf(methods: readonly string[]): string[] {
  const out = [...methods]
  if (out.includes('GET')) out.splice(out.indexOf('GET') + 1, 0, 'HEAD')
  return [...out, 'OPTIONS']
}

/** Whether every library of an operation's `needs` is loaded (none to wait for). */
function allLoaded(needs: BoundOperation['def']['needs']): boolean {
  if (needs) for (const library of needs) if (!library.loaded) return false
  return true
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))

/** What one request came to, for the answer and the journal. */
interface Outcome extends Answer {
  operationId?: string
  user?: string
  requestText?: JsonText
  fault?: boolean
  /** A streamed answer's events, made into the body once the request is journaled. */
  events?: EventStream
}

/**
 * The HTTP adapter: maps a `Request` onto the operation table and the result onto a `Response`.
 * It is the shared core (createDispatcher) with the answer made a `Response`.
 * It holds no domain rule and never touches the store itself.
 *
 * @example
 * const api = createDocsApi()
 * const handler = createFetchHandler(api, { basePath: '/api' }) // serves /api/v1/...
 *
 * Options left out come from the API's own (`cors`, `onError`); `basePath` does not carry over.
 */
export function createFetchHandler(api: { readonly [API_CORE]: ApiCore }, options: FetchHandlerOptions = {}): FetchFunction {
  const { onAnswered, ...rest } = options
  const dispatch = createDispatcher(api, onAnswered ? { ...rest, onAnswered: (answer) => onAnswered(answer) } : rest)
  const fail = (error: unknown) => errorAnswer(error, dispatch.onError)
  return async (input, init) => {
    let request: Request
    try {
      request = input instanceof Request && init === undefined ? input : new Request(input, init)
    } catch (error) {
      return toResponse(fail(error))
    }
    const dispatched = dispatch(incomingOf(request))
    const out = dispatched instanceof Promise ? await dispatched : dispatched
    return out.response ?? toResponse(out.answer, out.head)
  }
}

/**
 * The core every adapter shares: route, authenticate, validate, run, fault, journal, CORS and
 * `onAnswered`, from an `IncomingRequest` to an `Answer` (status, JSON text, headers) that the
 * fetch handler makes a `Response` and `toNodeHandler` writes to Node's response as it is. So
 * `api.fetch` and a Node server answer the same statuses, headers and bytes.
 */
export function createDispatcher(
  api: { readonly [API_CORE]: ApiCore },
  options: DispatchOptions = {},
): ((incoming: IncomingRequest) => Dispatched | Promise<Dispatched>) & { readonly onError: (error: unknown) => void } {
  const core = api[API_CORE]
  const { runtime: rt, operations } = core
  // A handler over the API (another prefix, say) keeps the API's cors and onError unless told otherwise.
  options = { ...core.http, ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) }
  const router = createRouter(operations)
  /** Operations whose path parameters the router already guarantees (no validation needed per request). */
  const routed = new WeakSet(operations.filter((op) => routerSatisfies(op.def.params)).map((op) => op.def))
  /**
   * Operations whose query schema makes `{}` of an empty query (no defaults): a request without a
   * query needs no validation run (the common read), its query is `{}`.
   */
  const emptyQueryIsEmpty = new WeakSet(
    operations
      .filter(({ def }) => {
        if (!def.query) return true
        const parsed = def.query.safeParse({})
        return parsed.success && typeof parsed.data === 'object' && parsed.data !== null && Object.keys(parsed.data).length === 0
      })
      .map((op) => op.def),
  )
  /** Which query parameters of each operation take a list (repeated keys) and which one value. */
  const queryShapes = new WeakMap<object, QueryShape>(operations.map((op) => [op.def, queryShapeOf(op.def.query)]))
  const basePath = (options.basePath ?? '').replace(/\/+$/, '')
  const cors = createCors(options.cors)
  const fail = (error: unknown): Outcome => errorAnswer(error, options.onError ?? logUnexpected)
  const admin = options.admin ? createAdminHandler(core, options.admin === true ? {} : options.admin, options.onError ?? logUnexpected) : undefined
  const onAnswered = options.onAnswered

  /** The path parameters and query of a routed request, validated (neither when the router or an empty query already says all). */
  const paramsAndQuery = ({ operation: { def }, params }: Extract<Match, { kind: 'found' }>, search: string) => ({
    params: routed.has(def) ? params : (validate(def.params, params, 'path parameter') ?? params),
    query: search === '' && emptyQueryIsEmpty.has(def) ? {} : (validate(def.query, decodeQuery(search, queryShapes.get(def)), 'query parameter') ?? {}),
  })

  /** The outcome of an operation's result, after its transaction: made now when nothing is left to wait on. */
  const answerOf = (incoming: IncomingRequest, def: BoundOperation['def'], outcome: Outcome, result: unknown): Outcome | Promise<Outcome> => {
    // Parts of the answer made after the transaction, off the event loop (ctx.later).
    if (isFinishing(result)) return finish(rt, result).then((finished) => producedOf(incoming, def, outcome, finished))
    return producedOf(incoming, def, outcome, result)
  }
  const producedOf = (incoming: IncomingRequest, def: BoundOperation['def'], outcome: Outcome, result: unknown): Outcome | Promise<Outcome> => {
    // An answer made after the transaction by async work (a plugged-in answerer).
    if (isAwaitedAnswer(result)) return result.produce().then((produced) => settledOf(incoming, def, outcome, produced))
    return settledOf(incoming, def, outcome, result)
  }
  const settledOf = (incoming: IncomingRequest, def: BoundOperation['def'], outcome: Outcome, result: unknown): Outcome | Promise<Outcome> => {
    if (result === NO_CONTENT) return Object.assign(outcome, jsonAnswer(204, undefined))
    if (isEventStream(result)) return Object.assign(outcome, { status: def.status, text: undefined, events: result })
    // Bytes (a download, a PDF): those made after the transaction are made here.
    if (isBinaryAnswer(result)) return bytesAnswer(def.status, result, incoming.method === 'HEAD', rt.offload).then((answer) => Object.assign(outcome, answer))
    const status = def.minimal && def.response && prefersMinimal(incoming.header('prefer')) ? 204 : def.status
    // A creation points at what it created (`Location`, as the official document declares on 201s).
    const location = status === 201 ? (result as { urls?: { location?: unknown } } | undefined)?.urls?.location : undefined
    const answer = jsonAnswerInSlices(status, def.response ? result : undefined, typeof location === 'string' ? { location } : undefined)
    return answer instanceof Promise ? answer.then((made) => Object.assign(outcome, made)) : Object.assign(outcome, answer)
  }
  /** The outcome, or its promise whose failure becomes the request's error answer. */
  const failInto = (outcome: Outcome, pending: Outcome | Promise<Outcome>): Outcome | Promise<Outcome> =>
    pending instanceof Promise ? pending.catch((error: unknown) => Object.assign(outcome, fail(error))) : pending

  /**
   * Route, authenticate, validate, run. `method` is the routed one (HEAD is routed as GET). A
   * request with nothing to wait on (no body to read, no library to load, no async sign-in, no
   * preparation, a result made in its transaction: most reads) is answered in this call, with no
   * promise: each await a request crosses costs its server more than the await itself (under
   * load, the answer's write moves to a later microtask; bench/README.md, served measures).
   */
  const handle = (incoming: IncomingRequest, method: string, pathname: string, search: string, match: Match): Outcome | Promise<Outcome> => {
    if (match.kind === 'not-found') return fail(new ApiError('NOT_FOUND', `No route for ${method} ${pathname}`))
    if (match.kind === 'not-implemented') {
      return fail(
        new ApiError(
          'NOT_IMPLEMENTED',
          `${method} ${pathname} is the official operation \`${match.operationId}\`, which docs-content-api does not implement yet`,
        ),
      )
    }
    if (match.kind === 'method-not-allowed') {
      const allow = allowOf(match.allow).join(', ')
      return fail(new ApiError('METHOD_NOT_ALLOWED', `Method ${incoming.method} is not allowed on ${pathname}; allowed: ${allow}`, { headers: { allow } }))
    }
    const { operation } = match
    const { def } = operation
    // Every field set from the start: one object shape for every request.
    const outcome: Outcome = { status: 0, text: undefined, headers: undefined, operationId: def.id, user: undefined, requestText: undefined, fault: false }
    try {
      // A store several processes share: the replica first takes in what they committed (a token made there signs in here).
      const replica = caughtUp(rt)
      if (replica)
        return failInto(
          outcome,
          replica.then(() => handleLater(incoming, search, match, outcome, authenticate(rt, operation, bearer(incoming.header('authorization'))))),
        )
      const caller = authenticate(rt, operation, bearer(incoming.header('authorization')))
      if (caller instanceof Promise || def.body || operation.prepare || !allLoaded(def.needs))
        return failInto(outcome, handleLater(incoming, search, match, outcome, caller))
      outcome.user = caller.user
      const { params, query } = paramsAndQuery(match, search)
      const input = { user: caller.user, content: caller.content, installation: caller.installation, params, query, body: undefined, prepared: undefined }
      const result = runOperation(rt, operation, input)
      // A promise only when the operation warmed up first (no handler answers one).
      return failInto(outcome, result instanceof Promise ? result.then((r) => answerOf(incoming, def, outcome, r)) : answerOf(incoming, def, outcome, result))
    } catch (error) {
      return Object.assign(outcome, fail(error))
    }
  }

  /** `handle` for a request that waits on something before its operation runs (its body, a library...). */
  const handleLater = async (
    incoming: IncomingRequest,
    search: string,
    match: Extract<Match, { kind: 'found' }>,
    outcome: Outcome,
    signedIn: ReturnType<typeof authenticate>,
  ): Promise<Outcome> => {
    const { operation } = match
    const { def } = operation
    const caller = signedIn instanceof Promise ? await signedIn : signedIn
    outcome.user = caller.user
    // Libraries the operation's validation or handler uses synchronously, loaded on first use.
    if (def.needs) for (const library of def.needs) if (!library.loaded) await library.load()
    const { params, query } = paramsAndQuery(match, search)
    // Operations without a body answer without waiting on the request stream.
    const text = def.body ? await readBody(incoming.request(), def) : undefined
    // The journal keeps the body as sent, less what the operation says must never be kept (credentials).
    outcome.requestText = text !== undefined && def.redactJournal ? def.redactJournal(String(text)) : text
    let body = def.body ? validBody(incoming.request(), def, text) : undefined
    // A large body is parsed and validated in slices: a promise (a JSON value never is one).
    if (body instanceof Promise) body = await body
    const input = { user: caller.user, content: caller.content, installation: caller.installation, params, query, body, prepared: undefined as unknown }
    let result: unknown
    if (operation.prepare) {
      // Async work before the transaction (fetching a file's URL...), once the caller may do it
      // and its target exists. false: the missing resource of an idempotent delete, answered
      // 204 as execute would.
      if (!authorize(rt, operation, input)) return Object.assign(outcome, jsonAnswer(204, undefined))
      const prepared = await operation.prepare.run(rt, input)
      input.prepared = prepared.value
      try {
        result = runOperation(rt, operation, input)
        if (result instanceof Promise) result = await result
      } catch (error) {
        prepared.undo()
        throw error
      }
    } else {
      result = runOperation(rt, operation, input)
      // A promise only when the operation warmed up first (no handler answers one).
      if (result instanceof Promise) result = await result
    }
    return answerOf(incoming, def, outcome, result)
  }

  /** Faults act first, as a failing network or server would: nothing else runs for an error fault. */
  const withFault = async (
    action: FaultAction,
    incoming: IncomingRequest,
    method: string,
    pathname: string,
    search: string,
    match: Match,
  ): Promise<Outcome> => {
    if (action.delayMs > 0) await sleep(action.delayMs)
    if (!action.error) return { ...(await handle(incoming, method, pathname, search, match)), fault: true }
    const { status, message, headers } = action.error
    return { ...jsonAnswer(status, errorBody(status, message), headers), fault: true }
  }

  /** Answered now when the request has nothing to wait on (see `handle`); a promise otherwise. */
  const dispatch = (incoming: IncomingRequest): Dispatched | Promise<Dispatched> => {
    const head = incoming.method === 'HEAD'
    const method = head ? 'GET' : incoming.method
    let { pathname, search } = splitUrl(incoming.url)
    let outcome: Outcome | Promise<Outcome>
    let operationId: string | undefined
    if (basePath && pathname !== basePath && !pathname.startsWith(`${basePath}/`)) {
      outcome = fail(new ApiError('NOT_FOUND', `No route for ${pathname}`))
    } else {
      pathname = pathname.slice(basePath.length) || '/'
      // The control plane acts on the API, not in it: no journal entry, no fault (http/admin.ts).
      if (admin && isAdminPath(pathname)) {
        return admin(incoming.request(), pathname, search).then((response) => {
          for (const [name, value] of Object.entries(cors?.headers(incoming.header('origin')) ?? {})) response.headers.set(name, value)
          return { response }
        })
      }
      if (method === 'OPTIONS') {
        const methods = router.allowed(pathname)
        if (methods.length === 0) outcome = fail(new ApiError('NOT_FOUND', `No route for ${pathname}`))
        else {
          const allow = allowOf(methods)
          outcome = { status: 204, text: undefined, headers: { ...cors?.preflight((name) => incoming.header(name), allow), allow: allow.join(', ') } }
        }
      } else {
        const match = router.match(method, pathname)
        operationId = match.kind === 'found' ? match.operation.def.id : match.kind === 'not-implemented' ? match.operationId : undefined
        const action =
          core.faults.active === 0
            ? undefined
            : core.faults.take({ method, path: pathname, template: match.kind === 'found' ? match.operation.def.path : undefined, operationId })
        outcome = action ? withFault(action, incoming, method, pathname, search, match) : handle(incoming, method, pathname, search, match)
      }
    }
    if (outcome instanceof Promise) return outcome.then((o) => settle(incoming, head, pathname, search, o, operationId))
    return settle(incoming, head, pathname, search, outcome, operationId)
  }

  /** A large text made ready in turns of its own first (`settleLargeText`), then `complete`. */
  const settle = (
    incoming: IncomingRequest,
    head: boolean,
    pathname: string,
    search: string,
    outcome: Outcome,
    operationId: string | undefined,
  ): Dispatched | Promise<Dispatched> => {
    if (operationId !== undefined) outcome.operationId ??= operationId
    if (outcome.text !== undefined && outcome.text.length > LARGE_ANSWER_CHARS)
      return settleLargeText(outcome.text).then(() => complete(incoming, head, pathname, search, outcome))
    return complete(incoming, head, pathname, search, outcome)
  }

  /** CORS headers, the journal, `onAnswered`, an event stream's body: the answer as dispatched. */
  const complete = (incoming: IncomingRequest, head: boolean, pathname: string, search: string, outcome: Outcome): Dispatched => {
    const corsHeaders = cors?.headers(incoming.header('origin'))
    if (corsHeaders) outcome.headers = { ...outcome.headers, ...corsHeaders }
    // A journal that keeps nothing (`serve` without --journal) costs no record: no Date, no object.
    const record: JournalRecord | undefined =
      core.journal.limit === 0
        ? undefined
        : {
            time: rt.now(),
            method: incoming.method,
            path: pathname,
            query: search,
            operationId: outcome.operationId,
            user: outcome.user,
            status: outcome.status,
            fault: outcome.fault === true,
            requestText: outcome.requestText,
            responseText: outcome.text,
            seq: 0,
            truncated: undefined,
            size: 0,
            kept: false,
          }
    if (record) core.journal.record(record)
    if (onAnswered) {
      const answered: AnsweredRequest = {
        // A getter: under toNodeHandler the Request is made only if the hook reads it.
        get request() {
          return incoming.request()
        },
        method: incoming.method,
        path: pathname,
        status: outcome.status,
        operationId: outcome.operationId,
      }
      onAnswered(answered, incoming)
    }
    // A stream's text is known once it has been sent: the journal's entry gets it then (as much of it as the journal keeps).
    if (outcome.events) {
      outcome.stream = eventStreamBody(outcome.events, {
        onError: options.onError ?? logUnexpected,
        keep: core.journal.bodyLimit,
        onEnd: (text, length) => record && core.journal.respond(record, text, length),
      })
    }
    return { answer: outcome, head }
  }
  return Object.assign(dispatch, { onError: options.onError ?? logUnexpected })
}
