import { implement } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { siteCustomizationOf } from './customization.js'
import { replaceSiteCustomization } from './customization-model.js'
import { encodePublishingAuth, publishingAuthRow, regeneratePublishingAuth, updatePublishingAuth } from './publishing-auth.js'
import { mapPage } from '../../core/paging.js'
import { encodeSite } from './encode.js'
import { deleteSite, setPublished } from './lifecycle.js'
import { listSites } from './list.js'
import { findSite, getSite } from './model.js'
import { siteOperations } from './operations.js'

/** The site operations bound to their handlers. */
export const siteHandlers = implement(siteOperations, {
  listSites: (ctx, { params, query }) => {
    // Every member with a role has the same level on every site of the organization.
    const level = ctx.access.level('organization', params.organizationId)
    return mapPage(listSites(ctx, params.organizationId, query), (e) => encodeSite(ctx, e.row, level))
  },

  getSiteById: (ctx, { params }) => encodeSite(ctx, getSite(ctx, params.organizationId, params.siteId)),

  // A missing or hidden site answers 204 before this runs (`missingIsSuccess`); so does one of another organization.
  deleteSiteById: (ctx, { params }) => {
    const site = findSite(ctx, params.organizationId, params.siteId)
    if (site) deleteSite(ctx, site)
  },

  publishSite: (ctx, { params }) => encodeSite(ctx, setPublished(ctx, getSite(ctx, params.organizationId, params.siteId), true)),

  unpublishSite: (ctx, { params }) => encodeSite(ctx, setPublished(ctx, getSite(ctx, params.organizationId, params.siteId), false)),

  getSiteCustomizationById: (ctx, { params }) => siteCustomizationOf(ctx, getSite(ctx, params.organizationId, params.siteId).id),

  updateSiteCustomizationById: (ctx, { params, body }) => replaceSiteCustomization(ctx, getSite(ctx, params.organizationId, params.siteId), body),

  getSitePublishingAuthById: (ctx, { params }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    // Every site has one (made with it, or when loaded): a GET cannot make the key.
    const row = publishingAuthRow(ctx.tx, site.id)
    if (!row) throw new ApiError('NOT_FOUND', 'Site publishing auth not found')
    return encodePublishingAuth(row)
  },

  updateSitePublishingAuthById: (ctx, { params, body }) =>
    encodePublishingAuth(updatePublishingAuth(ctx, getSite(ctx, params.organizationId, params.siteId), body)),

  regenerateSitePublishingAuthById: (ctx, { params }) =>
    encodePublishingAuth(regeneratePublishingAuth(ctx, getSite(ctx, params.organizationId, params.siteId))),
})
