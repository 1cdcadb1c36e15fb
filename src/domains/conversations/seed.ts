import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { JsonDocumentSchema } from '../content/schemas.js'
import { conversationKey } from './model.js'
import { IngestConversationSchema } from './schemas.js'

const Impact = z.enum(['low', 'medium', 'high'])
const Parts = IngestConversationSchema.shape.parts

/**
 * Conversations, issue clusters and issues in a state document. A conversation's row id is
 * `${organization}/${conversation}` (filled in when left out). Processing does not travel in a
 * document: a conversation saved `pending` or `processing` is processed again once loaded (resume.ts).
 */
export const conversationSeedRules = [
  seedRule({
    collection: 'conversations',
    row: (d) =>
      z
        .strictObject({
          id: z.string().optional(),
          organization: SeedIdSchema,
          conversation: SeedIdSchema,
          subject: z.string().max(255).optional(),
          source: z.string().min(1).max(50).default('api'),
          parts: Parts,
          metadata: z.strictObject({ url: z.string().optional(), attributes: z.record(z.string(), z.string()).default({}), createdAt: SeedTimestampSchema.optional() }).default({ attributes: {} }),
          createdAt: SeedTimestampSchema.default(d.now),
          ingestedAt: SeedTimestampSchema.default(d.now),
          status: z.enum(['pending', 'processing', 'processed', 'failed']).default('processed'),
          runToken: z.string().default(''),
          processedAt: SeedTimestampSchema.optional(),
          impact: Impact.optional(),
          error: z.string().optional(),
        })
        .transform((c) => ({ ...c, id: c.id ?? conversationKey(c.organization, c.conversation) })),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      if (row.id !== conversationKey(row.organization, row.conversation)) fail('id', `must be "${conversationKey(row.organization, row.conversation)}" (organization/conversation)`)
    },
  }),
  seedRule({
    collection: 'issueClusters',
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        organization: SeedIdSchema,
        label: z.string().default(''),
        summary: JsonDocumentSchema.default({ object: 'document', data: {}, nodes: [] }),
        muted: z.boolean().default(false),
        createdAt: SeedTimestampSchema.default(d.now),
        updatedAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
    },
  }),
  seedRule({
    collection: 'conversationIssues',
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        organization: SeedIdSchema,
        conversation: z.string().min(1),
        cluster: SeedIdSchema,
        title: z.string().min(1),
        details: JsonDocumentSchema,
        impact: Impact,
        createdAt: SeedTimestampSchema.default(d.now),
        ingestedAt: SeedTimestampSchema.default(d.now),
        terms: z.array(z.string()).default([]),
      }),
    check: ({ ctx, fail }, row) => {
      if (ctx.tx.get('conversations', row.conversation)?.organization !== row.organization) fail('conversation', `no conversation "${row.conversation}" in organization "${row.organization}"`)
      if (ctx.tx.get('issueClusters', row.cluster)?.organization !== row.organization) fail('cluster', `no cluster "${row.cluster}" in organization "${row.organization}"`)
    },
  }),
]
