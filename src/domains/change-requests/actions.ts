import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { ChangeRequestRow } from './rows.js'
import type { RevisionRow } from '../content/rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import { requireRevision } from '../content/revision.js'
import { getSpace } from '../spaces/model.js'
import { mergeRevisions, type MergeConflict } from './merge.js'
import { baseRevisionOf, countTransition, requireEditable, requireUnlocked } from './model.js'
import { requireMergeRules } from './merge-rules.js'

export type MergeAnswer = { result: 'merge' | 'update' | 'conflicts'; revision: string; conflicts?: MergeConflict[] }

/** Write a merge result as a revision: a fast-forward shares the change request's content as it is. */
function commit(
  ctx: Context,
  result: Extract<ReturnType<typeof mergeRevisions>, { ok: true }>,
  meta: Pick<RevisionRow, 'type' | 'parents'> & { mergedFrom?: string; changeRequest?: string },
): RevisionRow {
  if (result.fastForward) {
    const src = result.fastForward
    const row: RevisionRow = { ...src, id: ctx.newId(), type: meta.type, parents: meta.parents, createdAt: ctx.nowIso() }
    // The change request's revision becomes main's: no longer work in progress.
    delete row.mergedFrom
    delete row.changeRequest
    if (meta.mergedFrom !== undefined) row.mergedFrom = meta.mergedFrom
    if (meta.changeRequest !== undefined) row.changeRequest = meta.changeRequest
    return ctx.tx.insert('revisions', row)
  }
  return result.draft.commit(meta)
}

/**
 * Merge a change request into main: a three-way merge of its base, main and its content. Main
 * becomes a `merge` revision (parents: main before, the change request's revision); the change
 * request is `merged`. Conflicts leave everything as it was and are answered as `conflicts`.
 */
export function mergeChangeRequest(ctx: Context, cr: ChangeRequestRow): MergeAnswer {
  if (cr.status === 'merged') throw new ApiError('CONFLICT', `Change request #${cr.number} is already merged`)
  requireEditable(cr)
  const space = getSpace(ctx, cr.space)
  requireUnlocked(space)
  requireMergeRules(ctx, space, cr)
  const main = requireRevision(ctx, space, space.revision)
  const result = mergeRevisions(ctx, requireRevision(ctx, space, baseRevisionOf(cr)), main, requireRevision(ctx, space, cr.revision))
  if (!result.ok) return { result: 'conflicts', revision: main.id, conflicts: result.conflicts }
  // A space's first (empty) revision is not stored until main moves past it: change requests may still name it.
  if (!ctx.tx.get('revisions', main.id)) ctx.tx.insert('revisions', main)
  const merged = commit(ctx, result, { type: 'merge', parents: [main.id, cr.revision], mergedFrom: cr.id })
  const now = ctx.nowIso()
  ctx.tx.update('spaces', { ...(ctx.tx.get('spaces', space.id) as SpaceRow), revision: merged.id, updatedAt: now })
  countTransition(ctx, space.id, cr.status, 'merged')
  ctx.tx.update('changeRequests', { ...cr, status: 'merged', revisionMerged: merged.id, mergedBy: ctx.actor.user, mergedAt: now, updatedAt: now })
  return { result: 'merge', revision: merged.id }
}

/** Bring main's changes into the change request (a rebase by three-way merge): its base becomes main. */
export function updateFromMain(ctx: Context, cr: ChangeRequestRow): MergeAnswer {
  requireEditable(cr)
  const space = getSpace(ctx, cr.space)
  // It rewrites the change request's content: a content edit, refused on a locked space.
  requireUnlocked(space)
  const main = requireRevision(ctx, space, space.revision)
  if (baseRevisionOf(cr) === main.id) return { result: 'update', revision: cr.revision }
  const result = mergeRevisions(ctx, requireRevision(ctx, space, baseRevisionOf(cr)), main, requireRevision(ctx, space, cr.revision))
  if (!result.ok) return { result: 'conflicts', revision: cr.revision, conflicts: result.conflicts }
  const updated = commit(ctx, result, { type: 'update', parents: [cr.revision, main.id], changeRequest: cr.id })
  ctx.tx.update('changeRequests', { ...cr, revision: updated.id, revisionMergedAncestor: main.id, updatedAt: ctx.nowIso() })
  return { result: 'update', revision: updated.id }
}
