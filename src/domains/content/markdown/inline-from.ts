import type { Definition, Image, ImageReference, Nodes, PhrasingContent, RootContent } from 'mdast'
import type { DocBlock, DocInline } from '../document.js'
import { type BuildContext, type Container, inlineNodes, leaf, type Piece } from './nodes.js'
import { imageRef, linkRef } from './refs.js'

/** mdast phrasing content (text, emphasis, links...) to the pieces of a block's inline content. */

export interface ParseContext extends BuildContext {
  /** Link reference definitions (`[id]: url`), so `[text][id]` resolves like `[text](url)`. */
  definitions: Map<string, Definition>
  /** Blocks an extension makes (blocks-from.ts: BlockExtension); none for plain bodies. */
  extension?: (node: RootContent, ctx: ParseContext, where: Container) => DocBlock[] | undefined
}

const MARK_OF: Partial<Record<Nodes['type'], string>> = { strong: 'bold', emphasis: 'italic', delete: 'strikethrough' }

/** An image's URL and alt, whether written inline or by reference. */
export function imageTarget(node: Image | ImageReference, ctx: ParseContext): { url: string; alt: string } {
  const url = node.type === 'image' ? node.url : (ctx.definitions.get(node.identifier)?.url ?? '')
  return { url, alt: node.alt ?? '' }
}

/** An `inline-image` (an image among text, where an `images` block cannot stand). */
export function inlineImage(url: string, alt: string): DocInline {
  const data: Record<string, unknown> = { ref: imageRef(url) }
  if (alt) data.alt = alt
  return { object: 'inline', type: 'inline-image', data, isVoid: true }
}

export function phrasingPieces(nodes: PhrasingContent[], ctx: ParseContext, marks: ReadonlySet<string> = new Set()): Piece[] {
  return nodes.flatMap((node) => phrasingPiece(node, ctx, marks))
}

function phrasingPiece(node: PhrasingContent, ctx: ParseContext, marks: ReadonlySet<string>): Piece[] {
  switch (node.type) {
    case 'text':
      // A soft line break renders as a space; only hard breaks are kept as "\n".
      return [leaf(node.value.replaceAll('\n', ' '), marks)]
    case 'break':
      return [leaf('\n', marks)]
    case 'inlineCode':
      return [leaf(node.value, [...marks, 'code'])]
    case 'strong':
    case 'emphasis':
    case 'delete':
      return phrasingPieces(node.children, ctx, new Set([...marks, MARK_OF[node.type] as string]))
    case 'link':
    case 'linkReference': {
      const url = node.type === 'link' ? node.url : ctx.definitions.get(node.identifier)?.url
      // A reference with no definition is text in markdown; micromark only makes one when defined.
      if (url === undefined) return phrasingPieces(node.children, ctx, marks)
      return [{ object: 'inline', type: 'link', data: { ref: linkRef(url) }, nodes: inlineNodes(phrasingPieces(node.children, ctx, marks)) }]
    }
    case 'image':
    case 'imageReference': {
      const { url, alt } = imageTarget(node, ctx)
      return [inlineImage(url, alt)]
    }
    case 'html':
      // Raw HTML is kept as the text it is written as (the document has no HTML node).
      return [leaf(node.value, marks)]
    case 'footnoteReference':
      return [leaf(`[^${node.label ?? node.identifier}]`, marks)]
    default:
      return []
  }
}
