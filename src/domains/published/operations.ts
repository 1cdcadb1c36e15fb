import { defineOperation } from '../../core/operation.js'
import { PublishedSiteContentLookupSchema, ResolveUrlBodySchema, ResolveUrlQuerySchema } from './schemas.js'

const tag = 'urls'

/** URL resolution of published content (official operationIds as keys). */
export const publishedOperations = {
  resolvePublishedContentByUrl: defineOperation({
    id: 'resolvePublishedContentByUrl',
    method: 'POST',
    path: '/v1/urls/published',
    tag,
    summary:
      'Resolve a URL of published content: the site, section, site-space and space it names, the page path left, and a site API token (a JWT) that reads that content',
    body: ResolveUrlBodySchema,
    bodyRequired: true,
    response: PublishedSiteContentLookupSchema,
    status: 200,
    errors: ['NOT_FOUND', 'UNAUTHORIZED'],
    auth: false,
  }),
  getPublishedContentByUrl: defineOperation({
    id: 'getPublishedContentByUrl',
    method: 'GET',
    path: '/v1/urls/published',
    tag,
    summary: 'Resolve a URL of published content (deprecated officially: the POST takes the visitor as a body)',
    query: ResolveUrlQuerySchema,
    response: PublishedSiteContentLookupSchema,
    status: 200,
    errors: ['NOT_FOUND', 'UNAUTHORIZED'],
    auth: false,
  }),
}
