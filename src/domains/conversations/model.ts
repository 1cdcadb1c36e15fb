import type { z } from 'zod'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { ConversationIssueRow, ConversationRow, IssueClusterRow } from './rows.js'
import { refreshCluster } from './clusters.js'
import { strongest } from './extract.js'
import { processJob } from './process.js'
import type { IngestConversationSchema } from './schemas.js'

/** The row id of a conversation: its public id within its organization. */
export const conversationKey = (organization: string, id: string) => `${organization}/${id}`
/** The public id of a conversation row. */
export const publicId = (row: Pick<ConversationRow, 'conversation'>) => row.conversation

export function requireConversation(ctx: ReadContext, organization: string, id: string): ConversationRow {
  const row = ctx.tx.get('conversations', conversationKey(organization, id))
  if (!row) throw new ApiError('NOT_FOUND', 'Conversation not found')
  return row
}

export function requireCluster(ctx: ReadContext, organization: string, id: string): IssueClusterRow {
  const row = ctx.tx.get('issueClusters', id)
  if (!row || row.organization !== organization) throw new ApiError('NOT_FOUND', 'Issues cluster not found')
  return row
}

export function requireIssue(ctx: ReadContext, organization: string, id: string): ConversationIssueRow {
  const row = ctx.tx.get('conversationIssues', id)
  if (!row || row.organization !== organization) throw new ApiError('NOT_FOUND', 'Conversation issue not found')
  return row
}

/** Remove a conversation's issues (a re-ingest), bringing their clusters up to date (an emptied one goes). */
export function removeIssues(ctx: Context, conversation: string): void {
  const clusters = new Set<string>()
  for (const { row } of ctx.tx.scan('conversationIssues', 'byConversation', conversation)) {
    clusters.add(row.cluster)
    ctx.tx.delete('conversationIssues', row.id)
  }
  for (const cluster of clusters) refreshCluster(ctx, cluster)
}

/**
 * Ingest one conversation: stored `pending`, then processed in the background. An id ingested
 * before replaces that conversation (its parts, subject, source, metadata; its first-ingest place
 * in the list stays): its issues go, and it is processed again.
 */
export function ingestConversation(ctx: Context, organization: string, input: z.output<typeof IngestConversationSchema>): ConversationRow {
  const id = input.id ?? ctx.newId()
  const key = conversationKey(organization, id)
  const now = ctx.nowIso()
  const before = ctx.tx.get('conversations', key)
  if (before) removeIssues(ctx, key)
  const row: ConversationRow = {
    id: key,
    organization,
    conversation: id,
    source: input.source ?? 'api',
    parts: input.parts,
    metadata: { attributes: input.metadata?.attributes ?? {} },
    createdAt: input.metadata?.createdAt ? new Date(input.metadata.createdAt).toISOString() : now,
    ingestedAt: now,
    status: 'pending',
    runToken: ctx.newId(),
  }
  if (input.subject !== undefined) row.subject = input.subject
  if (input.metadata?.url !== undefined) row.metadata = { ...row.metadata, url: input.metadata.url }
  if (input.metadata?.createdAt !== undefined) row.metadata = { ...row.metadata, createdAt: row.createdAt }
  const saved = before ? ctx.tx.update('conversations', row) : ctx.tx.insert('conversations', row)
  ctx.defer(`conversation-processing:${key}`, processJob(key, row.runToken))
  return saved
}

/** Mute or unmute a cluster (`updatedAt` moves only when it changes). */
export function setMuted(ctx: Context, cluster: IssueClusterRow, muted: boolean): IssueClusterRow {
  if (cluster.muted === muted) return cluster
  return ctx.tx.update('issueClusters', { ...cluster, muted, updatedAt: ctx.nowIso() })
}

const WEEK = 7 * 24 * 3600 * 1000

/** What a cluster shows that its issues decide: counts, impact, sources and the weekly pulse (by the API's clock). */
export function clusterFigures(ctx: ReadContext, cluster: IssueClusterRow) {
  const issues = ctx.tx.scan('conversationIssues', 'byCluster', cluster.id).map((e) => e.row)
  const now = ctx.now().getTime()
  const weeklyPulse = Array.from({ length: 13 }, () => 0)
  for (const issue of issues) {
    const age = now - Date.parse(issue.createdAt)
    const week = Math.floor(age / WEEK)
    if (age >= 0 && week < 13) weeklyPulse[12 - week]! += 1
  }
  const conversations = [...new Set(issues.map((i) => i.conversation))]
  const sources: Record<string, number> = {}
  for (const id of conversations) {
    const source = ctx.tx.get('conversations', id)?.source ?? 'api'
    sources[source] = (sources[source] ?? 0) + 1
  }
  return { issues: issues.length, conversations: conversations.length, impact: strongest(issues.map((i) => i.impact)) ?? 'low', weeklyPulse, sources }
}
