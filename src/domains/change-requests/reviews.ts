import type { Context } from '../../core/context.js'
import { ApiError } from '../../core/errors.js'
import type { ChangeRequestRow, ReviewRow } from '../../storage/schema.js'

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
