import { ApiError } from '../../core/errors.js'
import { awaitedAnswer, eventStream } from '../../core/stream.js'
import { implement, type ReadContext } from '../context.js'
import { documentText } from '../content/markdown.js'
import type { JsonDocument } from '../content/document.js'
import { getSite } from '../sites/model.js'
import { answerEvents } from './answer.js'
import type { AskRequest } from './answerer.js'
import type { AIResponseBody } from './assistant-schemas.js'
import { assistantEvents } from './assistant.js'
import { askOperations } from './operations.js'
import { retrieveOrganizationPassages, retrievePassages } from './passages.js'
import { recommendedQuestions } from './questions.js'
import { organizationSpaces, siteSpacesForQuestions } from './scope.js'
// Which site-spaces a question is asked of: the scope site search reads too.
import { siteSpacesInScope } from '../search/site-scope.js'
import type { AnswerStreamEvent } from './schemas.js'

/** The longest question the assistant searches with: the start of a longer message (Ask's limit). */
const QUESTION_LENGTH = 512

/**
 * The Ask operations: everything an answer may use is read in the request's transaction (the
 * scope checked, a bad one a 400 before any event; the passages retrieved), then the answerer
 * runs as the stream is read (or, for `askInOrganization`, after the transaction), on that alone.
 */
export const askHandlers = implement(askOperations, {
  streamAskInSite: (ctx, { params, query, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const siteSpaces = siteSpacesInScope(ctx, site, body.scope)
    const request: AskRequest = {
      question: body.question,
      organization: site.organization,
      site: { id: site.id, organization: site.organization, title: site.title },
      ...(body.context && { context: body.context }),
      passages: retrievePassages(ctx, site.organization, siteSpaces, body.question),
    }
    const answerer = ctx.services.ask
    return eventStream(() => answerEvents(answerer, request, query.format))
  },

  streamRecommendedQuestionsInSite: (ctx, { params, query }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const spaces = siteSpacesForQuestions(ctx, site, query).map((row) => row.space)
    const questions = recommendedQuestions(ctx, spaces)
    return eventStream(async function* () {
      for (const question of questions) yield { data: { question } }
    })
  },

  streamAIResponseInSite: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const { question, location } = lastQuestion(body)
    // The default content, with the site-space of the page the visitor is on (if the site publishes it).
    const current = location && siteSpacesInScope(ctx, site, { mode: 'all' }).find((row) => row.space === location.spaceId)
    const siteSpaces = siteSpacesInScope(ctx, site, { mode: 'default', ...(current && { currentSiteSpace: current.id }) })
    const request: AskRequest = {
      question,
      organization: site.organization,
      site: { id: site.id, organization: site.organization, title: site.title },
      ...(current && { context: { siteSpaceId: current.id } }),
      passages: retrievePassages(ctx, site.organization, siteSpaces, question),
    }
    const ids = { message: ctx.newId(), response: ctx.newId(), previous: body.previousResponseId }
    const answerer = ctx.services.ask
    return eventStream(() => assistantEvents(answerer, request, ids))
  },

  askInOrganization: (ctx, { params, query, body }) => {
    const request = organizationRequest(ctx, params.organizationId, body.query)
    const answerer = ctx.services.ask
    return awaitedAnswer(async () => {
      let last: AnswerStreamEvent['answer'] | undefined
      for await (const { data } of answerEvents(answerer, request, query.format)) last = data.answer
      return { answer: last! }
    })
  },

  streamAskInOrganization: (ctx, { params, query }) => {
    const request = organizationRequest(ctx, params.organizationId, query.query)
    const answerer = ctx.services.ask
    return eventStream(() => answerEvents(answerer, request, query.format))
  },

  getRecommendedQuestionsInOrganization: (ctx, { params }) => ({
    questions: recommendedQuestions(ctx, organizationSpaces(ctx, params.organizationId)),
  }),

  streamRecommendedQuestionsInOrganization: (ctx, { params }) => {
    const questions = recommendedQuestions(ctx, organizationSpaces(ctx, params.organizationId))
    return eventStream(async function* () {
      for (const question of questions) yield { data: { question } }
    })
  },
})

/** A question asked of an organization: the spaces the caller finds in its search. */
function organizationRequest(ctx: ReadContext, organization: string, question: string): AskRequest {
  return { question, organization, passages: retrieveOrganizationPassages(ctx, organization, organizationSpaces(ctx, organization), question) }
}

/**
 * The question of a conversation: the last user message (its text, or its document's), its
 * first QUESTION_LENGTH characters, and where the visitor was. A conversation with no user
 * message asking anything is a 400 naming `input` (this API calls no client tool, so it never
 * waits on a tool's result).
 */
function lastQuestion(body: AIResponseBody): { question: string; location?: { spaceId: string; pageId: string } | undefined } {
  for (let i = body.input.length - 1; i >= 0; i--) {
    const message = body.input[i]!
    if (message.role !== 'user') continue
    const text = (typeof message.content === 'string' ? message.content : documentText(message.content as JsonDocument)).replace(/\s+/g, ' ').trim()
    if (text === '') throw new ApiError('BAD_REQUEST', `Invalid request: body field \`input[${i}].content\`: must not be empty`)
    return { question: text.slice(0, QUESTION_LENGTH), location: message.context?.location }
  }
  throw new ApiError('BAD_REQUEST', 'Invalid request: body field `input`: must hold a user message')
}
