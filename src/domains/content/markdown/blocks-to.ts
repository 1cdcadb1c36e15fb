import type { BlockContent, ListItem, PhrasingContent } from 'mdast'
import type { DocBlock, DocNode } from '../document.js'
import { phrasing } from './inline-to.js'
import { dataOf, isEmptyParagraph, nodeText } from './nodes.js'
import { refUrl } from './refs.js'
import { tableToMdast } from './table.js'

/** Document blocks to mdast block content (the inverse of blocks-from, see there). */

export interface SerializeOptions {
  /** A file's name, for the link a `file` block is written as (the file id when unknown). */
  fileName?: (file: string) => string | undefined
  /** mdast for a block, before the shared rules (a writer with more syntax); undefined leaves the block to them. */
  block?: (b: DocBlock, opts: SerializeOptions) => BlockContent[] | undefined
}

/** Hint styles as GitHub alert markers (the inverse of ALERT_STYLES for the four styles). */
const ALERT_MARKERS: Record<string, string> = { info: 'NOTE', success: 'TIP', warning: 'WARNING', danger: 'CAUTION' }

const childBlocks = (b: DocBlock): DocBlock[] => (b.nodes ?? []).flatMap((n) => (n.object === 'block' ? [n] : []))

export function blocksTo(blocks: DocNode[], opts: SerializeOptions): BlockContent[] {
  return blocks.flatMap((b) => (b.object === 'block' ? blockTo(b, opts) : []))
}

function blockTo(b: DocBlock, opts: SerializeOptions): BlockContent[] {
  const own = opts.block?.(b, opts)
  if (own) return own
  const data = dataOf(b)
  switch (b.type) {
    case 'paragraph':
      // Markdown has no empty paragraph: one with no text is not written.
      return isEmptyParagraph(b) ? [] : [{ type: 'paragraph', children: phrasing(b.nodes ?? []) }]
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return [{ type: 'heading', depth: Number(b.type.slice(-1)) as 1 | 2 | 3, children: phrasing(b.nodes ?? [], true) }]
    case 'divider':
      return [{ type: 'thematicBreak' }]
    case 'code': {
      const value = childBlocks(b).map(nodeText).join('\n')
      return [{ type: 'code', lang: typeof data.syntax === 'string' && data.syntax ? data.syntax : null, meta: null, value }]
    }
    case 'blockquote':
      return [{ type: 'blockquote', children: blocksTo(b.nodes ?? [], opts) }]
    case 'hint':
      return [hintTo(b, opts)]
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks': {
      const ordered = b.type === 'list-ordered'
      const start = ordered && typeof data.start === 'number' ? data.start : ordered ? 1 : null
      const children = childBlocks(b).map((item) => listItemTo(item, b.type === 'list-tasks', opts))
      return [{ type: 'list', ordered, start, spread: false, children }]
    }
    case 'list-item':
      return blocksTo(b.nodes ?? [], opts)
    case 'images':
    case 'image': {
      const images = b.type === 'image' ? [b] : childBlocks(b)
      // Images separated by a space, so the paragraph still reads as images alone.
      const children = images.flatMap((image, i): PhrasingContent[] => [
        ...(i ? [{ type: 'text' as const, value: ' ' }] : []),
        { type: 'image', url: refUrl(dataOf(image).ref), title: null, alt: String(dataOf(image).alt ?? '') },
      ])
      return children.length ? [{ type: 'paragraph', children }] : []
    }
    case 'file': {
      // A file block is a link to the file alone in its paragraph (read back as that link).
      const ref = dataOf(b).ref as { file?: string } | undefined
      const name = (ref?.file && opts.fileName?.(ref.file)) || ref?.file || 'file'
      return [{ type: 'paragraph', children: [{ type: 'link', url: refUrl(ref), title: null, children: [{ type: 'text', value: name }] }] }]
    }
    case 'table':
      return [tableToMdast(b)]
    default: {
      // Blocks markdown has no syntax for: their content, so no text is lost.
      const nodes = [...(b.nodes ?? []), ...(b.fragments ?? []).flatMap((f) => f.nodes)]
      if (nodes.some((n) => n.object === 'block')) return blocksTo(nodes, opts)
      return nodes.length && nodeText(b) ? [{ type: 'paragraph', children: phrasing(nodes) }] : []
    }
  }
}

function listItemTo(item: DocBlock, task: boolean, opts: SerializeOptions): ListItem {
  const checked = task ? dataOf(item).checked === true : null
  return { type: 'listItem', spread: false, checked, children: blocksTo(item.type === 'list-item' ? (item.nodes ?? []) : [item], opts) }
}

/**
 * A hint as a GitHub alert: `> [!NOTE]` then its content. The marker is raw (an `html` node), as
 * text it would be escaped (`\[!NOTE]`) and GitHub would no longer see an alert.
 */
function hintTo(b: DocBlock, opts: SerializeOptions): BlockContent {
  const marker = `[!${ALERT_MARKERS[String(dataOf(b).style)] ?? 'NOTE'}]`
  const children = blocksTo(b.nodes ?? [], opts)
  const [first, ...rest] = children
  if (first?.type === 'paragraph') {
    return { type: 'blockquote', children: [{ type: 'paragraph', children: [{ type: 'html', value: `${marker}\n` }, ...first.children] }, ...rest] }
  }
  return { type: 'blockquote', children: [{ type: 'paragraph', children: [{ type: 'html', value: marker }] }, ...children] }
}
