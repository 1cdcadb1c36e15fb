import { implement } from '../context.js'
import { eventStream } from '../../core/stream.js'
import { getSite } from '../sites/model.js'
import { answerEvents } from './answer.js'
import type { AskRequest } from './answerer.js'
import { askOperations } from './operations.js'
import { retrievePassages } from './passages.js'
import { siteSpacesInScope } from './scope.js'

/**
 * The Ask operation: everything the answer may use is read in the request's transaction (the
 * scope checked, a bad one a 400 before any event; the passages retrieved), then the answerer
 * runs as the stream is read, on that alone.
 */
export const askHandlers = implement(askOperations, {
  streamAskInSite: (ctx, { params, query, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const siteSpaces = siteSpacesInScope(ctx, site, body.scope)
    const request: AskRequest = {
      question: body.question,
      site: { id: site.id, organization: site.organization, title: site.title },
      ...(body.context && { context: body.context }),
      passages: retrievePassages(ctx, site.organization, siteSpaces, body.question),
    }
    const answerer = ctx.services.ask
    return eventStream(() => answerEvents(answerer, request, query.format))
  },
})
