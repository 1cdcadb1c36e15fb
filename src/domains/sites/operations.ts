import { z } from 'zod'
import { defineOperation } from '../../core/operation.js'
import { listQuery, queryBoolean } from '../../core/paging.js'
import { listOf, pathParams, ShareKeySchema } from '../common/schemas.js'
import { CreateSiteSchema, ListSitesQuerySchema, PublishedContentSiteSchema, SiteSchema, SiteTypeSchema, UpdateSiteSchema } from './schemas.js'

const tag = 'sites'
const siteParams = pathParams('organizationId', 'siteId')
/** Reading a site or anything under it: members with a role (POLICY.site). */
export const SITE_VIEW = { resource: 'site', action: 'view', param: 'siteId' } as const
/** Changing a site or anything under it: editors (POLICY.site). */
export const SITE_EDIT = { resource: 'site', action: 'edit', param: 'siteId' } as const



/** The site operations of the table (official operationIds as keys). */
export const siteOperations = {
  listSites: defineOperation({
    id: 'listSites',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites',
    tag,
    summary: 'List the sites of an organization in creation order (filters: space, title, published, type)',
    params: pathParams('organizationId'),
    query: listQuery.extend(ListSitesQuerySchema.shape).extend({
      published: queryBoolean.optional().meta({ description: 'Only published (true) or unpublished (false) sites.' }),
      type: z.array(SiteTypeSchema).optional().meta({ description: 'Only sites of these types (repeat the parameter for several).' }),
    }),
    response: listOf(SiteSchema),
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'organization', action: 'listSites' },
  }),
  createSite: defineOperation({
    id: 'createSite',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/sites',
    tag,
    summary: 'Create a site (basic and public by default, unpublished); `spaces` become site-spaces at its root',
    params: pathParams('organizationId'),
    body: CreateSiteSchema,
    response: SiteSchema,
    status: 201,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'createSite' },
  }),
  getSiteById: defineOperation({
    id: 'getSiteById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites/{siteId}',
    tag,
    summary: 'Get a site',
    params: siteParams,
    response: SiteSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: SITE_VIEW,
  }),
  deleteSiteById: defineOperation({
    id: 'deleteSiteById',
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/sites/{siteId}',
    tag,
    summary: 'Delete a site with its sections, groups, site-spaces and share links (204 also when it does not exist)',
    params: siteParams,
    status: 204,
    errors: ['FORBIDDEN'],
    permission: { ...SITE_EDIT, missingIsSuccess: true },
  }),
  updateSiteById: defineOperation({
    id: 'updateSiteById',
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/sites/{siteId}',
    tag,
    summary: "Update a site's title, visibility, basename, hostname, proxy, adaptive content, agents context, default site-space or section",
    params: siteParams,
    body: UpdateSiteSchema,
    bodyRequired: true,
    response: SiteSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
    permission: SITE_EDIT,
  }),
  publishSite: defineOperation({
    id: 'publishSite',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/publish',
    tag,
    summary: 'Publish a site to the audience its visibility defines (idempotent)',
    params: siteParams,
    response: SiteSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SITE_EDIT,
  }),
  unpublishSite: defineOperation({
    id: 'unpublishSite',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/unpublish',
    tag,
    summary: 'Unpublish a site (idempotent)',
    params: siteParams,
    response: SiteSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SITE_EDIT,
  }),
  getPublishedContentSite: defineOperation({
    id: 'getPublishedContentSite',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/published',
    tag,
    summary:
      'The published profile of a site: the site and its visible structure (to members always; to others once published, for public and unlisted sites or with an active share key)',
    params: siteParams,
    query: z.object({ shareKey: ShareKeySchema }),
    response: PublishedContentSiteSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    auth: false,
  }),
}
