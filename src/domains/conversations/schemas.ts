import { z } from 'zod'
import { listOrder, listQuery } from '../../core/paging.js'
import { TimestampSchema, UrlSchema } from '../common/schemas.js'
import { JsonDocumentSchema } from '../content/schemas.js'

/**
 * Conversations, their issues and issue clusters. The official document has none of these
 * operations: the shapes are the reference's (api-reference.md, "Conversations").
 */
export const ImpactSchema = z
  .enum(['low', 'medium', 'high'])
  .meta({ id: 'ConversationImpact', description: '`low` minor friction; `medium` noticeable, a workaround exists; `high` blocking, no viable workaround.' })

/** A conversation id: given at ingest, it goes into URLs. */
const ConversationIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, 'must be 1..100 letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit')
const SourceSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,49}$/, 'must be 1..50 lowercase letters, digits, `.`, `_` or `-`, starting with a letter or digit')

const PartSchema = z.object({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant']),
  body: z
    .string()
    .max(20_000, 'must be at most 20000 characters')
    .refine((b) => b.trim() !== '', { message: 'must not be blank' }),
})

export const IngestConversationSchema = z.object({
  id: ConversationIdSchema.optional().meta({
    description: 'The conversation id (one is made when left out). Ingesting an id again replaces that conversation and processes it again.',
  }),
  subject: z.string().max(255, 'must be at most 255 characters').optional(),
  source: SourceSchema.optional().meta({
    description:
      "Where the conversation comes from (beyond the reference's body; default `api`): the `source` of the conversation, its list filter and the clusters' `sources`.",
  }),
  metadata: z
    .object({
      url: UrlSchema.optional(),
      attributes: z
        .record(z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters'), z.string().max(1000, 'must be at most 1000 characters'))
        .refine((a) => Object.keys(a).length <= 50, { message: 'must hold at most 50 attributes' })
        .optional(),
      createdAt: z.iso.datetime({ error: 'must be an ISO 8601 date-time (e.g. 2026-01-01T00:00:00.000Z)' }).optional(),
    })
    .optional(),
  parts: z.array(PartSchema).min(1, 'must hold at least 1 part').max(500, 'must hold at most 500 parts'),
})

export const ConversationSchema = z
  .object({
    object: z.literal('conversation'),
    id: z.string(),
    subject: z.string().optional(),
    createdAt: TimestampSchema,
    processedAt: TimestampSchema.optional(),
    source: z.string(),
    impact: ImpactSchema.optional().meta({ description: 'The strongest impact of its issues, once processed (absent when it has none).' }),
    status: z.enum(['pending', 'processing', 'processed', 'failed']).meta({ description: 'Where its processing stands (beyond the reference).' }),
    error: z.string().optional().meta({ description: 'Why processing failed.' }),
    urls: z.object({ location: z.string(), source: z.string().optional() }),
  })
  .meta({ id: 'Conversation' })

export const ConversationDetailSchema = z.object({
  conversation: ConversationSchema,
  parts: z.array(z.object({ type: z.literal('message'), role: z.enum(['user', 'assistant']), body: z.string() })),
  metadata: z.object({ url: z.string().optional(), attributes: z.record(z.string(), z.string()), createdAt: TimestampSchema.optional() }),
})

export const ConversationIssueSchema = z
  .object({
    object: z.literal('conversation-issue'),
    id: z.string(),
    title: z.string(),
    details: JsonDocumentSchema,
    impact: ImpactSchema,
    createdAt: TimestampSchema,
    ingestedAt: TimestampSchema,
    conversation: z.string(),
    cluster: z.string(),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'ConversationIssue' })

export const IssueWithConversationSchema = z.object({ issue: ConversationIssueSchema, conversation: ConversationSchema })

export const IssuesClusterSchema = z
  .object({
    object: z.literal('issues-cluster'),
    id: z.string(),
    label: z.string(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    icon: z.string().max(50),
    summary: JsonDocumentSchema,
    muted: z.boolean(),
    impact: ImpactSchema,
    weeklyPulse: z
      .array(z.number())
      .length(13)
      .meta({ description: 'Issues per week over the last 13 weeks, oldest first; the last entry is the 7 days up to now.' }),
    sources: z.record(z.string(), z.number()).meta({ description: 'Conversations of the cluster by source.' }),
    stats: z.object({ issues: z.number(), conversations: z.number() }),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'IssuesCluster' })

export const ListConversationsQuerySchema = listQuery.extend({ source: z.string().min(1, 'must not be empty').optional() })
export const ListClustersQuerySchema = listQuery.extend({
  order: listOrder,
  orderBy: z.enum(['updatedAt', 'createdAt', 'issues'], { error: 'must be updatedAt, createdAt or issues' }).default('updatedAt'),
})
export const ListIssuesQuerySchema = listQuery.extend({
  cluster: z.string().min(1, 'must not be empty').optional(),
  conversation: z.string().min(1, 'must not be empty').optional(),
})
export const UpdateClusterSchema = z.object({ muted: z.boolean() })
