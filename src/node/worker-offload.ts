import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { OffloadError, type Offload, type TaskInput, type TaskName, type TaskOutput } from '../core/offload.js'
import type { ResultMessage, TaskMessage } from './offload-worker.js'

export interface WorkerOffloadOptions {
  /**
   * How many worker threads run tasks at once (started when first needed).
   * @default the machine's cores less one, between 1 and 4
   */
  workers?: number
  /**
   * The longest a task may run: past it, its worker is stopped (and replaced) and the task fails,
   * so no input keeps a worker forever.
   * @default 30000
   */
  budgetMs?: number
  /**
   * Tasks that may wait for a free worker; one more is refused at once (the API answers 503).
   * @default 256
   */
  maxQueue?: number
}

interface Pending {
  message: TaskMessage
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

interface Slot {
  worker: Worker
  /** The task it runs, if any. */
  current?: Pending
  timer?: ReturnType<typeof setTimeout>
}

/**
 * The worker script next to this module: `offload-worker.js` (or `.cjs`) of the build; or, running
 * from the TypeScript sources (tests, `npm start`), the `.ts` source loaded through tsx (a dev
 * dependency), which a worker gets from a small module that registers tsx's loader first.
 */
function workerScript(): URL {
  const here = import.meta.url
  if (!here.endsWith('.ts')) return new URL(here.endsWith('.cjs') ? './offload-worker.cjs' : './offload-worker.js', here)
  const source = new URL('./offload-worker.ts', here).href
  const tsx = pathToFileURL(
    createRequire(here)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href
  const boot = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(source)});`
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`)
}

/**
 * Run the API's CPU-heavy tasks (reading large markdown documents...) on worker threads, so the
 * event loop keeps answering requests while they run: `createDocsApi({ offload: createWorkerOffload() })`.
 * `docs-content-api serve` uses one. Idle workers do not keep the process alive; `close()` stops them.
 *
 * @example
 * import { createWorkerOffload, toNodeHandler } from 'docs-content-api/node'
 * const offload = createWorkerOffload()
 * const api = createDocsApi({ offload })
 * createServer(toNodeHandler(api)).listen(4000)
 * // on shutdown: await offload.close()
 */
export function createWorkerOffload(options: WorkerOffloadOptions = {}): Offload & { readonly stats: { tasks: number; stopped: number } } {
  const size = options.workers ?? Math.max(1, Math.min(4, availableParallelism() - 1))
  if (!Number.isInteger(size) || size < 1) throw new Error(`workers must be a whole number >= 1, got ${size}`)
  const budgetMs = options.budgetMs ?? 30_000
  const maxQueue = options.maxQueue ?? 256
  const script = workerScript()
  const slots: Slot[] = []
  const queue: Pending[] = []
  const stats = { tasks: 0, stopped: 0 }
  let nextId = 1
  let closed = false

  const spawn = (): Slot => {
    const worker = new Worker(script)
    const slot: Slot = { worker }
    worker.on('message', (answer: ResultMessage) => {
      const task = slot.current
      if (!task || task.message.id !== answer.id) return
      settle(slot)
      if (answer.ok) task.resolve(answer.value)
      else task.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name, ...(answer.error.stack && { stack: answer.error.stack }) }))
      pump()
    })
    // A worker that dies (out of memory, a crash of its own) fails its task and is replaced when needed.
    const died = (why: string) => {
      const at = slots.indexOf(slot)
      if (at < 0) return
      slots.splice(at, 1)
      const task = slot.current
      settle(slot)
      task?.reject(new OffloadError('crashed', `The worker running the task stopped: ${why}`))
      pump()
    }
    worker.on('error', (error) => died(error.message))
    worker.on('exit', (code) => died(`exit code ${code}`))
    worker.unref()
    slots.push(slot)
    return slot
  }

  /** The slot is free again (its timer cleared, and it no longer keeps the process alive). */
  const settle = (slot: Slot) => {
    if (slot.timer) clearTimeout(slot.timer)
    slot.timer = undefined
    slot.current = undefined
    slot.worker.unref()
  }

  const start = (slot: Slot, task: Pending) => {
    slot.current = task
    stats.tasks++
    slot.worker.ref()
    slot.timer = setTimeout(() => {
      // Past its budget: the only way to stop synchronous work in a thread is to stop the thread.
      const at = slots.indexOf(slot)
      if (at >= 0) slots.splice(at, 1)
      settle(slot)
      stats.stopped++
      void slot.worker.terminate()
      task.reject(new OffloadError('budget', `The task ran past its time budget of ${budgetMs} ms and was stopped`))
      pump()
    }, budgetMs)
    slot.worker.postMessage(task.message)
  }

  const pump = () => {
    while (queue.length > 0 && !closed) {
      const free = slots.find((s) => !s.current) ?? (slots.length < size ? spawn() : undefined)
      if (!free) return
      start(free, queue.shift()!)
    }
  }

  return {
    stats,
    run<K extends TaskName>(task: K, input: TaskInput<K>): Promise<TaskOutput<K>> {
      if (closed) return Promise.reject(new OffloadError('closed', 'The offload was closed'))
      if (queue.length >= maxQueue) return Promise.reject(new OffloadError('busy', `${maxQueue} tasks are already waiting for a worker`))
      return new Promise((resolve, reject) => {
        queue.push({ message: { id: nextId++, task, input }, resolve: resolve as (value: unknown) => void, reject })
        pump()
      })
    },
    async close() {
      closed = true
      for (const task of queue.splice(0)) task.reject(new OffloadError('closed', 'The offload was closed'))
      const all = slots.splice(0)
      for (const slot of all) {
        const task = slot.current
        settle(slot)
        task?.reject(new OffloadError('closed', 'The offload was closed'))
      }
      await Promise.all(all.map((slot) => slot.worker.terminate()))
    },
  }
}
