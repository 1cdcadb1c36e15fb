import type { ReadTx } from '../../storage/port.js'
import type { AppSchema } from '../schema.js'
import type { DocBlock, DocFragment, DocNode, JsonDocument } from './document.js'
import type { RevisionRow } from './rows.js'
import { EXPANDABLE_BODY } from './document-schema/blocks.js'
import { reusableContentIn } from './reusable.js'

/**
 * A document with its reusable contents dereferenced (the official `dereferenced=true` or
 * `reusable-contents`): each `reusable-content` block naming a reusable content of the revision
 * is replaced by that content's blocks, as GitBook's API does since its renderer stopped resolving
 * them itself (GitBook Open's ReusableContent.tsx: "Reusable content should be handled at the API
 * level"). Nested reusable contents are dereferenced too.
 *
 * A block is left as stored, for the reader to resolve (the renderer then shows nothing for it),
 * when what it names cannot be inlined: a reusable content the revision does not hold (deleted,
 * or never there), one of another space, one already being inlined (a cycle), one whose blocks
 * may not stand where the block stands (an expandable's body takes fewer kinds of blocks than a
 * page), or beyond the budget below. So the answer always follows the official document schema.
 *
 * Copy-on-write: a document without reusable content blocks comes back as the same object.
 */

/** At most this many blocks are inlined per document, and at most this many blocks in all: an answer stays bounded whatever the references. */
export const MAX_DEREFERENCED = 100
export const MAX_INLINED_BLOCKS = 10_000

/** The blocks an expandable's body may hold: a reusable content is inlined there only when all its blocks are among them. */
const EXPANDABLE_BODY_BLOCKS: ReadonlySet<string> = new Set(EXPANDABLE_BODY)

export function dereferenceReusableContents(tx: ReadTx<AppSchema>, rev: RevisionRow, document: JsonDocument): JsonDocument {
  if (!rev.reusableContents) return document
  const budget = { expansions: MAX_DEREFERENCED, blocks: MAX_INLINED_BLOCKS }
  const stack = new Set<string>()

  /** The blocks standing for `nodes` (undefined for any: top-level blocks), their reusable contents inlined. */
  const mapNodes = (nodes: readonly DocNode[], allowed: ReadonlySet<string> | undefined): DocNode[] => {
    let out: DocNode[] | undefined
    nodes.forEach((node, i) => {
      const next = mapNode(node, allowed)
      if (next.length === 1 && next[0] === node) {
        out?.push(node)
        return
      }
      out ??= nodes.slice(0, i)
      out.push(...next)
    })
    return out ?? (nodes as DocNode[])
  }

  const mapNode = (node: DocNode, allowed: ReadonlySet<string> | undefined): DocNode[] => {
    if (node.object !== 'block') return [node]
    if (node.type === 'reusable-content') return inline(node, allowed) ?? [node]
    // The blocks that may hold a reusable content block: an `if` (top-level blocks), an expandable (its body).
    if (node.type === 'if' && node.nodes) {
      const nodes = mapNodes(node.nodes as DocNode[], undefined)
      return nodes === node.nodes ? [node] : [{ ...node, nodes } as DocBlock]
    }
    if (node.type === 'expandable' && node.fragments) {
      let changed = false
      const fragments = node.fragments.map((f): DocFragment => {
        if (f.fragment !== 'expandable-body') return f
        const nodes = mapNodes(f.nodes, EXPANDABLE_BODY_BLOCKS)
        // A body must hold a block: an empty reusable content leaves the block in place there.
        if (nodes === f.nodes || nodes.length === 0) return f
        changed = true
        return { ...f, nodes: nodes as DocFragment['nodes'] }
      })
      return changed ? [{ ...node, fragments }] : [node]
    }
    return [node]
  }

  /** The blocks a reusable content block stands for, or undefined when it stays as it is. */
  const inline = (block: DocBlock, allowed: ReadonlySet<string> | undefined): DocNode[] | undefined => {
    const ref = (block.data as { ref?: { kind?: unknown; reusableContent?: unknown; space?: unknown } } | undefined)?.ref
    if (!ref || ref.kind !== 'reusable-content' || typeof ref.reusableContent !== 'string') return undefined
    if (ref.space !== undefined && ref.space !== rev.space) return undefined
    const id = ref.reusableContent
    if (stack.has(id) || budget.expansions <= 0) return undefined
    const content = reusableContentIn(tx, rev, id)
    if (!content) return undefined
    const nodes = content.document.nodes as DocNode[]
    if (nodes.length > budget.blocks) return undefined
    if (allowed && !nodes.every((n) => n.object === 'block' && allowed.has(n.type))) return undefined
    budget.expansions--
    budget.blocks -= nodes.length
    stack.add(id)
    try {
      return mapNodes(nodes, allowed)
    } finally {
      stack.delete(id)
    }
  }

  const nodes = mapNodes(document.nodes as DocNode[], undefined)
  return nodes === document.nodes ? document : ({ ...document, nodes } as JsonDocument)
}

/** Whether the official `dereferenced` query asks for reusable contents inlined (`true` dereferences everything, reusable contents included). */
export const dereferencesReusableContents = (dereferenced: 'true' | 'false' | 'reusable-contents' | undefined): boolean =>
  dereferenced === 'true' || dereferenced === 'reusable-contents'
