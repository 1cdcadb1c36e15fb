import type { JsonDocument } from '../../content/document.js'
import { MarkdownError, type MarkdownImport } from '../../content/markdown.js'
import { sameMeaning } from '../layout/compare.js'
import { composePage, composeSummary } from '../layout/compose.js'
import { pageText } from '../layout/write.js'
import { loadFigures } from './figure.js'
import { markersOf, readGitbookMarkdown, writeGitbookMarkdown } from './markdown.js'

/**
 * Git Sync's CPU-heavy steps as tasks of the offload (core/offload.ts): a job awaits them, so an
 * import or export of large pages does not hold the event loop in a served API (worker threads).
 */

export type ReadGitbookOutput = { ok: true; value: MarkdownImport } | { ok: false; message: string }

/** A page file read as an import reads it (a leading `# Title` is the title; not for a reusable content's file: `takeTitle` false), or why it cannot be stored. */
export async function readGitbookTask(input: { markdown: string; takeTitle?: boolean }): Promise<ReadGitbookOutput> {
  // The figures' HTML utilities load on first use (figure.ts); in a worker thread too.
  await loadFigures()
  try {
    return { ok: true, value: readGitbookMarkdown(input.markdown, { takeTitle: input.takeTitle ?? true }) }
  } catch (error) {
    if (error instanceof MarkdownError) return { ok: false, message: error.message }
    throw error
  }
}

/** A page's body as GitBook-flavoured markdown. */
export async function writeGitbookTask(input: { document: JsonDocument }): Promise<string> {
  await loadFigures()
  return writeGitbookMarkdown(input.document)
}

/** A file of the branch an export writes over: SUMMARY.md's next text, or a page's head and body. */
export type WriteBackInput = { path: string; existing: string; root: string } & (
  { summary: true; next: string } | { summary: false; head: string; body: JsonDocument }
)

/**
 * What an export writes at `path` over the branch's text there: nothing (null) when it already says
 * the same (layout/compare.ts), else the new text in the file's own style: a page's body written
 * with the file's markers, then the parts of the file that did not change kept as written (layout/compose.ts).
 */
export async function writeBackTask(input: WriteBackInput): Promise<string | null> {
  await loadFigures()
  if (input.summary) {
    if (sameMeaning(input.path, input.existing, input.next, input.root, true)) return null
    const text = composeSummary(input.existing, input.next, input.path)
    return text === input.existing ? null : text
  }
  const markers = markersOf(input.existing)
  const composed = composePage(input.existing, input.head, input.body, input.path, input.root, markers)
  if (composed !== undefined) return composed === input.existing ? null : composed
  // The file could not be kept in part: the page written anew, unless the file already reads as that.
  const next = pageText({ head: input.head }, writeGitbookMarkdown(input.body, markers))
  return sameMeaning(input.path, input.existing, next, input.root, false) ? null : next
}

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
