import type { TaskTable } from '../core/offload.js'
import { issueSiteToken } from './published/site-tokens.js'
import type { JsonDocument } from './content/document.js'
import { renderPdf, type PdfOptions, type PdfPage } from './content/pdf.js'
import { readGitbookTask, writeBackTask, writeGitbookTask, type ReadGitbookOutput, type WriteBackInput } from './git-sync/gitbook/tasks.js'
import {
  readMarkdownTask,
  writeMarkdownTask,
  type ReadMarkdownInput,
  type ReadMarkdownOutput,
  type WriteMarkdownInput,
  type WriteMarkdownOutput,
} from './content/markdown-task.js'

declare module '../core/offload.js' {
  interface OffloadTasks {
    /** Markdown to a document (domains/content/markdown-task.ts). */
    readMarkdown: (input: ReadMarkdownInput) => Promise<ReadMarkdownOutput>
    /** A document to markdown (domains/content/markdown-task.ts). */
    writeMarkdown: (input: WriteMarkdownInput) => Promise<WriteMarkdownOutput>
    /** A Git Sync page file to a document (domains/git-sync/gitbook/tasks.ts). */
    readGitbookMarkdown: (input: { markdown: string; takeTitle?: boolean }) => Promise<ReadGitbookOutput>
    /** A page's body as GitBook-flavoured markdown. */
    writeGitbookMarkdown: (input: { document: JsonDocument }) => Promise<string>
    /** What an export writes over a file of the branch: nothing when it says the same, else the new text in the file's style. */
    gitSyncWriteBack: (input: WriteBackInput) => Promise<string | null>
    /** A site API token signed, after the visitor token it is given for is checked (domains/published/site-tokens.ts). */
    issueSiteToken: typeof issueSiteToken
    renderPdf: (input: { pages: PdfPage[]; options: PdfOptions }) => Promise<Uint8Array>
  }
}

/**
 * Every task of the offload (core/offload.ts), by name: what the inline offload runs and what a
 * worker thread loads (node/offload-worker.ts). A new task adds its line here, once.
 */
export const TASKS: TaskTable = {
  readMarkdown: readMarkdownTask,
  writeMarkdown: writeMarkdownTask,
  readGitbookMarkdown: readGitbookTask,
  writeGitbookMarkdown: writeGitbookTask,
  gitSyncWriteBack: writeBackTask,
  issueSiteToken,
  renderPdf: ({ pages, options }) => renderPdf(pages, options),
}
