import type { Schema, StoragePort, WriteTx } from '../storage/port.js'
import { allows, type Action } from './policy.js'
import { createAccessChecker, type CallerAccess, type LevelResolvers } from './access.js'
import { nowIso, type BearerGrant, type ContentGrant, type Context, type InstallationGrant, type Urls } from './context.js'
import { holdsScope, SCOPES, type IntegrationScope } from './scopes.js'
import { ApiError } from './errors.js'
import { startJob, type Deferred, type Job, type JobEnv, type JobRunner } from './jobs.js'
import type { Outgoing } from './outgoing-limits.js'
import type { Tickets } from './tickets.js'
import { OffloadError, type Offload, type TaskName } from './offload.js'
import { createSlicer } from './slices.js'
import { MAX_WARMUPS, NotYet, type Warm } from './warmup.js'
import type { Services } from './services.js'
import type { BlobPort } from '../storage/blobs.js'
import { NO_CONTENT, onlyReads, type BoundOperation } from './operation.js'

export interface ExecuteInput {
  /** The authenticated user ('' for an anonymous caller of an open operation, and for a site token). */
  user: string
  /** What a site token grants, when the bearer is one. */
  content?: ContentGrant | undefined
  /** What an installation token grants, when the bearer is one. */
  installation?: InstallationGrant | undefined
  /** How many times the operation was run already and warmed up after (core/warmup.ts). */
  warmups?: number
  params: unknown
  query: unknown
  body: unknown
  prepared?: unknown
}

export interface Runtime {
  store: StoragePort<Schema>
  now: () => Date
  newId: () => string
  urls: Urls
  resolvers: LevelResolvers
  /** Background work, after requests answer (see core/jobs.ts). */
  jobs: JobRunner
  /** File bytes (rows hold their keys). */
  blobs: BlobPort
  /** Every outgoing request of the library goes through this fetch, guarded (core/outgoing.ts). */
  fetch: typeof fetch
  allowPrivateNetwork: boolean
  /** Where CPU-heavy work runs (core/offload.ts). */
  offload: Offload
  /** What outgoing fetches may hold at once, and the limits of a content batch's files (core/outgoing-limits.ts). */
  outgoing: Outgoing
  tickets: Tickets
  /** Pluggable services from the options (core/services.ts). */
  services: Services
  /** The grant of a bearer that is not an opaque token of the API (a site token, an installation token), if the areas know it. */
  verifyBearer(token: string, now: Date): Promise<BearerGrant | undefined>
}

/** Who a request comes from: a user (or '' for anonymous), the visitor of a site token, or an installation. */
export interface Caller {
  user: string
  content?: ContentGrant | undefined
  installation?: InstallationGrant | undefined
}

const ANONYMOUS: Caller = { user: '' }

/**
 * Authenticate a bearer token: the user, '' for an anonymous call of an open operation, the grant
 * of a site token, or a 401. Runs before validation so an anonymous caller learns nothing about
 * the inputs. The API's own tokens are looked up at once; any other bearer is asked of the areas
 * (a site token's signature is checked asynchronously).
 */
export function authenticate(rt: Runtime, op: BoundOperation, token: string | undefined): Caller | Promise<Caller> {
  if (!token) {
    if (op.def.auth === false) return ANONYMOUS
    throw new ApiError('UNAUTHORIZED', undefined, { headers: { 'www-authenticate': CHALLENGE } })
  }
  const row = rt.store.read((tx) => tx.get('tokens', token))
  if (row) return { user: row.user }
  return rt.verifyBearer(token, rt.now()).then((content) => {
    // An installation token: the scope table decides what it may call (checkAccess).
    // On an open operation its bearer calls as anyone would.
    if (content?.kind === 'installation') return op.def.auth === false ? ANONYMOUS : { user: content.user, installation: content }
    if (!content) throw new ApiError('UNAUTHORIZED', 'Invalid or revoked access token', { headers: { 'www-authenticate': INVALID_TOKEN } })
    // A site token reads published content: what its grant opens through the policy table, and the open operations.
    if (!op.def.permission && op.def.auth !== false) {
      throw new ApiError('UNAUTHORIZED', 'A site token reads the published content of its site: this operation needs a user token', {
        headers: { 'www-authenticate': INVALID_TOKEN },
      })
    }
    return { user: '', content }
  })
}

/** The bearer challenge of a 401 (RFC 6750): clients and proxies learn how to authenticate. */
const CHALLENGE = 'Bearer realm="docs-content-api"'
const INVALID_TOKEN = `${CHALLENGE}, error="invalid_token"`

/** The validated `shareKey` query parameter: only operations that declare it resolve share-link sites. */
function shareKeyOf(query: unknown): string | undefined {
  const key = (query as { shareKey?: unknown } | undefined)?.shareKey
  return typeof key === 'string' ? key : undefined
}

/** What a run leaves for `execute`: an error that asked for its writes to be committed, the jobs it deferred, and the tasks that finish its answer. */
interface RunState {
  committed?: ApiError
  deferred?: Deferred
  later?: Later[]
}

interface Later {
  task: TaskName
  input: unknown
  apply: (output: never) => void
}

/** `later` of a request's context: a module function over the run's state (no closure per request). */
function laterInto(this: { state: RunState }, task: TaskName, input: unknown, apply: (output: never) => void): void {
  ;(this.state.later ??= []).push({ task, input, apply })
}

/** `beforehand` of a request's context: warm up first unless the request did so often enough already. */
function beforehandOf(this: { warmups: number }, warm: Warm): void {
  if (this.warmups < MAX_WARMUPS) throw new NotYet(warm)
}

/** `beforehand` of a system context: nothing to run again, the work is done inline. */
function inline(): void {}

/** `later` of a system context (fixtures, seeds, jobs): there is no answer to finish. */
function noLater(): never {
  throw new Error('later() finishes the answer of a request: a system transaction has none')
}

/** The marker of an answer that tasks finish after its transaction (see `finish`). */
const FINISHING = Symbol.for('docs-content-api.finishing')

interface Finishing {
  readonly [FINISHING]: true
  readonly result: unknown
  readonly later: readonly Later[]
}

/** Whether `execute` answered a result that tasks finish after the transaction. */
export function isFinishing(value: unknown): value is Finishing {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[FINISHING] === true
}

/**
 * Run the tasks that finish an answer (one after the other, through the offload: never on the
 * event loop in one piece) and give the finished result. A task that cannot run is the request's
 * failure: 503 (the answer is the store's content, not the caller's input, so never a 413).
 */
export async function finish(rt: Runtime, finishing: Finishing): Promise<unknown> {
  for (const { task, input, apply } of finishing.later) {
    let output: unknown
    try {
      output = await rt.offload.run(task, input as never)
    } catch (error) {
      if (OffloadError.isOffloadError(error))
        throw new ApiError('SERVICE_UNAVAILABLE', `The answer could not be made now (${error.message}): try again shortly`, { headers: { 'retry-after': '1' } })
      throw error
    }
    apply(output as never)
  }
  return finishing.result
}

/** `defer` of a context: a module function over the run's state (no closure per request). */
function deferInto(this: { state: RunState }, name: string, job: Job): void {
  ;(this.state.deferred ??= []).push({ name, job })
}

/** The environment background jobs get: system transactions, the outgoing fetch, the clock. */
export function jobEnv(rt: Runtime): JobEnv {
  const env: JobEnv = {
    transaction: (fn) => {
      // On a shared store, under the cluster's write lock; otherwise at once.
      const shared = rt.store.shared
      if (shared) return shared.exclusive(() => inSystemTransaction(rt, fn))
      try {
        return Promise.resolve(inSystemTransaction(rt, fn))
      } catch (error) {
        return Promise.reject(error)
      }
    },
    read: (fn) => inSystemRead(rt, fn),
    leases: rt.store.shared,
    fetch: rt.fetch,
    allowPrivateNetwork: rt.allowPrivateNetwork,
    offload: rt.offload,
    outgoing: rt.outgoing,
    blobs: rt.blobs,
    now: rt.now,
    services: rt.services,
    defer: (name, job) => startJob(rt.jobs, env, name, job),
  }
  return env
}

/** Start the jobs a committed transaction deferred. */
function startDeferred(rt: Runtime, deferred: Deferred | undefined): void {
  if (!deferred) return
  const env = jobEnv(rt)
  for (const { name, job } of deferred) startJob(rt.jobs, env, name, job)
}

/** An access checker that allows everything (the system context of fixtures, seeds and jobs). */
const SYSTEM_ACCESS: Context['access'] = {
  level: () => 'admin',
  allows,
  can: () => true,
  require: () => 'admin',
}

/**
 * Run `fn` in one transaction with a system context that can do anything (fixtures, state
 * documents, background jobs). Jobs it defers start once it committed.
 */
export function inSystemTransaction<T>(rt: Runtime, fn: (ctx: Context) => T): T {
  const state: RunState = {}
  const result = rt.store.transaction((tx: WriteTx<Schema>) => fn(systemContext(rt, tx, state)))
  startDeferred(rt, state.deferred)
  return result
}

/** A read with a system context (a job's `read`): nothing it could defer is started. */
export function inSystemRead<T>(rt: Runtime, fn: (ctx: Context) => T): T {
  return rt.store.read((tx) => fn(systemContext(rt, tx as WriteTx<Schema>, {})))
}

function systemContext(rt: Runtime, tx: WriteTx<Schema>, state: RunState): Context {
  const ctx: Context & { state: RunState } = {
    actor: { user: '' },
    now: rt.now,
    nowIso,
    newId: rt.newId,
    tx,
    urls: rt.urls,
    tickets: rt.tickets,
    services: rt.services,
    access: SYSTEM_ACCESS,
    defer: deferInto,
    later: noLater,
    beforehand: inline,
    state,
  }
  return ctx
}

/**
 * The path's parents visible, then the operation's permission: a 404 or 403 thrown, or false
 * for a missing resource of an idempotent delete (answered as success without running).
 */
function checkAccess(op: BoundOperation, input: ExecuteInput, access: CallerAccess): boolean {
  const { def } = op
  const need = input.installation ? scopeNeed(def.id) : undefined
  for (const parent of op.parents) {
    access.require(parent.resource, (input.params as Record<string, string>)[parent.param]!, 'view' as Action)
  }
  if (def.permission) {
    const { resource, action, missingIsSuccess } = def.permission
    const param = def.permission.param ?? `${resource}Id`
    const id = (input.params as Record<string, string>)[param]
    if (id === undefined) throw new Error(`Operation ${def.id}: no path parameter "${param}" for its permission`)
    if (missingIsSuccess && !access.can(resource, id, 'view')) return false
    // An installation token on a target of its installation (a 404 otherwise): its integration's scopes must hold the operation's.
    if (need && need !== 'open') {
      access.require(resource, id, 'view' as Action)
      requireScope(def.id, input.installation!, need)
    }
    access.require(resource, id, action)
  } else if (need && need !== 'open') requireScope(def.id, input.installation!, need)
  return true
}

function requireScope(id: string, grant: InstallationGrant, need: IntegrationScope): void {
  if (!holdsScope(grant.scopes, need))
    throw new ApiError('FORBIDDEN', `An installation token needs the "${need}" scope for ${id}: its integration declares ${scopeList(grant.scopes)}`)
}

/**
 * What an operation asks of an installation token (core/scopes.ts): `open` operations run as for
 * anyone, the others need a scope; an operation installation tokens may not call is a 403 at once.
 */
function scopeNeed(id: string) {
  const need = SCOPES[id]
  if (need === undefined || need === 'none') throw new ApiError('FORBIDDEN', `An installation token cannot call ${id}: it needs a user token`)
  return need
}

const scopeList = (scopes: readonly string[]) => (scopes.length ? scopes.map((s) => `"${s}"`).join(', ') : 'no scope')

/**
 * The context of one request over `tx`, with the caller's access checker. Levels are worked out
 * once and kept until the request writes (`writes`: the transaction tells the checker to forget).
 */
function requestContext(rt: Runtime, input: ExecuteInput, tx: WriteTx<Schema>, writes: boolean, state: RunState = {}): { ctx: Context; access: CallerAccess } {
  let ctx: Context & { state: RunState; warmups: number }
  const access = createAccessChecker(() => ctx, rt.resolvers)
  ctx = {
    actor: { user: input.user, content: input.content, installation: input.installation },
    now: rt.now,
    nowIso,
    newId: rt.newId,
    tx: writes ? access.watchWrites(tx) : tx,
    urls: rt.urls,
    access,
    tickets: rt.tickets,
    services: rt.services,
    shareKey: shareKeyOf(input.query),
    defer: deferInto,
    later: laterInto,
    beforehand: beforehandOf,
    warmups: input.warmups ?? 0,
    state,
  }
  return { ctx, access }
}

/**
 * Check the caller's access, then what the prepare step `requires` (the target exists), in one
 * read transaction, before the prepare step does any work (an outgoing request above all).
 */
export function authorize(rt: Runtime, op: BoundOperation, input: ExecuteInput): boolean {
  return rt.store.read((tx) => {
    const { ctx, access } = requestContext(rt, input, tx as WriteTx<Schema>, false)
    if (!checkAccess(op, input, access)) return false
    op.prepare?.requires?.(ctx, input)
    return true
  })
}

/** The body of `execute`'s transaction: a module function rather than a closure made per request. */
function run(rt: Runtime, op: BoundOperation, input: ExecuteInput, tx: WriteTx<Schema>, state: RunState): unknown {
  const { ctx, access } = requestContext(rt, input, tx, !onlyReads(op.def), state)
  // A missing resource of an idempotent delete: 204 (not the 205 of a delete that reset something).
  if (!checkAccess(op, input, access)) return NO_CONTENT
  try {
    return op.handler(ctx, input)
  } catch (error) {
    if (!ApiError.isApiError(error) || !error.commitWrites) throw error
    state.committed = error
    return undefined
  }
}

/**
 * `execute`, for a request whose run asked for a warm-up (`ctx.beforehand` threw `notYet`,
 * core/warmup.ts): the warm-up runs in slices with reads of its own, then the operation runs
 * again, as often as it asks (MAX_WARMUPS at most: then its handler does the work inline). The
 * first run is the caller's own `execute` (synchronous: no request that needs no warm-up waits).
 */
export async function executeAfterWarmup(rt: Runtime, op: BoundOperation, input: ExecuteInput, notYet: NotYet): Promise<unknown> {
  for (let warmups = 1; ; warmups++) {
    await notYet.warm({ read: (fn) => rt.store.read(fn), slicer: createSlicer() })
    try {
      return execute(rt, op, { ...input, warmups })
    } catch (error) {
      if (!NotYet.isNotYet(error)) throw error
      notYet = error
    }
  }
}

/**
 * Before a request is signed in, on a store several processes share: resolves once the replica
 * holds what they committed (a token made there signs in here). Undefined otherwise: nothing to wait for.
 */
export function caughtUp(rt: Runtime): Promise<void> | undefined {
  return rt.store.shared?.sync()
}

/** Run an operation; one whose handler asks for a warm-up first (core/warmup.ts) is run again after it. */
export function runOperation(rt: Runtime, op: BoundOperation, input: ExecuteInput): unknown {
  if (rt.store.shared) return executeShared(rt, op, input)
  try {
    return execute(rt, op, input)
  } catch (error) {
    if (NotYet.isNotYet(error)) return executeAfterWarmup(rt, op, input, error)
    throw error
  }
}

/**
 * `execute` on a store several processes share (`store.shared`, the PostgreSQL store): a write
 * runs inside the store's `exclusive` (the cluster's write lock, the replica brought up to date,
 * the writes committed in the database before this resolves); a read runs at once (the caller
 * awaited `sync` before it signed the caller in). A warm-up runs outside the lock, between tries.
 */
export async function executeShared(rt: Runtime, op: BoundOperation, input: ExecuteInput): Promise<unknown> {
  const shared = rt.store.shared!
  const write = !onlyReads(op.def)
  for (let warmups = input.warmups ?? 0; ; warmups++) {
    const attempt = warmups === (input.warmups ?? 0) ? input : { ...input, warmups }
    try {
      return write ? await shared.exclusive(() => execute(rt, op, attempt)) : execute(rt, op, attempt)
    } catch (error) {
      if (!NotYet.isNotYet(error)) throw error
      await error.warm({ read: (fn) => rt.store.read(fn), slicer: createSlicer() })
    }
  }
}

/**
 * Run one validated operation: open a transaction (a read for GET and read-only POSTs), check the operation's
 * permission from the policy table, then run the handler. A handler that throws leaves the store
 * exactly as it was (the transaction rolls back).
 */
export function execute(rt: Runtime, op: BoundOperation, input: ExecuteInput): unknown {
  const state: RunState = {}
  // Reads need no undo log; writes run in a transaction. An error that asks for its writes to be
  // committed leaves the transaction normally and is thrown once the writes are in.
  const result = onlyReads(op.def)
    ? rt.store.read((tx) => run(rt, op, input, tx as WriteTx<Schema>, state))
    : rt.store.transaction((tx) => run(rt, op, input, tx, state))
  // The transaction committed (a throw above rolled it back and starts nothing).
  startDeferred(rt, state.deferred)
  if (state.committed) throw state.committed
  return state.later ? ({ [FINISHING]: true, result, later: state.later } satisfies Finishing) : result
}
