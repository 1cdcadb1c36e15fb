import type { ReadContext } from '../context.js'
import { implement } from '../context.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { RevisionRow } from '../content/rows.js'
import { getSpace } from '../spaces/model.js'
import { getChangeRequest } from '../change-requests/model.js'
import { mainRevision, pagePath, requirePage, requireReadableRevision, requireRevision } from '../content/revision.js'
import { metaLinks } from './locations.js'
import { metaLinksOperations } from './operations.js'

/** The meta links of a page of `rev` (404 when the revision has no such page). */
function pageMetaLinks(ctx: ReadContext, space: SpaceRow, rev: RevisionRow, pageId: string) {
  return metaLinks(ctx, space, pagePath(ctx.tx, rev, requirePage(ctx, rev, pageId)))
}

export const metaLinksHandlers = implement(metaLinksOperations, {
  listRevisionPageMetaLinks: (ctx, { params }) => {
    const space = getSpace(ctx, params.spaceId)
    return pageMetaLinks(ctx, space, requireReadableRevision(ctx, space, params.revisionId), params.pageId)
  },

  listSpacePageMetaLinks: (ctx, { params }) => {
    const space = getSpace(ctx, params.spaceId)
    return pageMetaLinks(ctx, space, mainRevision(ctx, space), params.pageId)
  },

  listChangeRequestPageMetaLinks: (ctx, { params }) => {
    const space = getSpace(ctx, params.spaceId)
    const cr = getChangeRequest(ctx, space.id, params.changeRequestId)
    return pageMetaLinks(ctx, space, requireRevision(ctx, space, cr.revision), params.pageId)
  },
})
