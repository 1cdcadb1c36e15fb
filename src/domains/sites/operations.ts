import { z } from 'zod'
import { defineOperation } from '../../core/operation.js'
import { listQuery, queryBoolean } from '../../core/paging.js'
import { listOf, pathParams } from '../common/schemas.js'
import { SiteCustomizationInputSchema, SiteCustomizationSettingsSchema } from './customization-schemas.js'
import { ListSitesQuerySchema, SitePublishingAuthSchema, SitePublishingAuthUpdateSchema, SiteSchema, SiteTypeSchema } from './schemas.js'

const tag = 'sites'
const siteParams = pathParams('organizationId', 'siteId')
/** Reading a site or anything under it: members with a role (POLICY.site). */
export const SITE_VIEW = { resource: 'site', action: 'access', param: 'siteId' } as const
/** Changing a site or anything under it: editors (POLICY.site). */
export const SITE_EDIT = { resource: 'site', action: 'edit', param: 'siteId' } as const
/** A site's visitor authentication, whose key signs visitor tokens: admins of the organization (POLICY.site). */
const SITE_AUTH = { resource: 'site', action: 'managePublishingAuth', param: 'siteId' } as const

/** The deprecated `unmasked` parameter of the customization reads: nothing is masked here, so it changes nothing. */
export const UnmaskedQuerySchema = z.object({
  unmasked: queryBoolean.optional().meta({ description: 'Deprecated; accepted and without effect (nothing is masked).' }),
})

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
  getSiteCustomizationById: defineOperation({
    id: 'getSiteCustomizationById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/customization',
    tag: 'site-customization',
    summary: "A site's customization (the default one until it is first set)",
    params: siteParams,
    query: UnmaskedQuerySchema,
    response: SiteCustomizationSettingsSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: SITE_VIEW,
  }),
  updateSiteCustomizationById: defineOperation({
    id: 'updateSiteCustomizationById',
    method: 'PUT',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/customization',
    tag: 'site-customization',
    summary: "Replace a site's customization (what the body leaves out takes the default)",
    params: siteParams,
    body: SiteCustomizationInputSchema,
    bodyRequired: true,
    response: SiteCustomizationSettingsSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SITE_EDIT,
  }),
  getSitePublishingAuthById: defineOperation({
    id: 'getSitePublishingAuthById',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth',
    tag: 'site-publishing-auth',
    summary: "A site's visitor authentication: its backend, fallback and logout URLs, and the private key signing visitor tokens",
    params: siteParams,
    response: SitePublishingAuthSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SITE_AUTH,
  }),
  updateSitePublishingAuthById: defineOperation({
    id: 'updateSitePublishingAuthById',
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth',
    tag: 'site-publishing-auth',
    summary: "Update a site's visitor authentication backend, fallback URL or logout URL (null removes a URL)",
    params: siteParams,
    body: SitePublishingAuthUpdateSchema,
    bodyRequired: true,
    response: SitePublishingAuthSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SITE_AUTH,
  }),
  regenerateSitePublishingAuthById: defineOperation({
    id: 'regenerateSitePublishingAuthById',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate',
    tag: 'site-publishing-auth',
    summary: "Replace a site's private key: visitor tokens signed with the old one stop working at once",
    params: siteParams,
    response: SitePublishingAuthSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SITE_AUTH,
  }),
}
