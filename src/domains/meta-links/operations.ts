import { defineOperation } from '../../core/operation.js'
import { pathParams } from '../common/schemas.js'
import { MetaLinksSchema } from './schemas.js'

const page = {
  method: 'GET',
  response: MetaLinksSchema,
  status: 200,
  errors: ['NOT_FOUND'],
} as const

/**
 * A page's meta links (official operationIds): its canonical URL and its alternates, the same page
 * in the published variants and translations of its space (locations.ts). They read the site
 * structure, so they live above both the content and the site structure.
 */
export const metaLinksOperations = {
  listRevisionPageMetaLinks: defineOperation({
    id: 'listRevisionPageMetaLinks',
    path: '/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/meta-links',
    tag: 'content',
    summary:
      "A page's meta links in a revision: `canonical`, its published URL, and `alternates`, the same page in the other variants of the sites publishing it",
    params: pathParams('spaceId', 'revisionId', 'pageId'),
    permission: { resource: 'space', action: 'view' },
    ...page,
  }),
  listSpacePageMetaLinks: defineOperation({
    id: 'listSpacePageMetaLinks',
    path: '/v1/spaces/{spaceId}/content/page/{pageId}/meta-links',
    tag: 'content',
    summary: "A page's meta links in the main content",
    params: pathParams('spaceId', 'pageId'),
    permission: { resource: 'space', action: 'view' },
    ...page,
  }),
  listChangeRequestPageMetaLinks: defineOperation({
    id: 'listChangeRequestPageMetaLinks',
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links',
    tag: 'change-requests',
    summary: "A page's meta links in a change request's content (the published URLs of the page at its path there)",
    params: pathParams('spaceId', 'changeRequestId', 'pageId'),
    permission: { resource: 'space', action: 'viewChangeRequests' },
    ...page,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
  }),
}
