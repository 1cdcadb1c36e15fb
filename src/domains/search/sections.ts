import type { PageVersionRow } from '../content/rows.js'
import type { DocBlock } from '../content/document.js'
import { blockText } from '../content/markdown.js'
import { slugify, uniqueSlug } from '../content/slug.js'

/**
 * A page's body cut into sections at its headings, as search indexes and answers them. The text
 * before the first heading is a section too (titled with the page's title, addressed by the page
 * itself); each heading opens one, addressed by its anchor: the heading's own id (`meta.id`,
 * `data.id`) or a slug of its text, made unique in the page (`-2`, `-3`...).
 */
export interface PageSection {
  /** `<page id>` for the text before the first heading, `<page id>#<anchor>` for a heading's. */
  id: string
  /** Undefined for the text before the first heading. */
  anchor?: string
  title: string
  /** Plain text, one line per block. */
  text: string
}

const HEADINGS = new Set(['heading-1', 'heading-2', 'heading-3'])

/** The anchor a heading names itself, if any (both places the official schema gives an id). */
function ownAnchor(block: DocBlock): string | undefined {
  const meta = block.meta?.id
  if (typeof meta === 'string' && meta !== '') return meta
  const data = block.data?.id
  return typeof data === 'string' && data !== '' ? data : undefined
}

/** Sections of each page version: versions are immutable, so each is cut once (kept while the row lives). */
const cache = new WeakMap<PageVersionRow, readonly PageSection[]>()

/** The sections of a page version, in document order. Only a heading's section may have no text. */
export function pageSections(page: PageVersionRow): readonly PageSection[] {
  let sections = cache.get(page)
  if (!sections) cache.set(page, (sections = cut(page)))
  return sections
}

function cut(page: PageVersionRow): PageSection[] {
  const out: PageSection[] = []
  const anchors = new Set<string>()
  let current: PageSection = { id: page.page, title: page.title, text: '' }
  const lines: string[] = []
  const close = () => {
    current.text = lines.join('\n')
    lines.length = 0
    if (current.anchor !== undefined || current.text !== '') out.push(current)
  }
  for (const block of page.document.nodes) {
    const text = blockText(block).trim()
    if (!HEADINGS.has(block.type)) {
      if (text !== '') lines.push(text)
      continue
    }
    close()
    const anchor = uniqueSlug(ownAnchor(block) ?? slugify(text || 'section'), anchors)
    anchors.add(anchor)
    current = { id: `${page.page}#${anchor}`, anchor, title: text, text: '' }
  }
  close()
  return out
}
