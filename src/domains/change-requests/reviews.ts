import type { Context } from '../../core/context.js'
import { ApiError } from '../../core/errors.js'
import type { ChangeRequestRow, MergeRules, ReviewRow, SpaceRow } from '../../storage/schema.js'

/** The merge rules in force on a space: its own, or its organization's when it inherits. */
export function effectiveMergeRules(ctx: Context, space: SpaceRow): MergeRules {
  if (space.mergeRules.type !== 'inherit') return space.mergeRules
  return ctx.tx.get('organizations', space.organization)?.mergeRules ?? { type: 'none' }
}

/** Each reviewer's latest review of a change request (outdated ones are superseded). */
export function latestReviews(ctx: Context, cr: ChangeRequestRow): Map<string, ReviewRow> {
  const out = new Map<string, ReviewRow>()
  for (const { row } of ctx.tx.scan('reviews', 'byChangeRequest', cr.id)) out.set(row.reviewer, row)
  return out
}

/**
 * `require_specific_reviewers`: every listed user's latest review must be an approval before the
 * change request merges (admins are not exempt). A 403 names who has yet to approve.
 */
export function requireMergeRules(ctx: Context, space: SpaceRow, cr: ChangeRequestRow): void {
  const rules = effectiveMergeRules(ctx, space)
  if (rules.type !== 'rules') return
  const latest = latestReviews(ctx, cr)
  for (const rule of rules.rules) {
    if (rule.rule !== 'require_specific_reviewers') continue
    const missing = rule.users.filter((u) => latest.get(u)?.status !== 'approved')
    if (missing.length > 0) {
      const names = missing.map((u) => `${ctx.tx.get('users', u)?.displayName ?? 'unknown user'} (${u})`)
      throw new ApiError('FORBIDDEN', `Merge rules (require_specific_reviewers): change request #${cr.number} needs the approval of ${names.join(', ')} before it can be merged`)
    }
  }
}

/** Submit a review: the reviewer's earlier reviews become outdated. */
export function submitReview(ctx: Context, cr: ChangeRequestRow, status: ReviewRow['status']): ReviewRow {
  if (cr.status === 'merged' || cr.status === 'archived') throw new ApiError('CONFLICT', `Change request #${cr.number} is ${cr.status}: it can no longer be reviewed`)
  const now = ctx.nowIso()
  for (const { row } of ctx.tx.scan('reviews', 'byChangeRequest', cr.id)) {
    if (row.reviewer === ctx.actor.user && !row.outdated) ctx.tx.update('reviews', { ...row, outdated: true, updatedAt: now })
  }
  const requested = ctx.tx.get('requestedReviewers', `${cr.id}/${ctx.actor.user}`)
  const review: ReviewRow = {
    id: ctx.newId(),
    changeRequest: cr.id,
    space: cr.space,
    reviewer: ctx.actor.user,
    status,
    revision: cr.revision,
    outdated: false,
    createdAt: now,
    updatedAt: now,
  }
  if (requested) review.requestedBy = requested.requestedBy
  return ctx.tx.insert('reviews', review)
}
