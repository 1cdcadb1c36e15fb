import type { Context } from '../context.js'

/**
 * A space's change requests as the space itself goes (purged) or moves (to another
 * organization). Kept apart from model.ts so the spaces area imports nothing else of this one.
 */

/** Remove every change request of a space being purged, with its reviews and requested reviewers. */
export function removeSpaceChangeRequests(ctx: Context, spaceId: string): void {
  for (const { row } of ctx.tx.scan('changeRequests', 'bySpace', spaceId)) {
    for (const review of ctx.tx.scan('reviews', 'byChangeRequest', row.id)) ctx.tx.delete('reviews', review.row.id)
    for (const requested of ctx.tx.scan('requestedReviewers', 'byChangeRequest', row.id)) ctx.tx.delete('requestedReviewers', requested.row.id)
    ctx.tx.delete('changeRequests', row.id)
  }
}

/**
 * A space moved to another organization takes its change requests along: their `organization`
 * (the organization list's index) follows the space's.
 */
export function moveSpaceChangeRequests(ctx: Context, spaceId: string, organization: string): void {
  for (const { row } of ctx.tx.scan('changeRequests', 'bySpace', spaceId)) {
    if (row.organization !== organization) ctx.tx.update('changeRequests', { ...row, organization })
  }
}
