import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { ChangeRequestRow, RequestedReviewerRow, ReviewRow } from './rows.js'

/**
 * Mark a user's reviews of a change request outdated: the official `outdated` is a review that a
 * newer review request or submission superseded.
 */
function outdateReviews(ctx: Context, cr: ChangeRequestRow, user: string, now: string): void {
  for (const { row } of ctx.tx.scan('reviews', 'byChangeRequest', cr.id)) {
    if (row.reviewer === user && !row.outdated) ctx.tx.update('reviews', { ...row, outdated: true, updatedAt: now })
  }
}

export function requireReviewable(cr: ChangeRequestRow): void {
  if (cr.status === 'merged' || cr.status === 'archived')
    throw new ApiError('CONFLICT', `Change request #${cr.number} is ${cr.status}: it can no longer be reviewed`)
}

/**
 * Ask a member of the organization for a review (again: the request is renewed, on the change
 * request's current revision). Their earlier reviews become outdated: they count again for merge
 * rules once they review anew.
 */
export function requestReview(ctx: Context, cr: ChangeRequestRow, user: string): RequestedReviewerRow {
  const id = `${cr.id}/${user}`
  const now = ctx.nowIso()
  const row: RequestedReviewerRow = { id, changeRequest: cr.id, space: cr.space, user, requestedBy: ctx.actor.user, revision: cr.revision, createdAt: now }
  outdateReviews(ctx, cr, user, now)
  return ctx.tx.get('requestedReviewers', id) ? ctx.tx.update('requestedReviewers', row) : ctx.tx.insert('requestedReviewers', row)
}

/** Submit a review: the reviewer's earlier reviews become outdated. */
export function submitReview(ctx: Context, cr: ChangeRequestRow, status: ReviewRow['status']): ReviewRow {
  requireReviewable(cr)
  const now = ctx.nowIso()
  outdateReviews(ctx, cr, ctx.actor.user, now)
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
