import type { Blockquote, Code, Definition, List, Nodes, Paragraph, RootContent } from 'mdast'
import type { DocBlock } from '../document.js'
import { imageTarget, phrasingPieces, type ParseContext } from './inline-from.js'
import { allows, block, type Container, leaf, nodeText, paragraph } from './nodes.js'
import { imageRef } from './refs.js'
import { tableAsParagraphs, tableFromMdast } from './table.js'

/** mdast block content to document blocks, shaped to what the official schema allows where they sit. */

/** GitHub alert markers and the hint style each becomes (GitHub has five, hints four). */
export const ALERT_STYLES = new Map([
  ['NOTE', 'info'],
  ['TIP', 'success'],
  ['IMPORTANT', 'info'],
  ['WARNING', 'warning'],
  ['CAUTION', 'danger'],
])

/** Every link reference definition, wherever it is (first one wins, as in CommonMark). */
export function collectDefinitions(node: Nodes, into = new Map<string, Definition>()): Map<string, Definition> {
  if (node.type === 'definition' && !into.has(node.identifier)) into.set(node.identifier, node)
  if ('children' in node) for (const child of node.children) collectDefinitions(child, into)
  return into
}

/** Blocks an extension makes of a node (markdown.ts: MarkdownExtensions), or undefined for the shared rules. */
export type BlockExtension = (node: RootContent, ctx: ParseContext, where: Container) => DocBlock[] | undefined

export function blocksFrom(nodes: RootContent[], ctx: ParseContext, where: Container): DocBlock[] {
  return nodes.flatMap((node) => blockFrom(node, ctx, where)).flatMap((b) => fit(b, ctx, where))
}

function blockFrom(node: RootContent, ctx: ParseContext, where: Container): DocBlock[] {
  const own = ctx.extension?.(node, ctx, where)
  if (own) return own
  switch (node.type) {
    case 'paragraph':
      return [paragraphFrom(node, ctx, where)]
    case 'heading':
      // The document has three heading levels; deeper ones become the deepest.
      return [block(ctx, `heading-${Math.min(node.depth, 3)}`, { data: {}, nodes: paragraph({}, phrasingPieces(node.children, ctx)).nodes })]
    case 'thematicBreak':
      return [block(ctx, 'divider', { isVoid: true, data: {} })]
    case 'code':
      return [codeFrom(node, ctx)]
    case 'blockquote':
      return [quoteFrom(node, ctx)]
    case 'list':
      return [listFrom(node, ctx)]
    case 'table':
      return [tableFromMdast(node, ctx)]
    case 'html':
      // Raw HTML stays as the text it is written as (the document has no HTML block).
      return [paragraph(ctx, [leaf(node.value)])]
    case 'footnoteDefinition':
      return blocksFrom(node.children, ctx, where)
    default:
      // definitions (resolved into links), frontmatter (read by the caller), anything unknown.
      return []
  }
}

/** A paragraph of images alone is an `images` block; elsewhere images stay inline. */
function paragraphFrom(node: Paragraph, ctx: ParseContext, where: Container): DocBlock {
  const images = node.children.filter((c) => c.type === 'image' || c.type === 'imageReference')
  const separators = node.children.every(
    (c) => c.type === 'image' || c.type === 'imageReference' || c.type === 'break' || (c.type === 'text' && c.value.trim() === ''),
  )
  if (images.length && separators && allows(where, 'images')) {
    const nodes = images.map((image) => {
      const { url, alt } = imageTarget(image, ctx)
      return block(ctx, 'image', { isVoid: true, data: alt ? { ref: imageRef(url), alt } : { ref: imageRef(url) }, fragments: [] })
    })
    return block(ctx, 'images', { isVoid: false, data: {}, nodes })
  }
  return paragraph(ctx, phrasingPieces(node.children, ctx))
}

function codeFrom(node: Code, ctx: ParseContext): DocBlock {
  const nodes = node.value.split('\n').map((line) => block(ctx, 'code-line', { data: {}, nodes: [{ object: 'text', leaves: [leaf(line)] }] }))
  return block(ctx, 'code', { data: node.lang ? { syntax: node.lang } : {}, nodes })
}

/** A blockquote opening with a GitHub alert marker (`> [!NOTE]`) is a hint. */
function quoteFrom(node: Blockquote, ctx: ParseContext): DocBlock {
  const [first, ...rest] = node.children
  const head = first?.type === 'paragraph' ? first.children[0] : undefined
  const end = head?.type === 'text' && head.value.startsWith('[!') ? head.value.indexOf(']') : -1
  const style = end > 0 && head?.type === 'text' ? ALERT_STYLES.get(head.value.slice(2, end).toUpperCase()) : undefined
  if (!style || first?.type !== 'paragraph' || head?.type !== 'text')
    return block(ctx, 'blockquote', { data: {}, nodes: blocksFrom(node.children, ctx, 'blockquote') })
  const after = head.value.slice(end + 1).trimStart()
  const inline = after ? [{ ...head, value: after }, ...first.children.slice(1)] : first.children.slice(1)
  // The marker alone on its line leaves no first paragraph.
  const children = inline.length ? [{ ...first, children: inline }, ...rest] : rest
  return block(ctx, 'hint', { data: { style }, nodes: blocksFrom(children, ctx, 'hint') })
}

function listFrom(node: List, ctx: ParseContext): DocBlock {
  // GFM task items make a task list; an item with no box there is unchecked.
  const tasks = node.children.some((item) => typeof item.checked === 'boolean')
  const type = tasks ? 'list-tasks' : node.ordered ? 'list-ordered' : 'list-unordered'
  const items = node.children.map((item) => {
    const nodes = blocksFrom(item.children, ctx, 'list-item')
    return block(ctx, 'list-item', { data: tasks ? { checked: item.checked === true } : {}, nodes: nodes.length ? nodes : [paragraph(ctx, [])] })
  })
  const start = node.ordered && !tasks && typeof node.start === 'number' && node.start !== 1 ? { start: node.start } : {}
  return block(ctx, type, { data: start, nodes: items })
}

/** A block where the schema does not allow it, as blocks it allows there (lossy, but valid). */
function fit(b: DocBlock, ctx: ParseContext, where: Container): DocBlock[] {
  if (allows(where, b.type)) return [b]
  const children = (b.nodes ?? []).flatMap((n) => (n.object === 'block' ? [n] : []))
  switch (b.type) {
    case 'code':
      // Code lines as code-marked text, one hard break between lines.
      return [
        paragraph(
          ctx,
          children.flatMap((line, i) => [...(i ? [leaf('\n')] : []), leaf(nodeText(line), ['code'])]),
        ),
      ]
    case 'table':
      return tableAsParagraphs(b, ctx)
    default:
      // blockquote and hint (images are only made where allowed): their content, itself fitted.
      return children.flatMap((child) => fit(child, ctx, where))
  }
}
