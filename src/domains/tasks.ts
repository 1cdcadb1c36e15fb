import type { TaskTable } from '../core/offload.js'
import { readMarkdownTask, writeMarkdownTask, type ReadMarkdownInput, type ReadMarkdownOutput, type WriteMarkdownInput, type WriteMarkdownOutput } from './content/markdown-task.js'

declare module '../core/offload.js' {
  interface OffloadTasks {
    /** Markdown to a document (domains/content/markdown-task.ts). */
    readMarkdown: (input: ReadMarkdownInput) => ReadMarkdownOutput
    /** A document to markdown (domains/content/markdown-task.ts). */
    writeMarkdown: (input: WriteMarkdownInput) => WriteMarkdownOutput
  }
}

/**
 * Every task of the offload (core/offload.ts), by name: what the inline offload runs and what a
 * worker thread loads (node/offload-worker.ts). A new task adds its line here, once.
 */
export const TASKS: TaskTable = {
  readMarkdown: readMarkdownTask,
  writeMarkdown: writeMarkdownTask,
}
