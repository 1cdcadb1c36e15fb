import { implement } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { NO_CONTENT } from '../../core/operation.js'
import { mapPage } from '../../core/paging.js'
import { getSite } from '../sites/model.js'
import { bulkUpsert } from './bulk.js'
import { encodeRedirect } from './encode.js'
import { createRedirect, deleteRedirect, findRedirect, getRedirect, listRedirects, updateRedirect } from './model.js'
import { siteRedirectOperations } from './operations.js'
import { matchSiteRedirect, siteRedirectTarget } from './resolve.js'

/** The site redirect operations bound to their handlers. */
export const siteRedirectHandlers = implement(siteRedirectOperations, {
  listSiteRedirects: (ctx, { params, query }) => mapPage(listRedirects(ctx, getSite(ctx, params.organizationId, params.siteId), query), encodeRedirect),

  createSiteRedirect: (ctx, { params, body }) => encodeRedirect(createRedirect(ctx, getSite(ctx, params.organizationId, params.siteId), body)),

  bulkUpsertSiteRedirects: (ctx, { params, body }) => ({ results: bulkUpsert(ctx, getSite(ctx, params.organizationId, params.siteId), body.redirects) }),

  updateSiteRedirectById: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return encodeRedirect(updateRedirect(ctx, site, getRedirect(ctx, site, params.siteRedirectId), body))
  },

  // The site must be there (404); a redirect that is not (or no longer) in it answers 204.
  deleteSiteRedirectById: (ctx, { params }) => {
    const row = findRedirect(ctx, getSite(ctx, params.organizationId, params.siteId), params.siteRedirectId)
    if (!row) return NO_CONTENT
    deleteRedirect(ctx, row)
  },

  // A redirect whose destination is gone (its page deleted, its site-space removed) leads nowhere: 404 as well.
  getSiteRedirectBySource: (ctx, { params, query }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const match = matchSiteRedirect(ctx.tx, site.id, query.source)
    const target = match && siteRedirectTarget(ctx, site, match)
    if (!match || target === undefined) throw new ApiError('NOT_FOUND', 'No redirect for this source')
    return { redirect: encodeRedirect(match.row), target }
  },
})
