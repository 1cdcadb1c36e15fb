import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import { compareKeys, paginate, type SortKey } from '../../core/paging.js'
import type { ChangeRequestRow } from './rows.js'
import type { ListChangeRequestsQuerySchema, ListOrganizationChangeRequestsQuerySchema } from './schemas.js'

type Query = z.output<typeof ListChangeRequestsQuerySchema>
/** What filters and orders a list, whichever statuses it read. */
type Filters = Omit<Query, 'status'>

/** The filters of a change request list (status, creator, contributor, requested reviewer). */
function matches(ctx: ReadContext, cr: ChangeRequestRow, q: Filters): boolean {
  if (q.creator !== undefined && cr.createdBy !== q.creator) return false
  if (q.contributor !== undefined && !cr.contributors.some((c) => c.user === q.contributor)) return false
  if (q.requestedReviewer !== undefined && !ctx.tx.get('requestedReviewers', `${cr.id}/${q.requestedReviewer}`)) return false
  return true
}

/** One page of change requests, newest first by `orderBy` (ties by number, then id). */
export function pageOfChangeRequests(ctx: ReadContext, rows: ChangeRequestRow[], q: Filters) {
  const keyOf = (cr: ChangeRequestRow): SortKey => [cr[q.orderBy], cr.id]
  const sorted = rows.filter((cr) => matches(ctx, cr, q)).sort((a, b) => compareKeys(keyOf(b), keyOf(a)))
  return paginate(sorted, keyOf, q, 'desc')
}

export const spaceChangeRequests = (ctx: ReadContext, spaceId: string, q: Query) =>
  pageOfChangeRequests(
    ctx,
    ctx.tx.scan('changeRequests', 'bySpaceStatus', `${spaceId}/${q.status}`).map((e) => e.row),
    q,
  )

/** An organization's change requests in the spaces where the caller may read them (a guest sees those of the spaces shared with them). */
export function organizationChangeRequests(ctx: ReadContext, organization: string, q: z.output<typeof ListOrganizationChangeRequestsQuerySchema>) {
  const readable = new Map<string, boolean>()
  // One index read per status asked for (a status named twice is read once).
  const rows = [...new Set(q.status)]
    .flatMap((status) => ctx.tx.scan('changeRequests', 'byOrganizationStatus', `${organization}/${status}`))
    .map((e) => e.row)
    .filter((cr) => {
      let ok = readable.get(cr.space)
      if (ok === undefined) readable.set(cr.space, (ok = ctx.access.can('space', cr.space, 'viewChangeRequests')))
      return ok
    })
  return pageOfChangeRequests(ctx, rows, q)
}
