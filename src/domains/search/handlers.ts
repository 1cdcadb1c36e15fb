import { implement } from '../context.js'
import { searchOrganization, searchSpace } from './model.js'
import { searchOperations } from './operations.js'
import { prewarmSite, searchSite } from './site-search.js'

/** The search operations bound to their handlers. */
export const searchHandlers = implement(searchOperations, {
  searchSpaceContent: (ctx, { params, query }) => searchSpace(ctx, params.spaceId, query),
  searchOrganizationContent: (ctx, { params, query }) => searchOrganization(ctx, params.organizationId, query),
  searchSiteContent: (ctx, { params, query, body }) => searchSite(ctx, params.organizationId, params.siteId, body, query),
  prewarmSiteSearch: (ctx, { params }) => prewarmSite(ctx, params.organizationId, params.siteId),
})
