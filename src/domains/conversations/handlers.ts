import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import { implement } from '../context.js'
import { compareKeys, indexSource, mapPage, paginate, paginateScan, type Page } from '../../core/paging.js'
import type { ConversationIssueRow } from './rows.js'
import { encodeCluster, encodeConversation, encodeConversationDetail, encodeIssueWithConversation } from './encode.js'
import { clusterFigures, conversationKey, ingestConversation, requireCluster, requireConversation, requireIssue, setMuted } from './model.js'
import { conversationOperations } from './operations.js'
import type { ListClustersQuerySchema, ListIssuesQuerySchema } from './schemas.js'

/** Clusters sorted by `orderBy` in memory (their figures are worked out from their issues), id breaking ties. */
function clustersPage(ctx: ReadContext, organization: string, query: z.output<typeof ListClustersQuerySchema>) {
  const rows = ctx.tx.scan('issueClusters', 'byOrganization', organization).map((e) => {
    const figures = clusterFigures(ctx, e.row)
    const value = query.orderBy === 'issues' ? figures.issues : e.row[query.orderBy]
    return { row: e.row, figures, key: [value, e.row.id] as [string | number, string] }
  })
  const sign = query.order === 'asc' ? 1 : -1
  rows.sort((a, b) => sign * compareKeys(a.key, b.key))
  return mapPage(
    paginate(rows, (r) => r.key, query, query.order),
    (r) => encodeCluster(ctx, r.row, r.figures),
  )
}

/** Issues of the organization, of one cluster, or of one conversation (both filters: both hold). */
function issuesPage(ctx: ReadContext, organization: string, query: z.output<typeof ListIssuesQuerySchema>): Page<ConversationIssueRow> {
  const conversation = query.conversation === undefined ? undefined : conversationKey(organization, query.conversation)
  const inOrg = (row: ConversationIssueRow) => row.organization === organization
  const source =
    query.cluster !== undefined
      ? indexSource(ctx.tx, 'conversationIssues', 'byCluster', query.cluster)
      : conversation !== undefined
        ? indexSource(ctx.tx, 'conversationIssues', 'byConversation', conversation)
        : indexSource(ctx.tx, 'conversationIssues', 'byOrganization', organization)
  // A cluster id of another organization lists nothing (its issues are not revealed).
  const filter =
    query.cluster !== undefined ? (row: ConversationIssueRow) => inOrg(row) && (conversation === undefined || row.conversation === conversation) : undefined
  return mapPage(paginateScan(source, query, filter), (e) => e.row)
}

export const conversationHandlers = implement(conversationOperations, {
  listConversationsClusters: (ctx, { params, query }) => clustersPage(ctx, params.organizationId, query),
  getConversationsCluster: (ctx, { params }) => encodeCluster(ctx, requireCluster(ctx, params.organizationId, params.clusterId)),
  updateConversationsCluster: (ctx, { params, body }) =>
    encodeCluster(ctx, setMuted(ctx, requireCluster(ctx, params.organizationId, params.clusterId), body.muted)),
  listConversations: (ctx, { params, query }) => {
    const source =
      query.source === undefined
        ? indexSource(ctx.tx, 'conversations', 'byOrganization', params.organizationId)
        : indexSource(ctx.tx, 'conversations', 'bySource', `${params.organizationId}/${query.source}`)
    return mapPage(paginateScan(source, query), (e) => encodeConversation(ctx, e.row))
  },
  ingestConversation: (ctx, { params, body }) => void ingestConversation(ctx, params.organizationId, body),
  listConversationsIssues: (ctx, { params, query }) => mapPage(issuesPage(ctx, params.organizationId, query), (row) => encodeIssueWithConversation(ctx, row)),
  getConversationsIssue: (ctx, { params }) => encodeIssueWithConversation(ctx, requireIssue(ctx, params.organizationId, params.issueId)),
  getConversation: (ctx, { params }) => encodeConversationDetail(ctx, requireConversation(ctx, params.organizationId, params.conversationId)),
})
