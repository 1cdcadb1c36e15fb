import { z } from 'zod'
import { queryBoolean } from '../../core/paging.js'
import { JsonDocumentSchema } from '../content/schemas.js'
import { SiteSearchScopeSchema } from '../search/schemas.js'

/** Shapes of Ask: the question (official `streamAskInSite` body) and the events of its answer (`SearchAIAnswerStream`). */

export const AskBodySchema = z.object({
  question: z.string({ error: 'is required' }).min(1, 'must not be empty').max(512, 'must be at most 512 characters'),
  // The scope of a question is site search's (search/schemas.ts).
  scope: SiteSearchScopeSchema,
  context: z
    .object({
      siteSpaceId: z.string().optional(),
      goal: z.string().max(1024, 'must be at most 1024 characters').optional(),
    })
    .optional(),
  session: z.object({ visitorId: z.string(), sessionId: z.string() }).optional(),
})

export const AskQuerySchema = z.object({
  format: z
    .enum(['document', 'markdown'], { error: 'must be "document" or "markdown"' })
    .default('document')
    .meta({ description: 'The form of the answer text (default: a document).' }),
})

export const AnswerSourceSchema = z
  .object({
    type: z.literal('page'),
    reason: z.string().optional(),
    page: z.string(),
    revision: z.string(),
    space: z.string(),
    sections: z.array(z.string()),
  })
  .meta({ id: 'SearchAIAnswerSourcePage', description: 'A page of the site the answer comes from, with the sections used.' })

export const AnswerStreamEventSchema = z
  .object({
    type: z.literal('answer'),
    answer: z.object({
      answer: z.union([z.object({ markdown: z.string() }), z.object({ document: JsonDocumentSchema })]).optional(),
      followupQuestions: z.array(z.string()),
      sources: z.array(AnswerSourceSchema),
    }),
  })
  .meta({ id: 'SearchAIAnswerStream', description: 'One event of the answer: the answer so far (each event replaces the one before).' })

export type AnswerStreamEvent = z.input<typeof AnswerStreamEventSchema>

/** The longest question asked (Ask's in a site, the official `streamAskInSite` limit): an answer's retrieval is bounded by it. */
const QUESTION_LENGTH = 512
const question = z.string({ error: 'is required' }).min(1, 'must not be empty').max(QUESTION_LENGTH, `must be at most ${QUESTION_LENGTH} characters`)

const documentFormat = z
  .enum(['document', 'markdown'], { error: 'must be "document" or "markdown"' })
  .default('document')
  .meta({ description: 'The form of the answer text (default: a document).' })

/** One recommended question (official `SearchAIRecommendedQuestionStream`): one event of the stream each. */
export const RecommendedQuestionEventSchema = z
  .object({ question: z.string() })
  .meta({ id: 'SearchAIRecommendedQuestionStream', description: 'One recommended question: one event of the stream each.' })

export const RecommendedQuestionsSchema = z
  .object({ questions: z.array(z.string()) })
  .meta({ id: 'SearchAIRecommendedQuestions', description: 'Questions recommended for the content, most useful first.' })

export const SiteQuestionsQuerySchema = z.object({
  siteSpaceId: z.string().min(1, 'must not be empty').optional().meta({ description: 'Only the questions of this site-space.' }),
  spaceId: z.string().min(1, 'must not be empty').optional().meta({ description: 'Deprecated: only the questions of the site-spaces publishing this space.' }),
})

/** A question asked of an organization (official `SearchAIQuery`). */
export const OrganizationAskBodySchema = z.object({
  query: question,
  // Deprecated and unread: the question alone is answered.
  previousQueries: z.array(z.string()).max(10, 'must hold at most 10 questions').optional(),
})

export const OrganizationAskQuerySchema = z.object({
  format: documentFormat,
  details: queryBoolean.optional().meta({ description: 'Accepted; an answer has no further details to give here.' }),
})

export const OrganizationAskStreamQuerySchema = OrganizationAskQuerySchema.extend({ query: question })

/** An answer as a whole (official `SearchAIAnswer`): the last event of its stream. */
export const SearchAIAnswerSchema = AnswerStreamEventSchema.shape.answer.meta({
  id: 'SearchAIAnswer',
  description: 'An answer from the content, with the pages it comes from.',
})

export const OrganizationAnswerSchema = z.object({ answer: SearchAIAnswerSchema })
