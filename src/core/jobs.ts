import type { Context } from './context.js'
import type { Outgoing } from './outgoing-limits.js'
import type { Services } from './services.js'
import type { BlobPort } from '../storage/blobs.js'
import type { Schema, SharedStore } from '../storage/port.js'
import type { Offload } from './offload.js'

/**
 * The one in-process job runner for background work (processing, runs, deliveries): a request
 * answers at once and its job runs after, on the event loop. A job that throws is handed to its
 * own `failed` step (which records the failure on its resource) and to `onError`; it never
 * crashes the API. `idle()` resolves once no job is pending, jobs started by jobs included.
 */
export interface JobRunner {
  /** Start `job` after the current request has answered. */
  run(name: string, job: () => unknown): void
  /** How many jobs are pending. */
  readonly pending: number
  /** Resolves when no job is pending. */
  idle(): Promise<void>
  /**
   * Bumped by `supersede()`: a job started under an older generation writes nothing any more
   * (`startJob` guards its transactions).
   */
  readonly generation: number
  /**
   * Make every job started so far write nothing from now on: the state they ran on is gone (the
   * API went back to a snapshot). They still finish (and `idle()` still waits for them), but
   * their next transaction stops them, their failures are not recorded and the jobs they would
   * start are not started. The API then resumes the unfinished work of the state it went back to
   * (core/resume.ts).
   */
  supersede(): void
}

/**
 * What a background job may use. A job runs outside any request: it reads and writes through
 * `transaction` (a system context that may do anything, on the API's clock and ids), and reaches
 * the network only through `fetch` (the API's `fetch` option; guard URLs with core/outgoing.ts).
 */
export interface JobEnv<S extends Schema = Schema> {
  /**
   * One atomic transaction with a system context, as `api.system` runs it. A promise: on a store
   * several processes share, it waits for the cluster's write lock and resolves once committed.
   */
  transaction<T>(fn: (ctx: Context<S>) => T): Promise<T>
  /** A read with a system context, at once (on a store several processes share: of this process's replica, as it stands). */
  read<T>(fn: (ctx: Context<S>) => T): T
  /** On a store several processes share: the leases that keep a job to one process (core/jobs.ts `startJob`). */
  readonly leases?: Pick<SharedStore, 'lease' | 'release'>
  /** The API's fetch (`fetch` option). */
  readonly fetch: typeof fetch
  /** Whether outgoing requests may reach private and loopback addresses (`allowPrivateNetwork`). */
  readonly allowPrivateNetwork: boolean
  /** Where CPU-heavy work runs (core/offload.ts): a job awaits it rather than holding the event loop. */
  readonly offload: Offload
  /** What outgoing fetches may hold at once (`budget`: pass it to fetchOutgoing). */
  readonly outgoing: Outgoing
  /** Where file bytes live (a job reads and stores them outside its transactions: `put` and `get` are synchronous). */
  readonly blobs: BlobPort
  /** The API's clock. */
  now(): Date
  /** The services the API was given (core/services.ts). */
  readonly services: Services
  /** Start another job (it counts for `idle()` too). */
  defer(name: string, job: Job<S>): void
}

/**
 * A job: `run` does the work; `failed`, when given, records an error `run` threw on the job's
 * resource (in its own transaction), so a failure is never lost. An error of `failed` itself goes
 * to the API's `onError`.
 */
export interface Job<S extends Schema = Schema> {
  run(env: JobEnv<S>): unknown
  failed?(ctx: Context<S>, error: unknown): void
}

/** Jobs a request deferred: started only once its transaction committed (a failed request starts none). */
export type Deferred = Array<{ name: string; job: Job }>

export function createJobRunner(onError: (error: unknown, job: string) => void): JobRunner {
  const running = new Set<Promise<void>>()
  let generation = 0
  return {
    run(name, job) {
      // A microtask later: the request that started the job answers first.
      const done: Promise<void> = Promise.resolve()
        .then(job)
        .then(
          () => undefined,
          (error: unknown) => onError(error, name),
        )
        .finally(() => running.delete(done))
      running.add(done)
    },
    get pending() {
      return running.size
    },
    async idle() {
      // A job may start others: wait until a pass finds nothing left.
      while (running.size > 0) await Promise.all([...running])
    },
    get generation() {
      return generation
    },
    supersede() {
      generation++
    },
  }
}

/** Thrown by the transaction of a superseded job (and swallowed by `startJob`): it stops the job. */
class Superseded extends Error {
  constructor() {
    super('This job was superseded: the API went back to a snapshot taken before it ended')
  }
}

/**
 * Start a job on the runner: its `run` with `env`, then, when it throws, its `failed` step. The
 * job is bound to the runner's current generation: once superseded, its transactions throw (and
 * stop it quietly), and the jobs it defers are dropped, so it can never write over the state the
 * API went back to, nor over the job that resumed its work there.
 */
export function startJob(runner: JobRunner, env: JobEnv, name: string, job: Job): void {
  const generation = runner.generation
  const live = () => runner.generation === generation
  const guarded: JobEnv = {
    ...env,
    transaction(fn) {
      if (!live()) return Promise.reject(new Superseded())
      return env.transaction(fn)
    },
    defer(next, nextJob) {
      if (live()) env.defer(next, nextJob)
    },
  }
  runner.run(name, async () => {
    // Several processes: the job holds a lease while it runs (named by the job: `translation-run:<id>#<uuid>`).
    const leases = env.leases
    const lease = leases && (await takeLease(leases, name))
    if (leases && !lease) return
    try {
      await job.run(guarded)
    } catch (error) {
      if (!live()) return
      if (!job.failed) throw error
      await env.transaction((ctx) => job.failed!(ctx, error))
    } finally {
      if (leases && lease) await releaseLease(leases, lease)
    }
  })
}

/**
 * A lease of one job instance: named after the job (`<kind>:<row id>`, what the watch for abandoned
 * work reads, core/resume.ts) and made unique to this start (`#<uuid>`). Two starts of the same
 * job (a request that supersedes a run in another process, a retry the job defers) never wait on
 * each other: which run may write is the row's run token's call, not the lease's. The lease says
 * that a live process is working on the row, and for how long (it expires when its owner dies).
 */
async function takeLease(leases: NonNullable<JobEnv['leases']>, name: string): Promise<string | undefined> {
  const key = `${name}#${crypto.randomUUID()}`
  return (await leases.lease(key)) ? key : undefined
}

async function releaseLease(leases: NonNullable<JobEnv['leases']>, key: string): Promise<void> {
  await leases.release(key).catch(() => undefined)
}
