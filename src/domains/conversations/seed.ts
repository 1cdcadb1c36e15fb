import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { conversationKey } from './model.js'
import { ConversationIssueRowSchema, ConversationRowSchema, IssueClusterRowSchema } from './rows.js'

const conversationRow = ConversationRowSchema.shape
const metadata = conversationRow.metadata.shape
const clusterRow = IssueClusterRowSchema.shape

/**
 * Conversations, issue clusters and issues in a state document. A conversation's row id is
 * `${organization}/${conversation}` (filled in when left out). Processing does not travel in a
 * document: a conversation saved `pending` or `processing` is processed again once loaded (resume.ts).
 */
export const conversationSeedRules = [
  seedRule({
    collection: 'conversations',
    row: (d) =>
      ConversationRowSchema.partial({ id: true })
        .extend({
          source: conversationRow.source.default('api'),
          metadata: conversationRow.metadata.extend({ attributes: metadata.attributes.default({}) }).default({ attributes: {} }),
          createdAt: SeedTimestampSchema.default(d.now),
          ingestedAt: SeedTimestampSchema.default(d.now),
          status: conversationRow.status.default('processed'),
          runToken: conversationRow.runToken.default(''),
        })
        .transform((c) => ({ ...c, id: c.id ?? conversationKey(c.organization, c.conversation) })),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      if (row.id !== conversationKey(row.organization, row.conversation))
        fail('id', `must be "${conversationKey(row.organization, row.conversation)}" (organization/conversation)`)
    },
  }),
  seedRule({
    collection: 'issueClusters',
    row: (d) =>
      IssueClusterRowSchema.extend({
        label: clusterRow.label.default(''),
        summary: clusterRow.summary.default({ object: 'document', data: {}, nodes: [] }),
        muted: clusterRow.muted.default(false),
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
      ConversationIssueRowSchema.extend({
        createdAt: SeedTimestampSchema.default(d.now),
        ingestedAt: SeedTimestampSchema.default(d.now),
        terms: ConversationIssueRowSchema.shape.terms.default([]),
      }),
    check: ({ ctx, fail }, row) => {
      if (ctx.tx.get('conversations', row.conversation)?.organization !== row.organization)
        fail('conversation', `no conversation "${row.conversation}" in organization "${row.organization}"`)
      if (ctx.tx.get('issueClusters', row.cluster)?.organization !== row.organization)
        fail('cluster', `no cluster "${row.cluster}" in organization "${row.organization}"`)
    },
  }),
]
