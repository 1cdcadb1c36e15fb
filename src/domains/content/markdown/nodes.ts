import type { DocBlock, DocInline, DocLeaf, DocNode, DocText, JsonObject } from '../document.js'

/**
 * Builders for the document nodes the markdown conversion produces, and the one place that
 * decides the canonical shape of inline content (so parsing and the tests' identity checks agree).
 */

/** Marks the conversion knows, in the order a leaf lists them (a fixed order makes leaves comparable). */
export const MARKS = ['bold', 'italic', 'strikethrough', 'code'] as const
export type MarkType = (typeof MARKS)[number]

export interface BuildContext {
  newKey?: () => string
}

/** A block, with a key only when the caller asked for keys (`newKey`). */
export function block(ctx: BuildContext, type: string, fields: Omit<DocBlock, 'object' | 'type' | 'key'>): DocBlock {
  const out: DocBlock = { object: 'block', type }
  if (ctx.newKey) out.key = ctx.newKey()
  return Object.assign(out, fields)
}

export function leaf(text: string, marks: Iterable<string> = []): DocLeaf {
  const set = new Set(marks)
  return { object: 'leaf', text, marks: MARKS.filter((m) => set.has(m)).map((type) => ({ object: 'mark', type })) }
}

export const markTypes = (l: DocLeaf): string[] => l.marks.map((m) => m.type)

const sameMarks = (a: DocLeaf, b: DocLeaf) => markTypes(a).join() === markTypes(b).join()

/** A piece of inline content before normalization: a leaf, or an inline node (link, image). */
export type Piece = DocLeaf | DocInline

/**
 * The canonical inline content of a block: consecutive leaves in one text node, adjacent leaves
 * with the same marks merged, empty leaves dropped; content with no text at all keeps one empty
 * text (the editor needs a text to put the caret in, and the schema allows an empty leaf).
 */
export function inlineNodes(pieces: Piece[]): (DocText | DocInline)[] {
  const out: (DocText | DocInline)[] = []
  let leaves: DocLeaf[] = []
  const flush = () => {
    if (leaves.length) out.push({ object: 'text', leaves })
    leaves = []
  }
  for (const piece of pieces) {
    if (piece.object === 'inline') {
      flush()
      out.push(piece)
      continue
    }
    if (piece.text === '') continue
    const last = leaves[leaves.length - 1]
    if (last && sameMarks(last, piece)) leaves[leaves.length - 1] = { ...last, text: last.text + piece.text }
    else leaves.push(piece)
  }
  flush()
  return out.length ? out : [{ object: 'text', leaves: [leaf('')] }]
}

export const paragraph = (ctx: BuildContext, pieces: Piece[]): DocBlock => block(ctx, 'paragraph', { data: {}, nodes: inlineNodes(pieces) })

/** The text of a node and everything under it (leaves, in order). */
export function nodeText(node: DocNode): string {
  if (node.object === 'text') return node.leaves.map((l) => l.text).join('')
  return (node.nodes ?? []).map((n) => nodeText(n)).join('')
}

/** Whether a paragraph holds nothing but empty text (markdown has no way to write one). */
export const isEmptyParagraph = (b: DocBlock): boolean => b.type === 'paragraph' && (b.nodes ?? []).every((n) => n.object === 'text' && nodeText(n) === '')

/** Where a block sits, which decides what the official schema lets it hold. */
export type Container = 'document' | 'list-item' | 'blockquote' | 'hint' | 'tabs-item'

const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider']
const ALLOWED: Record<Exclude<Container, 'document'>, ReadonlySet<string>> = {
  // DocumentBlockListItem, DocumentBlockQuote, DocumentBlockHint and DocumentBlockTabsItem's `nodes`,
  // from the official schema (hints and tabs come from markdown extensions: git-sync/gitbook).
  'list-item': new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'table']),
  blockquote: new Set([...ESSENTIALS, 'blockquote']),
  hint: new Set([...ESSENTIALS, 'table', 'embed']),
  'tabs-item': new Set([...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'hint', 'blockquote']),
}

export const allows = (where: Container, type: string): boolean => where === 'document' || ALLOWED[where].has(type)

/** The data of a block as a record (absent data reads as empty). */
export const dataOf = (node: { data?: JsonObject }): JsonObject => node.data ?? {}
