import type { Context } from '../../context.js'
import { ApiError } from '../../../core/errors.js'
import type { RevisionRow } from '../../content/rows.js'
import type { PageData, RevisionDraft } from '../../content/draft.js'
import { findRevision, pageIn, requireRevision } from '../../content/revision.js'
import { uniqueSlug } from '../../content/slug.js'
import { baseRevisionOf } from '../model.js'
import { field, type Batch, type ChangeOf } from './batch.js'
import { place, removeSubtree, unplace } from './tree.js'

/** `revert_page`: the page (or only its blocks listed in `block`) as it is in `revision`, by default the one the change request is based on. */
export function revertPageChange({ ctx, cr, space, draft, now, note }: Batch, change: ChangeOf<'revert_page'>, i: number): void {
  // A revision named in the body is input: one the space lacks is a 400 naming the field.
  const target = change.revision === undefined ? requireRevision(ctx, space, baseRevisionOf(cr)) : findRevision(ctx.tx, space, change.revision)
  if (!target) throw new ApiError('BAD_REQUEST', `${field(i, 'revision')}: no revision "${change.revision}" in the space`)
  if (change.block !== undefined) revertBlocks(ctx, draft, target, change.page, change.block, i, now)
  else revertPage(ctx, draft, target, change.page, i)
  note(draft.has(change.page) ? { object: 'updated_page', page: change.page } : { object: 'deleted_page', page: change.page })
}

/** Put a page back as it is in `target`: restored (with its place) when it was deleted or changed, removed when `target` lacks it. */
function revertPage(ctx: Context, draft: RevisionDraft, target: RevisionRow, pageId: string, i: number): void {
  const before = pageIn(ctx.tx, target, pageId)
  const now = draft.get(pageId)
  if (!before && !now) throw new ApiError('BAD_REQUEST', `${field(i, 'page')}: no page "${pageId}" in the change request or the revision`)
  if (!before) {
    unplace(draft, now!.parent, pageId)
    removeSubtree(draft, pageId)
    return
  }
  // Back under its parent in `target`, unless that page is gone or now below this one (the change
  // request moved it there): then at the root, as a page cannot be its own ancestor.
  const parent = before.parent !== undefined && draft.has(before.parent) && !draft.isWithin(before.parent, pageId) ? before.parent : undefined
  if (now) unplace(draft, now.parent, pageId)
  // Children keep what the change request has (they are pages of their own); the rest comes back.
  const children = now ? now.children : []
  const { id: _version, ...fields } = before
  const restored: PageData = { ...fields, children }
  if (parent === undefined) delete restored.parent
  const taken = draft.takenSlugs(parent, pageId)
  if (taken.has(restored.slug)) restored.slug = uniqueSlug(restored.slug, taken)
  draft.set(pageId, restored)
  const siblings = before.parent === undefined ? target.rootPages : (pageIn(ctx.tx, target, before.parent)?.children ?? [])
  const position = siblings.indexOf(pageId)
  place(draft, parent, pageId, position < 0 ? undefined : position)
}

/**
 * Revert only the listed top-level blocks of a page (by `key`) to what they are in `target`: a
 * block the page has and the target lacks is removed, one the target has and the page lacks is
 * put back, one both have is reset to the target's content and place. A block comes back (or
 * goes back) right after the nearest block before it in the target that the page still holds.
 * The other blocks and the page's metadata stay as they are. A key in neither is a 400.
 */
function revertBlocks(ctx: Context, draft: RevisionDraft, target: RevisionRow, pageId: string, keys: readonly string[], i: number, now: string): void {
  const page = draft.get(pageId)
  if (!page)
    throw new ApiError('BAD_REQUEST', `${field(i, 'page')}: no page "${pageId}" in the change request (a deleted page is reverted whole, without \`block\`)`)
  const targetBlocks = pageIn(ctx.tx, target, pageId)?.document.nodes ?? []
  const byKey = new Map(targetBlocks.flatMap((b) => (b.key === undefined ? [] : [[b.key, b] as const])))
  let blocks = [...page.document.nodes]
  keys.forEach((key, j) => {
    if (!byKey.has(key) && !blocks.some((b) => b.key === key))
      throw new ApiError('BAD_REQUEST', `${field(i, `block[${j}]`)}: no block "${key}" in the page or in the revision it is reverted to`)
  })
  const wanted = new Set(keys)
  blocks = blocks.filter((b) => b.key === undefined || !wanted.has(b.key))
  // Put back the target's blocks, in the target's order, each after its nearest kept predecessor.
  targetBlocks.forEach((block, index) => {
    if (block.key === undefined || !wanted.has(block.key)) return
    let at = 0
    for (let k = index - 1; k >= 0; k--) {
      const before = targetBlocks[k]!.key
      const found = before === undefined ? -1 : blocks.findIndex((b) => b.key === before)
      if (found >= 0) {
        at = found + 1
        break
      }
    }
    blocks.splice(at, 0, block)
  })
  draft.set(pageId, { ...page, document: { ...page.document, nodes: blocks }, updatedAt: now })
}
