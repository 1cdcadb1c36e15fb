import type { DocBlock, DocNode, JsonDocument } from '../../content/document.js'
import type { ContentRef } from '../../content/markdown.js'

/**
 * Content references of a document rewritten one by one (links', images' and files' `ref` and
 * `refDark`, table cells and captions included): page and file references become relative links
 * between files of the repository on export, and such links become references again on import.
 * Only the objects on the way to a changed reference are copied.
 */

/** Nodes whose reference may only be a file or a URL (the official schema): a page link stays a URL there. */
export const FILE_OR_URL_ONLY: ReadonlySet<string> = new Set(['image', 'inline-image', 'swagger', 'file'])

export type RefMapper = (ref: ContentRef, nodeType: string) => ContentRef | undefined

function mapNode(node: DocNode, fn: RefMapper): DocNode {
  if (node.object === 'text') return node
  let out: DocNode = node
  const data = node.data as Record<string, unknown> | undefined
  if (data) {
    let next: Record<string, unknown> | undefined
    for (const key of ['ref', 'refDark']) {
      const ref = data[key] as ContentRef | undefined
      if (!ref || typeof ref !== 'object' || typeof ref.kind !== 'string') continue
      const mapped = fn(ref, node.type)
      if (mapped && mapped !== ref) (next ??= { ...data })[key] = mapped
    }
    if (next) out = { ...out, data: next } as DocNode
  }
  if (node.nodes) {
    const nodes = node.nodes.map((n) => mapNode(n, fn))
    if (nodes.some((n, i) => n !== node.nodes![i])) out = { ...out, nodes } as DocNode
  }
  if (node.object === 'block' && node.fragments) {
    const fragments = node.fragments.map((f) => {
      const nodes = f.nodes.map((n) => mapNode(n, fn) as DocBlock)
      return nodes.some((n, i) => n !== f.nodes[i]) ? { ...f, nodes } : f
    })
    if (fragments.some((f, i) => f !== node.fragments![i])) out = { ...out, fragments } as DocNode
  }
  return out
}

export function mapRefs(document: JsonDocument, fn: RefMapper): JsonDocument {
  const nodes = document.nodes.map((n) => mapNode(n, fn) as DocBlock)
  return nodes.some((n, i) => n !== document.nodes[i]) ? { ...document, nodes } : document
}

/** Every reference of a document (for the assets an import needs). */
export function eachRef(document: JsonDocument, visit: (ref: ContentRef, nodeType: string) => void): void {
  mapRefs(document, (ref, type) => {
    visit(ref, type)
    return undefined
  })
}

/** The document with a new `key` on every block (fragments' blocks included), as an edit would give. */
export function withBlockKeys(document: JsonDocument, newKey: () => string): JsonDocument {
  const visit = (node: DocNode): DocNode => {
    if (node.object !== 'block') return node.object === 'inline' && node.nodes ? ({ ...node, nodes: node.nodes.map(visit) } as DocNode) : node
    return {
      ...node,
      key: newKey(),
      ...(node.nodes && { nodes: node.nodes.map(visit) }),
      ...(node.fragments && { fragments: node.fragments.map((f) => ({ ...f, nodes: f.nodes.map((b) => visit(b) as DocBlock) })) }),
    } as DocNode
  }
  return { ...document, nodes: document.nodes.map((b) => visit(b) as DocBlock) }
}
