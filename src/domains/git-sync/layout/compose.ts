import type { DocBlock, JsonDocument } from '../../content/document.js'
import type { MarkdownSource } from '../../content/markdown.js'
import { readGitbookSource, writeGitbookMarkdown, type MarkdownMarkers } from '../gitbook/markdown.js'
import { sameMeaning, withRepoLinks } from './compare.js'
import { dirname, resolveLink } from './paths.js'
import { parseSummary, summaryStyle, writeSummary, type SummaryEntry } from './summary.js'

/**
 * A changed page written back in its file's own style: the parts of the file that still say what
 * the page says are kept as written (their list markers, table alignment, emphasis, fences, deep
 * headings, raw HTML), with the text between them (blank lines, HTML comments, link reference
 * definitions); only the blocks that changed are written, with the file's markers. The
 * frontmatter and the title heading are kept when they say the same. The result is checked: read
 * back, it must say what the page says, or undefined is answered (the caller writes the page
 * anew): a kept part that reads differently beside a new one (two lists run together) is never risked.
 *
 * The file's parts are matched with the page's blocks by what they say (blocks without keys, links
 * resolved to repository paths): the longest common run, found past a common prefix and suffix; a
 * middle too long to align (more than MAX_ALIGN cells) is written anew.
 */

const MAX_ALIGN = 250_000

type Span = { start: number; end: number }

/** What blocks say, comparable between a file read and a page's body: no keys, links resolved to repository paths. */
function blockSums(blocks: DocBlock[], file: string, root: string): string[] {
  const resolved = withRepoLinks({ object: 'document', data: {}, nodes: blocks }, file, root)
  // Keys in a canonical order: a stored document and a parsed one order their fields differently.
  return resolved.nodes.map((node) => JSON.stringify(sorted(node)))
}

/** A unit's sum: its one block's; a unit of several blocks matches nothing (it is written anew when its page changes). */
function unitSums(source: MarkdownSource, file: string, root: string): string[] {
  return source.units.map((unit, i) => (unit.blocks.length === 1 ? blockSums(unit.blocks, file, root)[0]! : `\0unit ${i}`))
}

/** For each index of `b`, the index of `a` it is matched with: a longest common subsequence, past a common prefix and suffix. */
export function alignUnits(a: readonly string[], b: readonly string[]): Map<number, number> {
  const match = new Map<number, number>()
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) match.set(head, head++)
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) {
    match.set(b.length - 1 - tail, a.length - 1 - tail)
    tail++
  }
  const n = a.length - head - tail
  const m = b.length - head - tail
  if (n === 0 || m === 0 || n * m > MAX_ALIGN) return match
  // LCS table over the middle, filled from the end.
  const width = m + 1
  const table = new Uint32Array((n + 1) * width)
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i * width + j] =
        a[head + i] === b[head + j] ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!)
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[head + i] === b[head + j]) {
      match.set(head + j, head + i)
      i++
      j++
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) i++
    else j++
  }
  return match
}

/** A value with its objects' keys sorted (and no block `key`: an import makes new ones), to compare as JSON. */
const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .filter((k) => k !== 'key')
            .sort()
            .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
        )
      : value

const slice = (text: string, span: Span | undefined) => (span ? text.slice(span.start, span.end) : '')

/**
 * `existing` (the file on the branch) rewritten to say what the page says (`head`: its frontmatter
 * and title as the export writes them; `body`: its blocks, links relative to `file`), keeping what
 * did not change as the file wrote it. Undefined when the file cannot be read or the result would
 * not read as the page.
 */
export function composePage(existing: string, head: string, body: JsonDocument, file: string, root: string, markers: MarkdownMarkers = {}): string | undefined {
  let original: MarkdownSource
  let fresh: MarkdownSource
  try {
    original = readGitbookSource(existing)
    fresh = readGitbookSource(head)
  } catch {
    return undefined
  }
  const eol = existing.includes('\r\n') ? '\r\n' : '\n'
  const own = (text: string) => (eol === '\n' ? text : text.replace(/\r?\n/g, eol))
  const blank = eol + eol

  // The head: kept as a whole when it says the same title and frontmatter, in whatever form (a
  // `title:` key or a `# Title`), else the frontmatter and the title heading each kept when it does.
  const withoutTitle = (frontmatter: Record<string, unknown>) => JSON.stringify(sorted({ ...frontmatter, title: undefined }))
  const headSame = original.title === fresh.title && withoutTitle(original.frontmatter) === withoutTitle(fresh.frontmatter)
  const yamlSame =
    (original.yaml === undefined) === (fresh.yaml === undefined) && JSON.stringify(sorted(original.frontmatter)) === JSON.stringify(sorted(fresh.frontmatter))
  const titleSame = original.title === fresh.title && (original.titleAt === undefined) === (fresh.titleAt === undefined)
  const originalHeadEnd = original.titleAt?.end ?? original.yaml?.end ?? 0
  let out: string
  let headKept: boolean
  if (headSame || (yamlSame && titleSame)) {
    out = existing.slice(0, originalHeadEnd)
    headKept = true
  } else {
    const yaml = yamlSame ? slice(existing, original.yaml) : own(slice(head, fresh.yaml))
    const title = titleSame ? slice(existing, original.titleAt) : own(slice(head, fresh.titleAt))
    // What stood between the frontmatter and the title (comments): kept.
    const between = original.titleAt ? existing.slice(original.yaml?.end ?? 0, original.titleAt.start).trim() : ''
    out = [yaml, between, title].filter((part) => part !== '').join(blank)
    headKept = false
  }

  const wanted = blockSums(body.nodes, file, root)
  const match = alignUnits(unitSums(original, file, root), wanted)
  if (match.size === 0 && !headKept) return undefined
  const units = original.units
  const gapBefore = (k: number) => existing.slice(k === 0 ? originalHeadEnd : units[k - 1]!.end, units[k]!.start)
  // The comments and definitions of gaps whose units are gone or changed: kept, in their order.
  const trivia = (from: number, to: number, tail: boolean) => {
    const parts: string[] = []
    for (let q = from; q < to; q++) parts.push(gapBefore(q).trim())
    if (tail) parts.push(existing.slice(units.length ? units[units.length - 1]!.end : originalHeadEnd).trim())
    return parts.filter((p) => p !== '')
  }
  const add = (piece: string) => {
    out = out === '' ? piece : `${out.replace(/\s+$/, '')}${blank}${piece}`
  }
  // The original unit emitted last (-1: the head), while the last thing emitted was the file's own.
  let last: number | undefined = headKept ? -1 : undefined
  let pending = 0
  let run: DocBlock[] = []
  const flush = () => {
    if (run.length) add(own(writeGitbookMarkdown({ ...body, nodes: run }, markers).replace(/\s+$/, '')))
    run = []
  }
  body.nodes.forEach((block, i) => {
    const k = match.get(i)
    if (k === undefined) {
      run.push(block)
      last = undefined
      return
    }
    flush()
    const adjacent = last === k - 1 && pending === k
    if (adjacent) out += gapBefore(k) + existing.slice(units[k]!.start, units[k]!.end)
    else {
      for (const part of trivia(pending, k + 1, false)) add(part)
      add(existing.slice(units[k]!.start, units[k]!.end))
    }
    pending = k + 1
    last = k
  })
  flush()
  if (last !== undefined && last === units.length - 1 && pending === units.length)
    out += existing.slice(units.length ? units[units.length - 1]!.end : originalHeadEnd)
  else {
    for (const part of trivia(pending, units.length, true)) add(part)
    out = out.replace(/\s+$/, '') + eol
  }
  // Read back, it must say what the page says: its title, frontmatter and blocks.
  let read: MarkdownSource
  try {
    read = readGitbookSource(out)
  } catch {
    return undefined
  }
  const says =
    read.title === fresh.title &&
    withoutTitle(read.frontmatter) === withoutTitle(fresh.frontmatter) &&
    JSON.stringify(blockSums(read.document.nodes, file, root)) === JSON.stringify(wanted)
  return says ? out : undefined
}

/**
 * A changed SUMMARY.md written in its file's style: its title heading and bullet, and the label of
 * every entry whose page and title did not change as the file wrote it (`[~~Old~~ API](api.md)`).
 * Checked like a page: when it does not read as `next`, `next` is written.
 */
export function composeSummary(existing: string, next: string, file: string): string {
  const dir = dirname(file)
  const key = (entry: SummaryEntry) => {
    const target = entry.link === undefined ? undefined : resolveLink(dir, dir, entry.link)
    return `${target ? `${target.path}#${target.anchor ?? ''}` : (entry.link ?? '')}\0${entry.title}`
  }
  let out: string
  try {
    out = writeSummary(parseSummary(next), summaryStyle(existing, key))
  } catch {
    return next
  }
  return sameMeaning(file, out, next, '', true) ? out : next
}
