import { defineOperation } from '../../core/operation.js'
import { listOf, pathParams } from '../common/schemas.js'
import { listQuery } from '../../core/paging.js'
import { SearchPageResultSchema, SearchQuerySchema, SearchSpaceResultSchema, SiteSearchBodySchema } from './schemas.js'

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
  searchSiteContent: defineOperation({
    id: 'searchSiteContent',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/search',
    tag: 'sites',
    summary:
      "Search the main content a site shows the caller (its published site-spaces in the scope; a site token's visitor, those his claims open): spaces ordered by their best page, each with its best pages",
    params: pathParams('organizationId', 'siteId'),
    query: listQuery,
    body: SiteSearchBodySchema,
    bodyRequired: true,
    readOnly: true,
    response: listOf(SearchSpaceResultSchema),
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'site', action: 'search', param: 'siteId' },
  }),
  prewarmSiteSearch: defineOperation({
    id: 'prewarmSiteSearch',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/search/prewarm',
    tag: 'sites',
    summary: 'Build the search indexes of the spaces a site shows the caller, so that the next searches only search (answers once they are ready)',
    params: pathParams('organizationId', 'siteId'),
    readOnly: true,
    status: 204,
    errors: ['NOT_FOUND'],
    permission: { resource: 'site', action: 'search', param: 'siteId' },
  }),
}
