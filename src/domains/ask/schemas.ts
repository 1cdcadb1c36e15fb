import { z } from 'zod'
import { JsonDocumentSchema } from '../content/schemas.js'
import { SiteSearchScopeSchema } from '../search/schemas.js'

/** Shapes of Ask: the question (official `streamAskInSite` body) and the events of its answer (`SearchAIAnswerStream`). */

/** The scope of a question is site search's (search/schemas.ts). */
export { SiteSearchScopeSchema }

export const AskBodySchema = z.object({
  question: z.string({ error: 'is required' }).min(1, 'must not be empty').max(512, 'must be at most 512 characters'),
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
