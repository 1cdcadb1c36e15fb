import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import type { ConversationIssueRow, ConversationRow, Impact, IssueClusterRow } from './rows.js'
import { clusterFigures } from './model.js'
import type { ConversationSchema, IssuesClusterSchema } from './schemas.js'

/** The icon of a cluster shows its impact. */
const ICONS: Record<Impact, string> = { high: 'triangle-exclamation', medium: 'circle-exclamation', low: 'circle-question' }

export function encodeConversation(ctx: ReadContext, row: ConversationRow): z.input<typeof ConversationSchema> {
  const out: z.input<typeof ConversationSchema> = {
    object: 'conversation',
    id: row.conversation,
    createdAt: row.createdAt,
    source: row.source,
    status: row.status,
    urls: { location: ctx.urls.api(`/orgs/${row.organization}/conversations/${row.conversation}`) },
  }
  if (row.subject !== undefined) out.subject = row.subject
  if (row.processedAt !== undefined) out.processedAt = row.processedAt
  if (row.impact !== undefined) out.impact = row.impact
  if (row.error !== undefined) out.error = row.error
  if (row.metadata.url !== undefined) out.urls.source = row.metadata.url
  return out
}

export function encodeConversationDetail(ctx: ReadContext, row: ConversationRow) {
  const metadata: { url?: string; attributes: Record<string, string>; createdAt?: string } = { attributes: { ...row.metadata.attributes } }
  if (row.metadata.url !== undefined) metadata.url = row.metadata.url
  if (row.metadata.createdAt !== undefined) metadata.createdAt = row.metadata.createdAt
  return { conversation: encodeConversation(ctx, row), parts: row.parts.map((p) => ({ ...p })), metadata }
}

export function encodeIssue(ctx: ReadContext, row: ConversationIssueRow) {
  const conversation = ctx.tx.get('conversations', row.conversation)!
  return {
    object: 'conversation-issue' as const,
    id: row.id,
    title: row.title,
    details: row.details,
    impact: row.impact,
    createdAt: row.createdAt,
    ingestedAt: row.ingestedAt,
    conversation: conversation.conversation,
    cluster: row.cluster,
    urls: { location: ctx.urls.api(`/orgs/${row.organization}/conversations-issues/${row.id}`) },
  }
}

/** An issue with its conversation, as lists and gets answer them. */
export function encodeIssueWithConversation(ctx: ReadContext, row: ConversationIssueRow) {
  return { issue: encodeIssue(ctx, row), conversation: encodeConversation(ctx, ctx.tx.get('conversations', row.conversation)!) }
}

export function encodeCluster(ctx: ReadContext, cluster: IssueClusterRow, figures = clusterFigures(ctx, cluster)): z.input<typeof IssuesClusterSchema> {
  return {
    object: 'issues-cluster',
    id: cluster.id,
    label: cluster.label,
    createdAt: cluster.createdAt,
    updatedAt: cluster.updatedAt,
    icon: ICONS[figures.impact],
    summary: cluster.summary,
    muted: cluster.muted,
    impact: figures.impact,
    weeklyPulse: figures.weeklyPulse,
    sources: figures.sources,
    stats: { issues: figures.issues, conversations: figures.conversations },
    urls: { location: ctx.urls.api(`/orgs/${cluster.organization}/conversations-clusters/${cluster.id}`) },
  }
}
