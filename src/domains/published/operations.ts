import { defineOperation } from '../../core/operation.js'
import { ContentByUrlSchema, ContentUrlQuerySchema, PublishedSiteContentLookupSchema, ResolveUrlBodySchema, ResolveUrlQuerySchema } from './schemas.js'

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
    // It writes nothing: a read transaction.
    readOnly: true,
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
  getContentByUrl: defineOperation({
    id: 'getContentByUrl',
    method: 'GET',
    path: '/v1/urls/content',
    tag,
    summary:
      'Resolve a URL to the content it names: an application URL (`urls.app`) of a collection, a space, a page, a revision or a change request, or a published URL; what the caller cannot read is a 404',
    query: ContentUrlQuerySchema,
    response: ContentByUrlSchema,
    status: 200,
    errors: ['NOT_FOUND'],
  }),
}
