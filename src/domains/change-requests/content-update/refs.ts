import type { Context } from '../../context.js'
import { ApiError } from '../../../core/errors.js'
import type { JsonDocument } from '../../content/document.js'
import type { RevisionDraft } from '../../content/draft.js'
import { mapObjects } from '../../content/map-json.js'
import { relativePageTarget } from '../../content/relative-links.js'
import type { ContentChange } from '../schemas.js'
import { field, type BatchRef } from './batch.js'

/** Record a ref of the batch; `at` names the field holding it in the 400 when the batch uses it twice. */
export function claimRef(refs: Map<string, BatchRef>, ref: string, target: BatchRef, at: string): void {
  if (refs.has(ref)) throw new ApiError('BAD_REQUEST', `${at}: "${ref}" is used twice in the batch`)
  refs.set(ref, target)
}

/** An id for each page and reusable content the batch inserts (by the change's index), and their refs. */
export function insertedPageRefs(ctx: Context, changes: readonly ContentChange[], refs: Map<string, BatchRef>): Map<number, string> {
  const pageIds = new Map<number, string>()
  changes.forEach((change, i) => {
    if (change.operation !== 'insert_page' && change.operation !== 'insert_reusable_content') return
    const id = ctx.newId()
    pageIds.set(i, id)
    const target: BatchRef = change.operation === 'insert_page' ? { kind: 'page', page: id } : { kind: 'reusable-content', reusableContent: id }
    if (change.ref !== undefined) claimRef(refs, change.ref, target, field(i, 'ref'))
  })
  return pageIds
}

/** A parent (`into`) is a page id, or the ref of a page inserted earlier in the batch. */
export function pageOfRef(draft: RevisionDraft, refs: ReadonlyMap<string, BatchRef>): (id: string) => string {
  return (id) => {
    const ref = draft.has(id) ? undefined : refs.get(id)
    return ref?.kind === 'page' ? ref.page : id
  }
}

/** Nodes whose reference may only be a file or a URL (images, an OpenAPI file): a page there stays a URL. */
const FILE_OR_URL_REFS: ReadonlySet<string> = new Set(['image', 'inline-image', 'swagger'])

/**
 * A reusable content block naming a reusable content of the batch by its `ref` names its id.
 * Links of the batch to a page or file by its `ref` become page and file references, wherever
 * they are (table cells and captions included), where the node's reference may be of that kind.
 * A relative link to a page file (`usage.md`, `../api.md#setup`: what `format.markdown.refs=relative`
 * writes), from a page whose parent's path is `dir`, becomes a link to the page of the draft at that
 * path (an anchor link with the anchor); one naming no page stays a URL.
 */
export function resolveRefs(
  doc: JsonDocument,
  refs: ReadonlyMap<string, BatchRef>,
  draft: RevisionDraft,
  dir: string,
  linkless?: WeakSet<object>,
): JsonDocument {
  // A document the prepare step found without URL links has nothing to resolve: not walked again.
  if (linkless?.has(doc)) return doc
  const target = (url: unknown): BatchRef | { kind: 'anchor'; anchor: string; page: string } | undefined => {
    if (typeof url !== 'string') return undefined
    const name = url.replace(/^\.\//, '')
    const batch = refs.get(name) ?? refs.get(name.replace(/\.md$/, ''))
    if (batch) return batch.kind === 'reusable-content' ? undefined : batch
    const link = relativePageTarget(dir, url)
    const page = link && draft.byPath(link.path)
    if (!page) return undefined
    return link.anchor === undefined ? { kind: 'page', page } : { kind: 'anchor', anchor: link.anchor, page }
  }
  // Copy-on-write: a document without such links is kept as it is (frozen before the transaction, it is stored without a walk).
  return mapObjects(doc, (obj, children) => {
    const node = obj as { object?: unknown; type?: string; data?: { ref?: { kind?: string; url?: unknown; reusableContent?: unknown } } }
    const ref = node.object === 'block' || node.object === 'inline' ? node.data?.ref : undefined
    // A reusable content block may name a reusable content the batch inserts by its `ref`.
    if (node.type === 'reusable-content' && ref?.kind === 'reusable-content' && typeof ref.reusableContent === 'string') {
      const inserted = refs.get(ref.reusableContent)
      if (inserted?.kind === 'reusable-content') return { ...obj, data: { ...node.data, ref: { ...ref, reusableContent: inserted.reusableContent } } }
    }
    const found = ref?.kind === 'url' ? target(ref.url) : undefined
    const resolved = found && (found.kind === 'file' || !FILE_OR_URL_REFS.has(node.type ?? '')) ? found : undefined
    const out = children(obj)
    return resolved ? { ...out, data: { ...(out.data as object), ref: resolved } } : out
  })
}
