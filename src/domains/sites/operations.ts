import { z } from 'zod'
import { defineOperation } from '../../core/operation.js'
import { listQuery, queryBoolean } from '../../core/paging.js'
import { listOf, pathParams } from '../common/schemas.js'
import { ListSitesQuerySchema, SiteSchema, SiteTypeSchema } from './schemas.js'

const tag = 'sites'
const siteParams = pathParams('organizationId', 'siteId')
/** Reading a site or anything under it: members with a role (POLICY.site). */
export const SITE_VIEW = { resource: 'site', action: 'view', param: 'siteId' } as const
/** Changing a site or anything under it: editors (POLICY.site). */
export const SITE_EDIT = { resource: 'site', action: 'edit', param: 'siteId' } as const

/**
 * The site operations of the table (official operationIds as keys). Creating a site (with its
 * first site-spaces), updating one (with its default site-space or section) and its published
 * profile touch its structure: they are the site-structure area's (site-structure/operations.ts).
 */
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
    summary: 'Delete a site with its sections, groups, site-spaces, share links and redirects (204 also when it does not exist)',
    params: siteParams,
    status: 204,
    errors: ['FORBIDDEN'],
    permission: { ...SITE_EDIT, missingIsSuccess: true },
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
}
