import { defineOperation } from '../../core/operation.js'
import { pathParams } from '../common/schemas.js'
import { AnswerStreamEventSchema, AskBodySchema, AskQuerySchema } from './schemas.js'

/** Ask: a question answered from a site's content, as a stream of server-sent events (official operationId). */
export const askOperations = {
  streamAskInSite: defineOperation({
    id: 'streamAskInSite',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/sites/{siteId}/ask',
    tag: 'site-ask',
    summary:
      "Ask a question of the content a site publishes: a `text/event-stream` of answer events (each the answer so far, with the site's pages it comes from), ending with `event: done`",
    params: pathParams('organizationId', 'siteId'),
    query: AskQuerySchema,
    body: AskBodySchema,
    bodyRequired: true,
    response: AnswerStreamEventSchema,
    responseType: 'text/event-stream',
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'site', action: 'ask', param: 'siteId' },
  }),
}
