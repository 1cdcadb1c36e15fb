import type { JsonDocument } from '../content/document.js'
import { collection } from '../../storage/port.js'
import { UNFINISHED } from '../common/rows.js'

/**
 * The rows the conversations area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

/** How much an issue hurts: `low` minor friction, `medium` a workaround exists, `high` blocking. */
export type Impact = 'low' | 'medium' | 'high'

/** One part of a conversation as ingested. */
export interface ConversationPart {
  type: 'message'
  role: 'user' | 'assistant'
  body: string
}

/**
 * A support conversation ingested into an organization (domains/conversations). Its public id is
 * the one given at ingest (or made then); the row id is `${organization}/${id}`, so two
 * organizations may ingest the same id. Processing (a background job) extracts its issues.
 */
export interface ConversationRow {
  id: string
  organization: string
  /** The public id. */
  conversation: string
  subject?: string
  source: string
  parts: readonly ConversationPart[]
  metadata: { url?: string; attributes: Readonly<Record<string, string>>; createdAt?: string }
  createdAt: string
  ingestedAt: string
  status: 'pending' | 'processing' | 'processed' | 'failed'
  /** The latest ingest's token: only the processing job holding it writes (a re-ingest supersedes it). */
  runToken: string
  processedAt?: string
  impact?: Impact
  error?: string
}

/** An issue extracted from a conversation, in a cluster of issues about the same problem. */
export interface ConversationIssueRow {
  id: string
  organization: string
  /** The conversation's row id. */
  conversation: string
  cluster: string
  title: string
  details: JsonDocument
  impact: Impact
  createdAt: string
  ingestedAt: string
  /** The issue's terms (stemmed, stop words left out): what clustering compares. */
  terms: readonly string[]
}

/** A cluster of similar issues. Counts, impact (and the icon showing it), pulse and sources are worked out from its issues when read. */
export interface IssueClusterRow {
  id: string
  organization: string
  label: string
  summary: JsonDocument
  muted: boolean
  createdAt: string
  updatedAt: string
}

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
