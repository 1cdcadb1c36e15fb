import { defineOperation } from '../../core/operation.js'
import { SITE_EDIT, SITE_VIEW } from '../sites/operations.js'
import { listOf, pathParams } from '../common/schemas.js'
import { CreateShareLinkSchema, ListShareLinksQuerySchema, ShareLinkSchema, UpdateShareLinkSchema } from './schemas.js'

const tag = 'share-links'
const base = '/v1/orgs/{organizationId}/sites/{siteId}/share-links'
const siteParams = pathParams('organizationId', 'siteId')
const linkParams = pathParams('organizationId', 'siteId', 'shareLinkId')

/** The share link operations of the table (official operationIds as keys). */
export const shareLinkOperations = {
  listSiteShareLinks: defineOperation({
    id: 'listSiteShareLinks',
    method: 'GET',
    path: base,
    tag,
    summary: 'List the share links of a site in creation order (search: name text, or an exact key)',
    params: siteParams,
    query: ListShareLinksQuerySchema,
    response: listOf(ShareLinkSchema),
    status: 200,
    errors: ['NOT_FOUND'],
    permission: SITE_VIEW,
  }),
  createSiteShareLink: defineOperation({
    id: 'createSiteShareLink',
    method: 'POST',
    path: base,
    tag,
    summary: 'Create an active share link (on a site of any visibility; its key opens the site while the site is `share-link`)',
    params: siteParams,
    body: CreateShareLinkSchema,
    bodyRequired: true,
    response: ShareLinkSchema,
    status: 201,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SITE_EDIT,
  }),
  updateSiteShareLinkById: defineOperation({
    id: 'updateSiteShareLinkById',
    method: 'PATCH',
    path: `${base}/{shareLinkId}`,
    tag,
    summary: 'Rename a share link and/or turn it on or off (`active`)',
    params: linkParams,
    body: UpdateShareLinkSchema,
    bodyRequired: true,
    response: ShareLinkSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: SITE_EDIT,
  }),
  deleteSiteShareLinkById: defineOperation({
    id: 'deleteSiteShareLinkById',
    method: 'DELETE',
    path: `${base}/{shareLinkId}`,
    tag,
    summary: 'Delete a share link: its key stops opening the site (204 also when it does not exist)',
    params: linkParams,
    status: 204,
    errors: ['FORBIDDEN'],
    permission: SITE_EDIT,
  }),
}
