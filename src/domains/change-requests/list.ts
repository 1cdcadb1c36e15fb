import type { z } from 'zod'
import type { Context } from '../../core/context.js'
import { compareKeys, paginate, type SortKey } from '../../core/paging.js'
import type { ChangeRequestRow } from '../../storage/schema.js'
import type { ListChangeRequestsQuerySchema } from './schemas.js'

type Query = z.output<typeof ListChangeRequestsQuerySchema>

/** The filters of a change request list (status, creator, contributor, requested reviewer). */
function matches(ctx: Context, cr: ChangeRequestRow, q: Query): boolean {
  if (q.creator !== undefined && cr.createdBy !== q.creator) return false
  if (q.contributor !== undefined && !cr.contributors.some((c) => c.user === q.contributor)) return false
  if (q.requestedReviewer !== undefined && !ctx.tx.get('requestedReviewers', `${cr.id}/${q.requestedReviewer}`)) return false
  return true
}

/** One page of change requests, newest first by `orderBy` (ties by number, then id). */
export function pageOfChangeRequests(ctx: Context, rows: ChangeRequestRow[], q: Query) {
  const keyOf = (cr: ChangeRequestRow): SortKey => [cr[q.orderBy], cr.id]
  const sorted = rows.filter((cr) => matches(ctx, cr, q)).sort((a, b) => compareKeys(keyOf(b), keyOf(a)))
  return paginate(sorted, keyOf, q, 'desc')
}

export const spaceChangeRequests = (ctx: Context, spaceId: string, q: Query) =>
  pageOfChangeRequests(
    ctx,
    ctx.tx.scan('changeRequests', 'bySpaceStatus', `${spaceId}/${q.status}`).map((e) => e.row),
    q,
  )

/** An organization's change requests in the spaces where the caller may read them (a guest sees those of the spaces shared with them). */
export function organizationChangeRequests(ctx: Context, organization: string, q: Query) {
  const readable = new Map<string, boolean>()
  const rows = ctx.tx
    .scan('changeRequests', 'byOrganizationStatus', `${organization}/${q.status}`)
    .map((e) => e.row)
    .filter((cr) => {
      let ok = readable.get(cr.space)
      if (ok === undefined) readable.set(cr.space, (ok = ctx.access.can('space', cr.space, 'viewChangeRequests')))
      return ok
    })
  return pageOfChangeRequests(ctx, rows, q)
}
