import { implement } from '../context.js'
import { searchOrganization, searchSpace } from './model.js'
import { searchOperations } from './operations.js'

/** The search operations bound to their handlers. */
export const searchHandlers = implement(searchOperations, {
  searchSpaceContent: (ctx, { params, query }) => searchSpace(ctx, params.spaceId, query),
  searchOrganizationContent: (ctx, { params, query }) => searchOrganization(ctx, params.organizationId, query),
})
