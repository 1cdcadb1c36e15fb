import type { ReadContext } from '../context.js'
import type { RevisionRow } from '../content/rows.js'
import type { ChangeRequestRow, RequestedReviewerRow, ReviewRow } from './rows.js'
import { emailScopeOfSpace, encodeUser } from '../users/encode.js'
import { isOutdated } from './model.js'

/**
 * A user by id as the API shows one within a space (a user since removed shows as "Unknown user"),
 * without the email for a caller who reads no member's email there (a guest: see encodeUser).
 */
export function userObject(ctx: ReadContext, id: string, space: string) {
  const row = ctx.tx.get('users', id)
  return encodeUser(ctx, row ?? { id, displayName: 'Unknown user', emailVerified: false }, emailScopeOfSpace(ctx, space))
}

export function encodeChangeRequest(ctx: ReadContext, cr: ChangeRequestRow) {
  const location = ctx.urls.api(`/spaces/${cr.space}/change-requests/${cr.id}`)
  return {
    object: 'change-request' as const,
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject ?? '',
    ...(cr.description !== undefined && { description: cr.description }),
    createdBy: userObject(ctx, cr.createdBy, cr.space),
    createdAt: cr.createdAt,
    updatedAt: cr.updatedAt,
    ...(cr.mergedBy !== undefined && { mergedBy: userObject(ctx, cr.mergedBy, cr.space) }),
    ...(cr.mergedAt !== undefined && { mergedAt: cr.mergedAt }),
    space: cr.space,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    ...(cr.revisionMergedAncestor !== undefined && { revisionMergedAncestor: cr.revisionMergedAncestor }),
    ...(cr.revisionMerged !== undefined && { revisionMerged: cr.revisionMerged }),
    comments: cr.comments,
    outdated: isOutdated(ctx, cr),
    urls: { app: ctx.urls.app(`/s/${cr.space}/~/changes/${cr.number}`), location },
  }
}

/** What a merge revision's answer adds: the change request it merged (`mergedFrom`, required by the official shape). */
export function mergedFrom(ctx: ReadContext, rev: RevisionRow): { mergedFrom: ReturnType<typeof encodeChangeRequest> } | undefined {
  if (rev.type !== 'merge' || rev.mergedFrom === undefined) return undefined
  const cr = ctx.tx.get('changeRequests', rev.mergedFrom)
  return cr && { mergedFrom: encodeChangeRequest(ctx, cr) }
}

export function encodeReview(ctx: ReadContext, review: ReviewRow) {
  return {
    object: 'change-request-review' as const,
    id: review.id,
    revision: review.revision,
    reviewer: userObject(ctx, review.reviewer, review.space),
    ...(review.requestedBy !== undefined && { requestedBy: userObject(ctx, review.requestedBy, review.space) }),
    status: review.status,
    outdated: review.outdated,
    createdAt: review.createdAt,
    updatedAt: review.updatedAt,
    urls: { location: ctx.urls.api(`/spaces/${review.space}/change-requests/${review.changeRequest}/reviews/${review.id}`) },
  }
}

export function encodeRequestedReviewer(ctx: ReadContext, row: RequestedReviewerRow) {
  return {
    object: 'change-request-requested-reviewer' as const,
    kind: 'user' as const,
    user: userObject(ctx, row.user, row.space),
    revision: row.revision,
    requestedBy: userObject(ctx, row.requestedBy, row.space),
    createdAt: row.createdAt,
  }
}
