import type { Heading, List, ListItem, PhrasingContent, Root, RootContent } from 'mdast'
import { markdownLibraries, onceLoaded } from '../../content/markdown-libs.js'
import { markdownBudget, withinBudget } from '../../content/markdown/budget.js'

/**
 * SUMMARY.md, the table of contents of GitBook's Git Sync layout: nested lists of
 * `* [Title](path.md)` links give the pages and their order; a `## Heading` starts a group of
 * pages (a `# Heading`, "Table of contents", is a title and no group); a thematic break (`---`)
 * ends a group: the pages after it are top-level pages again (as an untitled part of GitBook's
 * older SUMMARY.md format), so a page after a group stays after it and outside it. Read and
 * written as markdown through remark, never taken apart by hand.
 */

export interface SummaryEntry {
  title: string
  /** The link target as written (relative to SUMMARY.md's folder); undefined for an item without a link. */
  link?: string
  children: SummaryEntry[]
}

export interface SummarySection {
  /** The group's title; undefined for top-level pages (before the first group heading, or after a `---`). */
  group?: string
  entries: SummaryEntry[]
}

// Made on first use: unified and remark load on first use (content/markdown-libs.ts).
const parser = onceLoaded(({ unified, remarkParse, remarkGfm }) => unified().use(remarkParse).use(remarkGfm).use(markdownBudget))
const WRITER_OPTIONS = { bullet: '*', listItemIndent: 'one', emphasis: '*', strong: '*', rule: '-' } as const
const writer = onceLoaded(({ unified, remarkStringify, remarkGfm }) => unified().use(remarkStringify, WRITER_OPTIONS).use(remarkGfm))

/** The text of inline content (marks dropped, code kept as written). */
function textOf(nodes: readonly PhrasingContent[] | readonly RootContent[]): string {
  return nodes
    .map((n) => {
      if (n.type === 'text' || n.type === 'inlineCode') return n.value
      if (n.type === 'break') return ' '
      return 'children' in n ? textOf(n.children as PhrasingContent[]) : ''
    })
    .join('')
}

function entriesOf(list: List): SummaryEntry[] {
  return list.children.map((item: ListItem) => {
    const paragraph = item.children.find((c) => c.type === 'paragraph')
    const link = paragraph?.children.find((c) => c.type === 'link')
    const children = item.children.filter((c): c is List => c.type === 'list').flatMap(entriesOf)
    const title = (link ? textOf(link.children) : paragraph ? textOf(paragraph.children) : '').trim()
    return link ? { title, link: link.url, children } : { title, children }
  })
}

export function parseSummary(markdown: string): SummarySection[] {
  const tree = withinBudget(() => parser().parse(markdown) as Root)
  const sections: SummarySection[] = [{ entries: [] }]
  for (const node of tree.children) {
    if (node.type === 'heading' && node.depth >= 2) sections.push({ group: textOf(node.children).trim(), entries: [] })
    else if (node.type === 'thematicBreak') sections.push({ entries: [] })
    else if (node.type === 'list') sections[sections.length - 1]!.entries.push(...entriesOf(node))
  }
  // A group stays even when empty; top-level runs only when they hold pages.
  return sections.filter((s) => s.group !== undefined || s.entries.length > 0)
}

/** How a SUMMARY.md is written: its title heading (none: `null`), its bullet, and an entry's label as its file wrote it. */
export interface SummaryStyle {
  title?: string | null
  bullet?: '*' | '-' | '+'
  /** The label's markdown to write as it is (`[~~Old~~ API](api.md)`), or undefined to write `[title](link)`. */
  label?: (entry: SummaryEntry) => string | undefined
}

function listOf(entries: readonly SummaryEntry[], style: SummaryStyle): List {
  return {
    type: 'list',
    ordered: false,
    spread: false,
    children: entries.map((e) => {
      const label = style.label?.(e)
      return {
        type: 'listItem',
        spread: false,
        children: [
          {
            type: 'paragraph',
            // A label kept as written goes out as it is (an html node is written verbatim).
            children:
              label !== undefined
                ? [{ type: 'html', value: label }]
                : e.link === undefined
                  ? [{ type: 'text', value: e.title }]
                  : [{ type: 'link', url: e.link, children: [{ type: 'text', value: e.title }] }],
          },
          ...(e.children.length ? [listOf(e.children, style)] : []),
        ],
      }
    }),
  }
}

export function writeSummary(sections: readonly SummarySection[], style: SummaryStyle = {}): string {
  const children: RootContent[] = []
  const title = style.title === undefined ? 'Table of contents' : style.title
  if (title !== null) children.push({ type: 'heading', depth: 1, children: [{ type: 'text', value: title }] } satisfies Heading)
  sections.forEach((section, i) => {
    if (section.group !== undefined) children.push({ type: 'heading', depth: 2, children: [{ type: 'text', value: section.group }] })
    // Top-level pages after a group: a thematic break ends the group first.
    else if (i > 0) children.push({ type: 'thematicBreak' })
    if (section.entries.length) children.push(listOf(section.entries, style))
  })
  const { unified, remarkStringify, remarkGfm } = markdownLibraries.get()
  const out =
    style.bullet && style.bullet !== '*'
      ? unified()
          .use(remarkStringify, { ...WRITER_OPTIONS, bullet: style.bullet })
          .use(remarkGfm)
      : writer()
  return out.stringify({ type: 'root', children })
}

/**
 * The style of a SUMMARY.md: its title heading's text, its bullet, and each entry's label as
 * written, by the entry's target (`dir`: SUMMARY.md's folder, links resolved from it) and title.
 */
export function summaryStyle(markdown: string, key: (entry: SummaryEntry) => string): Required<SummaryStyle> {
  const tree = withinBudget(() => parser().parse(markdown) as Root)
  const labels = new Map<string, string>()
  let bullet: '*' | '-' | '+' | undefined
  const visit = (list: List) => {
    for (const item of list.children) {
      const start = item.position?.start.offset
      const marker = start === undefined ? undefined : markdown[start]
      if (bullet === undefined && (marker === '*' || marker === '-' || marker === '+')) bullet = marker
      const paragraph = item.children.find((c) => c.type === 'paragraph')
      const [entry] = entriesOf({ ...list, children: [item] })
      const at = paragraph?.position
      if (entry && at?.start.offset !== undefined && at.end.offset !== undefined) {
        const text = markdown.slice(at.start.offset, at.end.offset)
        if (!text.includes('\n')) labels.set(key(entry), text)
      }
      for (const child of item.children) if (child.type === 'list') visit(child)
    }
  }
  let title: string | null = null
  for (const node of tree.children) {
    if (node.type === 'list') visit(node)
    if (node.type === 'heading' && node.depth === 1 && title === null) title = textOf(node.children).trim()
  }
  return { title, bullet: bullet ?? '*', label: (entry) => labels.get(key(entry)) }
}
