import { implement } from '../context.js'
import { mapPage } from '../../core/paging.js'
import { getSite } from '../sites/model.js'
import { encodeShareLink } from './encode.js'
import { createShareLink, deleteShareLink, findShareLink, getShareLink, listShareLinks, updateShareLink } from './model.js'
import { shareLinkOperations } from './operations.js'

/** The share link operations bound to their handlers. */
export const shareLinkHandlers = implement(shareLinkOperations, {
  listSiteShareLinks: (ctx, { params, query }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return mapPage(listShareLinks(ctx, site, query), (e) => encodeShareLink(ctx, site, e.row))
  },

  createSiteShareLink: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return encodeShareLink(ctx, site, createShareLink(ctx, site, body.name))
  },

  updateSiteShareLinkById: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return encodeShareLink(ctx, site, updateShareLink(ctx, getShareLink(ctx, site, params.shareLinkId), body))
  },

  // The site must be there (404); a link that is not (or no longer) in it answers 204.
  deleteSiteShareLinkById: (ctx, { params }) => {
    const link = findShareLink(ctx, getSite(ctx, params.organizationId, params.siteId), params.shareLinkId)
    if (link) deleteShareLink(ctx, link)
  },
})
