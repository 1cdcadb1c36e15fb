import { implement } from '../../core/operation.js'
import { mapPage } from '../../core/paging.js'
import { findSite, getSite } from '../sites/model.js'
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

  // A missing or hidden site answers 204 before this runs (`missingIsSuccess`); so do a site of
  // another organization and a link that is not (or no longer) there.
  deleteSiteShareLinkById: (ctx, { params }) => {
    const site = findSite(ctx, params.organizationId, params.siteId)
    const link = site && findShareLink(ctx, site, params.shareLinkId)
    if (link) deleteShareLink(ctx, link)
  },
})
