// The script of the worker threads of createWorkerOffload (./worker-offload.ts): it loads the task
// table once and runs one task per message, answering with its result or its error. A separate
// entry of the build (dist/offload-worker.js and .cjs), found next to the code that starts it.
import { parentPort } from 'node:worker_threads'
import { TASKS } from '../domains/tasks.js'

export interface TaskMessage {
  id: number
  task: string
  input: unknown
}

export type ResultMessage = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { name: string; message: string; stack?: string } }

const port = parentPort
if (port) {
  port.on('message', async ({ id, task, input }: TaskMessage) => {
    let answer: ResultMessage
    try {
      const fn = (TASKS as Record<string, (input: unknown) => unknown>)[task]
      if (!fn) throw new Error(`No offload task "${task}"`)
      answer = { id, ok: true, value: await fn(input) }
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error))
      answer = { id, ok: false, error: { name: e.name, message: e.message, ...(e.stack && { stack: e.stack }) } }
    }
    port.postMessage(answer)
  })
}
