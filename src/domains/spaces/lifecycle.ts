import { addDays } from 'date-fns/addDays'
import { produce } from '../common/produce.js'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SpaceRow } from './rows.js'
import { appendPosition } from '../common/sequence.js'
import { removeRow } from '../ownership.js'

/**
 * Delete, restore and purge. A deleted space keeps its row (with `deletedAt`) for the restore
 * window; the indexes drop it from every list at once. Once the window has passed it is gone for
 * good: hidden like a missing space, and removed from the store by a restore attempt or by the
 * next write in its organization (create, delete, duplicate), found through the `deleted` index.
 */

/** The retention and restore window of deleted spaces. */
export const RESTORE_WINDOW_DAYS = 7

/** Whether a deleted space is past its restore window (restorable up to exactly 7 days). */
export function isExpired(ctx: Context, space: SpaceRow): boolean {
  if (!space.deletedAt) return false
  return ctx.now().getTime() > addDays(new Date(space.deletedAt), RESTORE_WINDOW_DAYS).getTime()
}

/**
 * Remove a space and every row of it from the store: what each area declares a space owns
 * (domains/ownership.ts): its grants, site-spaces, content (revisions, page versions, files),
 * change requests (with their reviews and requested reviewers), comments, translations and Git
 * Sync. File bytes stay in the blob port (see content/purge.ts).
 */
export function purgeSpace(ctx: Context, id: string): void {
  removeRow(ctx, 'spaces', id)
}

/**
 * Purge the deleted spaces of an organization whose window has passed. Costs O(spaces deleted in
 * the organization within the window), since older ones were purged by earlier writes.
 */
export function purgeExpiredSpaces(ctx: Context, organization: string): number {
  let n = 0
  for (const { row } of ctx.tx.scan('spaces', 'deleted', organization)) {
    if (isExpired(ctx, row)) {
      purgeSpace(ctx, row.id)
      n++
    }
  }
  return n
}

/** Move a live space to the trash. Its grants and counters stay, for a restore. */
export function deleteSpace(ctx: Context, space: SpaceRow): SpaceRow {
  purgeExpiredSpaces(ctx, space.organization)
  if (space.deletedAt) return space
  return ctx.tx.update('spaces', { ...space, deletedAt: ctx.nowIso() })
}

/**
 * Restore a deleted space within its window (a live space is returned as it is: restoring is
 * idempotent). It goes back to its place; when its collection was deleted or moved to another
 * organization meanwhile, it goes to the end of the organization's root, and an `in-collection`
 * space becomes `private` there (it has no collection to follow any more).
 */
export function restoreSpace(ctx: Context, id: string): SpaceRow {
  const space = ctx.tx.get('spaces', id)
  if (!space) throw new ApiError('NOT_FOUND', 'Space not found')
  // Past the window the space no longer exists: it is purged now, and the 404 keeps that write.
  if (isExpired(ctx, space)) {
    purgeSpace(ctx, space.id)
    throw new ApiError('NOT_FOUND', 'Space not found', { commitWrites: true })
  }
  if (!space.deletedAt) return space
  purgeExpiredSpaces(ctx, space.organization)
  const parent = space.parent === undefined ? undefined : ctx.tx.get('collections', space.parent)
  const orphan = space.parent !== undefined && (!parent || parent.organization !== space.organization)
  const next = produce(space, (draft) => {
    delete draft.deletedAt
    draft.updatedAt = ctx.nowIso()
    if (orphan) {
      delete draft.parent
      draft.position = appendPosition(ctx)
      if (draft.visibility === 'in-collection') draft.visibility = 'private'
    }
  })
  return ctx.tx.update('spaces', next)
}
