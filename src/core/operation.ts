import type { z } from 'zod'
import { parentResources, type PathResource, type Permission } from './policy.js'
import type { Context, ReadContext } from './context.js'
import type { ErrorCode } from './errors.js'
import type { Encoded } from './json.js'
import type { Outgoing } from './outgoing-limits.js'
import type { Services } from './services.js'
import type { AwaitedAnswer, EventStream } from './stream.js'
import type { BinaryAnswer, BinaryMediaType } from './binary.js'
import type { BlobPort } from '../storage/blobs.js'
import type { Schema } from '../storage/port.js'
import type { Offload } from './offload.js'
import type { LazyModule } from './lazy.js'
import { answersBytes } from './binary.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * One operation of the API, declared once as data. The same entry drives the router, request
 * validation, authorization, the published OpenAPI document and the tests that walk every
 * operation. Table files never import handlers.
 */
export interface OperationDef {
  /** The official operationId where the official document has the operation. */
  id: string
  method: HttpMethod
  /** Path with `{param}` placeholders, starting with `/v1` (unless `outsideV1`). */
  path: string
  /**
   * The path is not under `/v1`: a URL the API hands out and serves by itself (a file's
   * `downloadURL`, a change request's PDF), which must stay as it was handed out. Only for
   * operations of the reference's own (`beyondOfficial`): the official document has `/v1` paths only.
   */
  outsideV1?: boolean
  summary: string
  /** The area the operation belongs to (its tag in the OpenAPI document). */
  tag: string
  params?: z.ZodObject
  query?: z.ZodObject
  body?: z.ZodType
  /**
   * A POST that only reads (a query whose input is a body, e.g. a content source to compute): it
   * runs in a read transaction, as a GET does, and its handler gets a `ReadContext`.
   */
  readOnly?: true
  /** A request without a body is a 400 when true. */
  bodyRequired?: boolean
  /** Largest body accepted, in bytes (413 past it). @default 1 MiB (http/codec.ts MAX_BODY_BYTES) */
  maxBodyBytes?: number
  /** The success body; absent for operations answering without one, or with bytes. For a stream, each event's `data`. */
  response?: z.ZodType
  /**
   * `text/event-stream`: the operation answers a stream of server-sent events (its handler returns
   * an `EventStream` of `response` values, see core/stream.ts). A media type of bytes
   * (`application/pdf`, `*\/*`): the operation answers bytes (its handler returns a `BinaryAnswer`,
   * see core/binary.ts; no `response`). JSON otherwise.
   */
  responseType?: 'text/event-stream' | BinaryMediaType
  /** The success status. */
  status: 200 | 201 | 204 | 205
  /** The body may be left out (204) when the request sends `Prefer: return=minimal`. */
  minimal?: boolean
  /** Error codes the operation can answer with, beyond 400/401. */
  errors: readonly ErrorCode[]
  /** False for operations open to anonymous callers. @default true */
  auth?: boolean
  /** The permission checked before the handler runs, from the policy table. */
  permission?: Permission
  /** The official document has no such operation (the reference's own). */
  beyondOfficial?: boolean
  /** What the request journal keeps of the body text (credentials cut out, say); the text as sent otherwise. */
  redactJournal?: (text: string) => string
  /**
   * Libraries loaded on first use (core/lazy.ts) that validating the body or running the handler
   * uses synchronously: the fetch handler awaits their `load()` before it validates (at once when
   * they are loaded already).
   */
  needs?: readonly LazyModule<unknown>[]
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined
type ResponseOf<D extends OperationDef> = D['response'] extends z.ZodType ? z.input<D['response']> : void

export interface OperationInput<D extends OperationDef> {
  params: Out<D['params']>
  query: Out<D['query']>
  body: Out<D['body']>
  /** What the operation's `prepare` step made before the transaction (see Prepare). */
  prepared?: unknown
}

/** A handler's answer that turns the success status into 204 (e.g. a 205 delete of what was not there). */
export const NO_CONTENT: unique symbol = Symbol.for('docs-content-api.no-content')

/** What a prepare step may use: the outgoing fetch, its guard and limits, the blob port, and the offload for CPU-heavy work. */
export interface PrepareEnv {
  blobs: BlobPort
  offload: Offload
  /** The API's ids (`ids` option): what the prepared values need (block keys) is made here. */
  newId: () => string
  fetch: typeof fetch
  allowPrivateNetwork: boolean
  outgoing: Outgoing
  /** The API's services (core/services.ts): a pluggable resolver a prepare step calls. */
  services: Services
}

/** The validated input a prepare step and its `requires` get. */
export interface PrepareInput {
  params: unknown
  query: unknown
  body: unknown
}

/**
 * Async work an operation needs before its (synchronous) transaction: fetching a file's URL,
 * putting bytes in the blob port. It runs after the caller's access was checked, and its
 * `undo` runs when the transaction then fails, so a failed request leaves nothing behind.
 */
export type Prepare = (env: PrepareEnv, input: PrepareInput) => Promise<{ value: unknown; undo(): void }>

/**
 * A prepare step with what must hold before it runs. The caller's access covers the resources of
 * the policy table the path names (a space, an organization); `requires` checks the others (a
 * change request exists and can take the change), in the same read and throwing what the
 * handler would (404, 409...), so no outgoing request is made for a target that is not there and
 * the answer never depends on what the prepare step would have fetched.
 */
export interface PrepareStep<D extends OperationDef = OperationDef, S extends Schema = Schema> {
  requires?(ctx: ReadContext<S>, input: Pick<OperationInput<D>, 'params' | 'query' | 'body'>): void
  run: Prepare
}

/**
 * A handler gets the context and the validated input, and returns the response body (or its JSON
 * text, see core/json.ts), or one made after the transaction (AwaitedAnswer); a streaming
 * operation's handler returns the stream of its events.
 */
export type Handler<D extends OperationDef, S extends Schema = Schema> = (
  ctx: D extends { method: 'GET' } | { readOnly: true } ? ReadContext<S> : Context<S>,
  input: OperationInput<D>,
) => D extends { responseType: 'text/event-stream' }
  ? EventStream<ResponseOf<D>>
  : D extends { responseType: BinaryMediaType }
    ? BinaryAnswer
    : Encoded<ResponseOf<D>> | AwaitedAnswer<ResponseOf<D>> | typeof NO_CONTENT

export type OperationTable = Record<string, OperationDef>
export type Handlers<T extends OperationTable, S extends Schema = Schema> = { [K in keyof T]: Handler<T[K], S> }

/** An operation bound to its handler. */
export interface BoundOperation {
  def: OperationDef
  handler: (ctx: Context, input: { params: unknown; query: unknown; body: unknown; prepared?: unknown }) => unknown
  prepare?: { requires?(ctx: ReadContext, input: PrepareInput): void; run: Prepare }
  /** Resources named in the path above the addressed one, checked visible before anything else. */
  parents: readonly PathResource[]
}

/** Whether an operation only reads: a GET, or a POST marked `readOnly`. */
export const onlyReads = (def: OperationDef): boolean => def.method === 'GET' || def.readOnly === true

/** Declare an operation (an identity function that keeps the literal types). */
export function defineOperation<const D extends OperationDef>(def: D): D {
  return def
}

/**
 * The path parameters no access check covers: neither the permission's resource nor a parent of
 * the policy table (a `{changeRequestId}`, a `{specSlug}`).
 */
function uncheckedParams(def: OperationDef, parents: readonly PathResource[]): string[] {
  const own = def.permission && (def.permission.param ?? `${def.permission.resource}Id`)
  return [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((param) => param !== own && !parents.some((p) => p.param === param))
}

/**
 * Why a def's path or answer does not hold together, or undefined: a path is under `/v1` unless
 * the def says it is not (and then is the reference's own); bytes come without a `response` schema.
 */
function shapeProblem(def: OperationDef): string | undefined {
  const underV1 = def.path === '/v1' || def.path.startsWith('/v1/')
  if (!def.outsideV1 && !underV1) return `its path ${def.path} is not under /v1 (a URL the API hands out says \`outsideV1\`)`
  if (def.outsideV1 && underV1) return `its path ${def.path} is under /v1, yet it says \`outsideV1\``
  if (def.outsideV1 && !def.beyondOfficial) return "a path outside /v1 is the reference's own: it says `beyondOfficial`"
  if (answersBytes(def) && def.response) return 'it answers bytes: it has no `response` schema'
  return undefined
}

/**
 * Bind a table to its handlers; a missing or mistyped handler is a compile error. A prepare step
 * of an operation whose path names something no access check covers must say what of it must
 * exist first (`requires`; `() => undefined` when nothing must, a create-or-update by slug).
 */
export function implement<T extends OperationTable, S extends Schema = Schema>(
  table: T,
  handlers: Handlers<T, S>,
  prepares: { [K in keyof T]?: Prepare | PrepareStep<T[K], S> } = {},
): BoundOperation[] {
  return Object.keys(table).map((key) => {
    const def = table[key]!
    if (def.id !== key) throw new Error(`Operation key "${key}" differs from its id "${def.id}"`)
    const problem = shapeProblem(def)
    if (problem) throw new Error(`Operation ${def.id}: ${problem}`)
    const parents = parentResources(def.path, def.permission)
    if (def.permission?.missingIsSuccess && def.path.split('/').pop() !== `{${def.permission.param ?? `${def.permission.resource}Id`}}`) {
      throw new Error(`Operation ${def.id}: missingIsSuccess is only for the resource the path addresses (its last parameter)`)
    }
    const given = prepares[key]
    const prepare = typeof given === 'function' ? { run: given } : (given as BoundOperation['prepare'])
    const unchecked = uncheckedParams(def, parents)
    if (prepare && !prepare.requires && unchecked.length > 0) {
      throw new Error(
        `Operation ${def.id}: its prepare step runs before the handler, and no access check covers {${unchecked.join('}, {')}}: say what must exist (\`requires\`)`,
      )
    }
    return { def, handler: handlers[key] as BoundOperation['handler'], parents, ...(prepare && { prepare }) }
  })
}
