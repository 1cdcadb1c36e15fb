import type { Heading, List, ListItem, PhrasingContent, Root, RootContent } from 'mdast'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkStringify from 'remark-stringify'
import { unified } from 'unified'
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

const parser = unified().use(remarkParse).use(remarkGfm).use(markdownBudget)
const writer = unified().use(remarkStringify, { bullet: '*', listItemIndent: 'one', emphasis: '*', strong: '*', rule: '-' }).use(remarkGfm)

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
  const tree = withinBudget(() => parser.parse(markdown) as Root)
  const sections: SummarySection[] = [{ entries: [] }]
  for (const node of tree.children) {
    if (node.type === 'heading' && node.depth >= 2) sections.push({ group: textOf(node.children).trim(), entries: [] })
    else if (node.type === 'thematicBreak') sections.push({ entries: [] })
    else if (node.type === 'list') sections[sections.length - 1]!.entries.push(...entriesOf(node))
  }
  // A group stays even when empty; top-level runs only when they hold pages.
  return sections.filter((s) => s.group !== undefined || s.entries.length > 0)
}

function listOf(entries: readonly SummaryEntry[]): List {
  return {
    type: 'list',
    ordered: false,
    spread: false,
    children: entries.map((e) => ({
      type: 'listItem',
      spread: false,
      children: [
        {
          type: 'paragraph',
          children: e.link === undefined ? [{ type: 'text', value: e.title }] : [{ type: 'link', url: e.link, children: [{ type: 'text', value: e.title }] }],
        },
        ...(e.children.length ? [listOf(e.children)] : []),
      ],
    })),
  }
}

export function writeSummary(sections: readonly SummarySection[]): string {
  const children: RootContent[] = [{ type: 'heading', depth: 1, children: [{ type: 'text', value: 'Table of contents' }] } satisfies Heading]
  sections.forEach((section, i) => {
    if (section.group !== undefined) children.push({ type: 'heading', depth: 2, children: [{ type: 'text', value: section.group }] })
    // Top-level pages after a group: a thematic break ends the group first.
    else if (i > 0) children.push({ type: 'thematicBreak' })
    if (section.entries.length) children.push(listOf(section.entries))
  })
  return writer.stringify({ type: 'root', children })
}
