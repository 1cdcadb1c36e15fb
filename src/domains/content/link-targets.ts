import { linkTargetProblem } from '../common/link-target.js'
import type { DocBlock, DocInline, DocNode, JsonDocument, JsonObject } from './document.js'
import { inlineNodes, leaf, type Piece } from './markdown/nodes.js'

/**
 * The link targets of a document made from markdown (domains/common/link-target.ts says which
 * may be): found, to refuse markdown a request sends, or dropped, from markdown a Git repository
 * holds or that was stored before (a file is no request: its text stays, its unsafe target goes).
 * JSON documents a request sends are checked by their schema (document-schema/common.ts).
 */

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null

/** Where a node of a document points: its data's `url` (embed, integration), its action's, its `ref` and `refDark` when they are URLs. */
function targetsOf(node: DocBlock | DocInline): Array<{ at: 'url' | 'action' | 'ref' | 'refDark'; url: string }> {
  const data = node.data
  if (!data) return []
  const out: Array<{ at: 'url' | 'action' | 'ref' | 'refDark'; url: string }> = []
  if (typeof data.url === 'string') out.push({ at: 'url', url: data.url })
  if (isObject(data.action) && typeof data.action.url === 'string') out.push({ at: 'action', url: data.action.url })
  for (const at of ['ref', 'refDark'] as const) {
    const ref = data[at]
    if (isObject(ref) && ref.kind === 'url' && typeof ref.url === 'string') out.push({ at, url: ref.url })
  }
  return out
}

const unsafe = (node: DocBlock | DocInline) => targetsOf(node).filter((t) => linkTargetProblem(t.url) !== undefined)

/** Every block and inline of a document, fragments included (a document within its limits: the recursion is bounded). */
function* nodesOf(nodes: readonly DocNode[]): Generator<DocBlock | DocInline> {
  for (const node of nodes) {
    if (node.object === 'text') continue
    yield node
    if (node.nodes) yield* nodesOf(node.nodes)
    if (node.object === 'block') for (const f of node.fragments ?? []) yield* nodesOf(f.nodes)
  }
}

/** The first target of the document that may not be one, and why (undefined when every one may). */
export function unsafeLinkTarget(document: JsonDocument): { url: string; problem: string } | undefined {
  for (const node of nodesOf(document.nodes)) {
    for (const { url } of targetsOf(node)) {
      const problem = linkTargetProblem(url)
      if (problem) return { url, problem }
    }
  }
  return undefined
}

/** A text node of `text` (no marks). */
const textOf = (text: string): DocNode => ({ object: 'text', leaves: [leaf(text)] })

/** Inline content made canonical again after links gave way to their text (adjacent texts merged). */
const canonical = (nodes: DocNode[]): DocNode[] => inlineNodes(nodes.flatMap((n): Piece[] => (n.object === 'text' ? n.leaves : [n as DocInline])))

/**
 * The nodes with no unsafe target: a link becomes its text, an inline image its alt text, an
 * image block goes (its caption stays), any other node becomes its URL as text (an embed, a file,
 * a content ref: a paragraph).
 */
function cleaned(nodes: readonly DocNode[], inline: boolean): DocNode[] {
  let changed = false
  const out: DocNode[] = []
  for (const node of nodes) {
    if (node.object === 'text') {
      out.push(node)
      continue
    }
    // An images block loses the images with an unsafe target, and their captions stand after it (alone, when no image is left).
    if (node.object === 'block' && node.type === 'images' && node.nodes?.some((n) => n.object === 'block' && unsafe(n).some((t) => t.at !== 'refDark'))) {
      changed = true
      const dropped = node.nodes.filter((n): n is DocBlock => n.object === 'block' && unsafe(n).some((t) => t.at !== 'refDark'))
      const kept = cleaned(
        node.nodes.filter((n) => !dropped.includes(n as DocBlock)),
        false,
      )
      if (kept.length) out.push({ ...node, nodes: kept })
      out.push(...dropped.flatMap((image) => (image.fragments ?? []).flatMap((f) => cleaned(f.nodes, false))))
      continue
    }
    const bad = unsafe(node)
    const darkOnly = bad.length === 1 && bad[0]!.at === 'refDark'
    let next: DocBlock | DocInline = node
    if (bad.length && !darkOnly) {
      changed = true
      if (node.type === 'link' && bad.every((t) => t.at === 'ref')) out.push(...cleaned(node.nodes ?? [], true))
      else if (node.type === 'inline-image' || node.type === 'image') {
        const alt = node.data?.alt
        if (typeof alt === 'string' && alt !== '' && inline) out.push(textOf(alt))
      } else if (inline) out.push(textOf(bad[0]!.url))
      else
        out.push({ object: 'block', type: 'paragraph', ...(node.key !== undefined && { key: node.key }), data: {}, nodes: [textOf(bad[0]!.url)] } as DocBlock)
      continue
    }
    if (darkOnly) {
      const { refDark: _dark, ...data } = node.data!
      next = { ...node, data }
    }
    if (next.nodes) {
      const kids = cleaned(next.nodes, next.object === 'inline' || next.nodes.some((n) => n.object !== 'block'))
      if (kids !== next.nodes) next = { ...next, nodes: kids } as DocBlock | DocInline
    }
    if (next.object === 'block' && next.fragments) {
      const fragments = next.fragments.map((f) => {
        const kids = cleaned(f.nodes, false) as DocBlock[]
        return kids === f.nodes ? f : { ...f, nodes: kids }
      })
      if (fragments.some((f, i) => f !== (next as DocBlock).fragments![i])) next = { ...next, fragments }
    }
    if (next !== node) changed = true
    out.push(next)
  }
  if (!changed) return nodes as DocNode[]
  return inline ? canonical(out) : out
}

/** The document without a target that may not be one (the same document when it has none). */
export function withoutUnsafeLinks(document: JsonDocument): JsonDocument {
  if (!unsafeLinkTarget(document)) return document
  return { ...document, nodes: cleaned(document.nodes, false) as DocBlock[] }
}
