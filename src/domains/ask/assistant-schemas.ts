import { z } from 'zod'
import { JsonDocumentSchema } from '../content/schemas.js'

/** Shapes of the assistant (official `streamAIResponseInSite`): the conversation sent and the events of the response. */

/** Messages of a conversation taken at most: the question is the last user message, the rest is context. */
export const MAX_INPUT = 100

/** What the visitor says where he is (official `AIMessageContext`): the current page helps pick the site-space asked. */
const AIMessageContextSchema = z.object({
  location: z.object({ spaceId: z.string({ error: 'is required' }), pageId: z.string({ error: 'is required' }) }).optional(),
  comments: z.array(z.object({ id: z.string({ error: 'is required' }), content: z.string().optional() })).optional(),
  selection: z
    .object({
      anchorKey: z.string().nullable(),
      anchorOffset: z.number().int(),
      focusKey: z.string().nullable(),
      focusOffset: z.number().int(),
      content: z.string().optional(),
    })
    .optional(),
})

export const AIMessageInputSchema = z.object({
  role: z.enum(['user', 'assistant', 'developer'], { error: 'must be user, assistant or developer' }),
  content: z.union([z.string().max(2048, 'must be at most 2048 characters'), JsonDocumentSchema], {
    error: 'must be a text of at most 2048 characters or a document',
  }),
  context: AIMessageContextSchema.optional(),
  // Attachments (images, files) are not read: the site's content alone answers.
  attachments: z.array(z.unknown()).max(10, 'must hold at most 10 attachments').optional(),
})

export const AIResponseBodySchema = z.object({
  input: z.array(AIMessageInputSchema, { error: 'is required' }).max(MAX_INPUT, `must hold at most ${MAX_INPUT} messages`),
  previousResponseId: z.string().optional(),
  model: z
    .enum(['fast', 'reasoning-low', 'reasoning-medium', 'reasoning-high'], { error: 'must be fast, reasoning-low, reasoning-medium or reasoning-high' })
    .optional(),
  // Client tools are never called (the answerer reads the site's content), so their definitions
  // and results are taken unread.
  tools: z.array(z.unknown()).max(50, 'must hold at most 50 tools').optional(),
  toolCall: z.unknown().optional(),
  session: z.object({ visitorId: z.string({ error: 'is required' }), sessionId: z.string({ error: 'is required' }) }).optional(),
  channel: z.object({ type: z.enum(['site', 'embed', 'api'], { error: 'must be site, embed or api' }) }).optional(),
})

export type AIResponseBody = z.output<typeof AIResponseBodySchema>

const messageId = z.string().meta({ description: 'The message the event composes.' })
const stepIndex = z.number().int().meta({ description: 'The step of the message the event composes.' })

const SearchResultPageSchema = z.object({
  type: z.literal('page'),
  spaceId: z.string(),
  pageId: z.string(),
  revisionId: z.string(),
  anchor: z.string().optional(),
  title: z.string(),
  description: z.string().optional(),
})

/** The events of a response this API sends (a part of the official `AIStreamResponse` union). */
export const AIStreamEventSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('response_start'), messageId }),
    z.object({ type: z.literal('response_step_start'), messageId, stepIndex, phase: z.enum(['commentary', 'final_answer']).optional() }),
    z.object({
      type: z.literal('response_tool_call'),
      messageId,
      stepIndex,
      toolCall: z.object({ tool: z.literal('search'), query: z.string(), results: z.array(SearchResultPageSchema) }),
    }),
    z.object({
      type: z.literal('response_document'),
      messageId,
      stepIndex,
      operation: z.enum(['insert', 'update']),
      blocks: z
        .array(z.record(z.string(), z.unknown()))
        .meta({ description: 'Top-level blocks of the step’s document: added (`insert`), or replacing as many last ones (`update`).' }),
    }),
    z.object({ type: z.literal('response_followup_suggestion'), messageId, suggestions: z.array(z.string()) }),
    z.object({
      type: z.literal('response_finish'),
      messageId,
      response: z.object({ id: z.string().optional(), previous: z.string().optional() }),
    }),
  ])
  .meta({ id: 'AIStreamResponse', description: 'One event of a response of the assistant.' })

export type AIStreamEvent = z.input<typeof AIStreamEventSchema>
