import { defineOperation } from '../../core/operation.js'
import { SITE_EDIT, SITE_VIEW } from '../sites/operations.js'
import { listOf, pathParams } from '../common/schemas.js'
import {
  BulkUpsertResultSchema,
  BulkUpsertSiteRedirectsSchema,
  CreateSiteRedirectSchema,
  GetSiteRedirectBySourceQuerySchema,
  ListSiteRedirectsQuerySchema,
  ResolvedSiteRedirectSchema,
  SiteRedirectSchema,
  UpdateSiteRedirectSchema,
} from './schemas.js'

const tag = 'site-redirects'
const base = '/v1/orgs/{organizationId}/sites/{siteId}/redirects'
const siteParams = pathParams('organizationId', 'siteId')
const redirectParams = pathParams('organizationId', 'siteId', 'siteRedirectId')

/** The site redirect operations of the table (official operationIds as keys). */
export const siteRedirectOperations = {
  listSiteRedirects: defineOperation({
    id: 'listSiteRedirects',
    method: 'GET',
    path: base,
    tag,
    summary: 'List the live (or draft) redirects of a site: newest first, newest changed first, or by source; `search` in sources',
    params: siteParams,
    query: ListSiteRedirectsQuerySchema,
    response: listOf(SiteRedirectSchema),
    status: 200,
    errors: ['NOT_FOUND'],
    permission: SITE_VIEW,
  }),
  createSiteRedirect: defineOperation({
    id: 'createSiteRedirect',
    method: 'POST',
    path: base,
    tag,
    summary: 'Create a redirect from a source path of the site to a section, site-space or page of it, or an external URL (409 when the source has one)',
    params: siteParams,
    body: CreateSiteRedirectSchema,
    bodyRequired: true,
    response: SiteRedirectSchema,
    status: 201,
    errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
    permission: SITE_EDIT,
  }),
  bulkUpsertSiteRedirects: defineOperation({
    id: 'bulkUpsertSiteRedirects',
    method: 'PUT',
    path: base,
    tag,
    summary: 'Create, update, delete or publish up to 500 redirects by source, with a result per item (an invalid item fails the whole request)',
    params: siteParams,
    body: BulkUpsertSiteRedirectsSchema,
    bodyRequired: true,
    response: BulkUpsertResultSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SITE_EDIT,
  }),
  updateSiteRedirectById: defineOperation({
    id: 'updateSiteRedirectById',
    method: 'PATCH',
    path: `${base}/{siteRedirectId}`,
    tag,
    summary: 'Change the fields given of a redirect (`draft: false` makes a draft live)',
    params: redirectParams,
    body: UpdateSiteRedirectSchema,
    bodyRequired: true,
    response: SiteRedirectSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
    permission: SITE_EDIT,
  }),
  deleteSiteRedirectById: defineOperation({
    id: 'deleteSiteRedirectById',
    method: 'DELETE',
    path: `${base}/{siteRedirectId}`,
    tag,
    summary: 'Delete a redirect (205; 204 when the site has no such redirect)',
    params: redirectParams,
    status: 205,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SITE_EDIT,
  }),
  getSiteRedirectBySource: defineOperation({
    id: 'getSiteRedirectBySource',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/redirect',
    tag,
    summary:
      "The live redirect a path of the site leads to (its own, else the longest wildcard's) and the URL it sends to; 404 when none (also for a site token's visitor)",
    params: siteParams,
    query: GetSiteRedirectBySourceQuerySchema,
    response: ResolvedSiteRedirectSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'site', action: 'resolveRedirect', param: 'siteId' },
  }),
}
