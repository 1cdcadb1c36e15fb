import type { PhrasingContent } from 'mdast'
import type { DocNode } from '../document.js'
import { dataOf, markTypes } from './nodes.js'
import { refUrl } from './refs.js'

/**
 * A block's inline content to mdast phrasing content. Marks are flat on leaves in the document
 * and nested in markdown, so runs of leaves sharing a mark are wrapped once (`**a *b***`, not
 * `**a*****b***`), which keeps the written markdown short and reading it back exact.
 */

/** Marks that nest (inline code cannot hold anything, so `code` is always innermost). */
const NESTING: Record<string, 'strong' | 'emphasis' | 'delete'> = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' }

interface Item {
  marks: ReadonlySet<string>
  emit: (open: ReadonlySet<string>) => PhrasingContent
}

/** `flat`: where markdown has no line breaks (headings, table cells), a "\n" becomes a space. */
export function phrasing(nodes: DocNode[], flat = false): PhrasingContent[] {
  return nest(items(nodes, flat), new Set())
}

function items(nodes: DocNode[], flat: boolean): Item[] {
  return nodes.flatMap((node): Item[] => {
    if (node.object === 'text') return node.leaves.flatMap((l) => leafItems(l.text, new Set(markTypes(l)), flat))
    if (node.object === 'block') return items(node.nodes ?? [], flat)
    if (node.type === 'link') {
      const children = items(node.nodes ?? [], flat)
      // The marks every part of the link has are written around it, the rest inside.
      const marks = children.length ? new Set([...children[0]!.marks].filter((m) => children.every((c) => c.marks.has(m)))) : new Set<string>()
      const url = refUrl(dataOf(node).ref)
      return [{ marks, emit: (open) => ({ type: 'link', url, title: null, children: nest(children, open) }) }]
    }
    if (node.type === 'inline-image') {
      const data = dataOf(node)
      return [{ marks: new Set(), emit: () => ({ type: 'image', url: refUrl(data.ref), title: null, alt: String(data.alt ?? '') }) }]
    }
    // Inlines markdown has no syntax for (emoji, math, annotations...) keep their text.
    return items(node.nodes ?? [], flat)
  })
}

function leafItems(text: string, marks: ReadonlySet<string>, flat: boolean): Item[] {
  const code = marks.has('code')
  const textItem = (value: string): Item => ({ marks, emit: () => (code ? { type: 'inlineCode', value } : { type: 'text', value }) })
  if (flat) return text ? [textItem(text.replaceAll('\n', ' '))] : []
  const out: Item[] = []
  // A hard break cannot sit inside inline code: it goes between two code spans.
  const breakMarks = new Set([...marks].filter((m) => m !== 'code'))
  text.split('\n').forEach((part, i) => {
    if (i > 0) out.push({ marks: breakMarks, emit: () => ({ type: 'break' }) })
    if (part) out.push(textItem(part))
  })
  return out
}

function nest(list: Item[], open: ReadonlySet<string>): PhrasingContent[] {
  const out: PhrasingContent[] = []
  let i = 0
  while (i < list.length) {
    const item = list[i]!
    const pending = Object.keys(NESTING).filter((m) => item.marks.has(m) && !open.has(m))
    if (!pending.length) {
      out.push(item.emit(open))
      i++
      continue
    }
    // Open the mark that runs furthest, so following leaves share the wrapper.
    let best = pending[0]!
    let end = i
    for (const mark of pending) {
      let j = i
      while (j < list.length && list[j]!.marks.has(mark)) j++
      if (j > end) [best, end] = [mark, j]
    }
    out.push({ type: NESTING[best]!, children: nest(list.slice(i, end), new Set([...open, best])) } as PhrasingContent)
    i = end
  }
  return out
}
