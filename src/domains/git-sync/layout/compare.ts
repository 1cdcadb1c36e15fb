import type { JsonDocument } from '../../content/document.js'
import { readGitbookMarkdown } from '../gitbook/markdown.js'
import { dirname, resolveLink } from './paths.js'
import { mapRefs } from './refs.js'
import { parseSummary, type SummaryEntry } from './summary.js'

/**
 * Whether a file of the branch already says what an export would write there, read the way an
 * import reads it: then the export keeps the file as it is (its bytes, its formatting), so an
 * export with nothing changed makes no commit even where the repository writes markdown its own
 * way (`-` bullets, a SUMMARY.md without a title), and a change touches only the files it changes.
 */

/** A document's relative links from `file` as the repository paths they lead to (`repo:<path>#<anchor>`): two texts of one file compared by where they link. */
export function withRepoLinks(document: JsonDocument, file: string, root: string): JsonDocument {
  const from = dirname(file)
  return mapRefs(document, (ref) => {
    if (ref.kind !== 'url' || typeof ref.url !== 'string') return undefined
    const target = resolveLink(from, root, ref.url)
    return target ? { kind: 'url', url: `repo:${target.path}${target.anchor !== undefined ? `#${target.anchor}` : ''}` } : undefined
  })
}

/** A page file's meaning: title, frontmatter (keys in any order) and body, its relative links resolved to repository paths. */
function pageMeaning(text: string, file: string, root: string): string | undefined {
  let parsed: ReturnType<typeof readGitbookMarkdown>
  try {
    parsed = readGitbookMarkdown(text, { takeTitle: true })
  } catch {
    return undefined
  }
  const document = withRepoLinks(parsed.document, file, root)
  const frontmatter = Object.fromEntries(Object.entries(parsed.frontmatter).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  return JSON.stringify([parsed.title ?? null, frontmatter, JSON.stringify(document)])
}

function summaryMeaning(text: string, file: string): string {
  const dir = dirname(file)
  const entry = (e: SummaryEntry): unknown => {
    const target = e.link === undefined ? undefined : resolveLink(dir, dir, e.link)
    return [e.title, target ? `${target.path}#${target.anchor ?? ''}` : (e.link ?? null), e.children.map(entry)]
  }
  return JSON.stringify(parseSummary(text).map((s) => [s.group ?? null, s.entries.map(entry)]))
}

/** Whether `existing` and `next`, the text at `path`, mean the same (`summary`: as SUMMARY.md, else as a page). */
export function sameMeaning(path: string, existing: string, next: string, root: string, summary: boolean): boolean {
  if (existing === next) return true
  if (summary) return summaryMeaning(existing, path) === summaryMeaning(next, path)
  const before = pageMeaning(existing, path, root)
  return before !== undefined && before === pageMeaning(next, path, root)
}
