import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { UNFINISHED, readOnly } from '../common/rows.js'
import { JsonDocumentSchema } from '../content/schemas.js'
import { IngestConversationSchema } from './schemas.js'

/**
 * The rows the conversations area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

/** How much an issue hurts: `low` minor friction, `medium` a workaround exists, `high` blocking. */
const ImpactSchema = z.enum(['low', 'medium', 'high'])
export type Impact = z.output<typeof ImpactSchema>

/** The parts of a conversation as ingested (the ingest request's rule). */
const PartsSchema = readOnly(IngestConversationSchema.shape.parts)
/** One part of a conversation as ingested. */
export type ConversationPart = z.output<typeof PartsSchema>[number]

/**
 * A support conversation ingested into an organization (domains/conversations). Its public id is
 * the one given at ingest (or made then); the row id is `${organization}/${id}`, so two
 * organizations may ingest the same id. Processing (a background job) extracts its issues.
 */
export const ConversationRowSchema = z.strictObject({
  /** `${organization}/${conversation}` */
  id: z.string(),
  organization: SeedIdSchema,
  /** The public id. */
  conversation: SeedIdSchema,
  subject: z.string().max(255).optional(),
  source: z.string().min(1).max(50),
  parts: PartsSchema,
  metadata: z.strictObject({ url: z.string().optional(), attributes: readOnly(z.record(z.string(), z.string())), createdAt: SeedTimestampSchema.optional() }),
  createdAt: SeedTimestampSchema,
  ingestedAt: SeedTimestampSchema,
  status: z.enum(['pending', 'processing', 'processed', 'failed']),
  /** The latest ingest's token: only the processing job holding it writes (a re-ingest supersedes it). */
  runToken: z.string(),
  processedAt: SeedTimestampSchema.optional(),
  impact: ImpactSchema.optional(),
  error: z.string().optional(),
})
export type ConversationRow = z.output<typeof ConversationRowSchema>

/** A cluster of similar issues. Counts, impact (and the icon showing it), pulse and sources are worked out from its issues when read. */
export const IssueClusterRowSchema = z.strictObject({
  id: SeedIdSchema,
  organization: SeedIdSchema,
  label: z.string(),
  summary: JsonDocumentSchema,
  muted: z.boolean(),
  createdAt: SeedTimestampSchema,
  updatedAt: SeedTimestampSchema,
})
export type IssueClusterRow = z.output<typeof IssueClusterRowSchema>

/** An issue extracted from a conversation, in a cluster of issues about the same problem. */
export const ConversationIssueRowSchema = z.strictObject({
  id: SeedIdSchema,
  organization: SeedIdSchema,
  /** The conversation's row id. */
  conversation: z.string().min(1),
  cluster: SeedIdSchema,
  title: z.string().min(1),
  details: JsonDocumentSchema,
  impact: ImpactSchema,
  createdAt: SeedTimestampSchema,
  ingestedAt: SeedTimestampSchema,
  /** The issue's terms (stemmed, stop words left out): what clustering compares. */
  terms: readOnly(z.array(z.string())),
})
export type ConversationIssueRow = z.output<typeof ConversationIssueRowSchema>

/** The collections the conversations area stores, with their indexes. */
export const conversationsCollections = {
  /** Conversations of an organization in first-ingest order, and by `${organization}/${source}` for the source filter. */
  conversations: collection<ConversationRow>({
    byOrganization: { key: (c) => c.organization },
    bySource: { key: (c) => `${c.organization}/${c.source}` },
    /** Conversations `pending` or `processing` (key `unfinished`), for core/resume.ts. */
    unfinished: { key: (c) => (c.status === 'pending' || c.status === 'processing' ? UNFINISHED : undefined) },
  }),
  conversationIssues: collection<ConversationIssueRow>({
    byOrganization: { key: (i) => i.organization },
    byConversation: { key: (i) => i.conversation },
    byCluster: { key: (i) => i.cluster },
  }),
  issueClusters: collection<IssueClusterRow>({ byOrganization: { key: (c) => c.organization } }),
}
