import type { JsonDocument } from '../../content/document.js'
import { MarkdownError, type MarkdownImport } from '../../content/markdown.js'
import { sameMeaning } from '../layout/compare.js'
import { readGitbookMarkdown, writeGitbookMarkdown } from './markdown.js'

/**
 * Git Sync's CPU-heavy steps as tasks of the offload (core/offload.ts): a job awaits them, so an
 * import or export of large pages does not hold the event loop in a served API (worker threads).
 */

export type ReadGitbookOutput = { ok: true; value: MarkdownImport } | { ok: false; message: string }

/** A page file read as an import reads it (a leading `# Title` is the title; not for a reusable content's file: `takeTitle` false), or why it cannot be stored. */
export function readGitbookTask(input: { markdown: string; takeTitle?: boolean }): ReadGitbookOutput {
  try {
    return { ok: true, value: readGitbookMarkdown(input.markdown, { takeTitle: input.takeTitle ?? true }) }
  } catch (error) {
    if (error instanceof MarkdownError) return { ok: false, message: error.message }
    throw error
  }
}

/** A page's body as GitBook-flavoured markdown. */
export const writeGitbookTask = (input: { document: JsonDocument }): string => writeGitbookMarkdown(input.document)

/** Whether the branch's text at `path` already says what the export would write (layout/compare.ts). */
export const sameMeaningTask = (input: { path: string; existing: string; next: string; root: string; summary: boolean }): boolean =>
  sameMeaning(input.path, input.existing, input.next, input.root, input.summary)

/** The reader of page files a job passes to readContent: through the offload, a MarkdownError as before. */
export function offloadedReader(
  run: (markdown: string, takeTitle: boolean) => Promise<ReadGitbookOutput>,
): (markdown: string, options?: { takeTitle?: boolean }) => Promise<MarkdownImport> {
  return async (markdown, options) => {
    const read = await run(markdown, options?.takeTitle ?? true)
    if (!read.ok) throw new MarkdownError(read.message)
    return read.value
  }
}
