import { defineOperation } from '../../core/operation.js'
import { listOf, pathParams } from '../common/schemas.js'
import { SearchPageResultSchema, SearchQuerySchema, SearchSpaceResultSchema } from './schemas.js'

/** Full-text search of main content (official operationIds). */
export const searchOperations = {
  searchSpaceContent: defineOperation({
    id: 'searchSpaceContent',
    method: 'GET',
    path: '/v1/spaces/{spaceId}/search',
    tag: 'space-content',
    summary: "Search a space's main content: its pages best first, each with its matching sections (pages marked `noIndex` are left out)",
    params: pathParams('spaceId'),
    query: SearchQuerySchema,
    response: listOf(SearchPageResultSchema),
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'space', action: 'view' },
  }),
  searchOrganizationContent: defineOperation({
    id: 'searchOrganizationContent',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/search',
    tag: 'organizations',
    summary:
      "Search the main content of the organization's spaces the caller is a member of (a guest: those he was invited to): spaces ordered by their best page, each with its best pages",
    params: pathParams('organizationId'),
    query: SearchQuerySchema,
    response: listOf(SearchSpaceResultSchema),
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'organization', action: 'search' },
  }),
}
