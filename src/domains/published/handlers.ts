import { implement } from '../context.js'
import { resolvePublishedUrl } from './answer.js'
import { contentByUrl } from './content-url.js'
import { publishedOperations } from './operations.js'

/** URL resolution bound to its handlers. */
export const publishedHandlers = implement(publishedOperations, {
  resolvePublishedContentByUrl: (ctx, { body }) => resolvePublishedUrl(ctx, { url: body.url, visitor: body.visitor, redirectOnError: body.redirectOnError }),

  getPublishedContentByUrl: (ctx, { query }) =>
    resolvePublishedUrl(ctx, {
      url: query.url,
      visitor: query.visitorAuthToken === undefined ? undefined : { jwtToken: query.visitorAuthToken },
      redirectOnError: query.redirectOnError,
    }),

  getContentByUrl: (ctx, { query }) => contentByUrl(ctx, query.url),
})
