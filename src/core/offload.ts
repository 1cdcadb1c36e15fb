import { ApiError } from './errors.js'
import { nextTurn } from './slices.js'

/**
 * CPU-heavy, pure work (reading a large markdown document...) handed away from request handling,
 * so one request never holds the event loop while the others wait. A task is a function of a
 * structured-clonable input to a structured-clonable output, registered once by name
 * (domains/tasks.ts), so that a worker thread can load the same table:
 *
 * - in Node servers (`serve`, or `createWorkerOffload()` from `docs-content-api/node` passed as
 *   the `offload` option), tasks run on a small pool of worker threads with a time budget each;
 * - elsewhere (the default, web standards only), a task runs on the caller's thread, in a turn of
 *   its own: nothing can interrupt it there, so its cost is bounded by the input limits alone.
 *
 * Each area declares its tasks by augmenting `OffloadTasks` from its module, as it does services:
 *
 * @example
 * declare module '../../core/offload.js' {
 *   interface OffloadTasks { readMarkdown: (input: MarkdownTaskInput) => MarkdownTaskOutput }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface OffloadTasks {}

export type TaskName = keyof OffloadTasks & string
export type TaskInput<K extends TaskName> = OffloadTasks[K] extends (input: infer I) => unknown ? I : never
export type TaskOutput<K extends TaskName> = OffloadTasks[K] extends (input: never) => infer O ? Awaited<O> : never
/** Every task by name: what a worker loads, and what the inline offload runs. */
export type TaskTable = { readonly [K in TaskName]: OffloadTasks[K] }

export interface Offload {
  /** Run a task; rejects with an OffloadError when it cannot be run (or ran past its budget). */
  run<K extends TaskName>(task: K, input: TaskInput<K>): Promise<TaskOutput<K>>
  /** Stop what runs the tasks (worker threads); tasks still queued are rejected. */
  close(): Promise<void>
}

const OFFLOAD_ERROR = Symbol.for('docs-content-api.offload-error')

/** Why a task did not give a result. */
export type OffloadFailure = 'budget' | 'busy' | 'closed' | 'crashed'

/**
 * A task that gave no result: it ran past its time budget (its worker was stopped), too many
 * tasks were waiting, the offload was closed, or the worker died. Recognised by a marker, as
 * ApiError is, since a worker's error crosses a thread boundary.
 */
export class OffloadError extends Error {
  override name = 'OffloadError'
  readonly [OFFLOAD_ERROR] = true as const
  constructor(
    readonly reason: OffloadFailure,
    message: string,
  ) {
    super(message)
  }

  static isOffloadError(error: unknown): error is OffloadError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[OFFLOAD_ERROR] === true
  }
}

/**
 * The answer to a request whose task gave no result: past its budget, the input (`field`, a body
 * field named as validation names it) is too costly to process: 413; anything else is the
 * server's state, not the request's: 503, to be tried again.
 */
export function offloadFailure(error: OffloadError, field?: string): ApiError {
  if (error.reason === 'budget') {
    const what = field ? `Invalid request: body field \`${field}\`` : 'Invalid request'
    return new ApiError('PAYLOAD_TOO_LARGE', `${what}: could not be processed within the time budget (${error.message}); send it in smaller parts`)
  }
  return new ApiError('SERVICE_UNAVAILABLE', `The server could not process the request now (${error.message}): try again shortly`, {
    headers: { 'retry-after': '1' },
  })
}

/**
 * Tasks run on the caller's thread, each in a turn of its own (web standards: there is no thread
 * to hand them to). The default of `createDocsApi`.
 */
export function createInlineOffload(tasks: TaskTable): Offload {
  let closed = false
  return {
    async run(task, input) {
      if (closed) throw new OffloadError('closed', 'The API was closed')
      await nextTurn()
      const fn = tasks[task] as (input: unknown) => unknown
      return (await fn(input)) as never
    },
    async close() {
      closed = true
    },
  }
}
