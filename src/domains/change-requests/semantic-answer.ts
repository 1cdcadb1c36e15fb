import type { ReadContext } from '../context.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { ChangeRequestRow } from './rows.js'
import { emptyRevision, findRevision, requireReadableRevision, requireRevision } from '../content/revision.js'
import { getSpace } from '../spaces/model.js'
import { mergedFrom } from './encode.js'
import { baseRevisionOf } from './model.js'
import { semanticChanges } from './semantic-changes.js'

/**
 * What a change request changes: its content against the revision of main it is based on (the
 * one it was opened from, or last updated from main to), so main's own changes since never show.
 */
export function changeRequestChanges(ctx: ReadContext, cr: ChangeRequestRow, limit: number) {
  const space = getSpace(ctx, cr.space)
  const after = requireRevision(ctx, space, cr.revision)
  const baseId = baseRevisionOf(cr)
  const before = findRevision(ctx.tx, space, baseId) ?? emptyRevision(space, baseId)
  return semanticChanges(ctx, { before, after }, limit)
}

/**
 * What a revision changed against its first parent (main before it, for a merge: what the merge
 * brought); a space's first revision has none, and everything in it is created. A merge revision
 * names the change request it merged (`mergedFrom`).
 */
export function revisionChanges(ctx: ReadContext, space: SpaceRow, revisionId: string, limit: number) {
  const after = requireReadableRevision(ctx, space, revisionId)
  const parentId = after.parents[0]
  const before = parentId === undefined ? emptyRevision(space, '') : (findRevision(ctx.tx, space, parentId) ?? emptyRevision(space, parentId))
  return { ...mergedFrom(ctx, after), ...semanticChanges(ctx, { before, after }, limit) }
}
