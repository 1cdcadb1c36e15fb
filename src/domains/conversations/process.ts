import type { Context } from '../context.js'
import type { Job } from '../context.js'
import type { ConversationRow } from './rows.js'
import type { DocBlock, JsonDocument } from '../content/document.js'
import { assignClusters, newCluster, refreshCluster } from './clusters.js'
import { extractIssues, strongest, type ExtractedIssue } from './extract.js'
import { reclusterOrganization } from './recluster.js'
import { loadTextTools, type TextTools } from './text-tools.js'

/**
 * Processing an ingested conversation, a background job: `pending` (ingested) → `processing` →
 * `processed` (its issues extracted and clustered, `processedAt` and `impact` set) or `failed`
 * (`error` says why). The job holds the ingest's `runToken`: a re-ingest of the same conversation
 * supersedes it, and it then writes nothing.
 */

function start(ctx: Context, id: string, token: string): ConversationRow | undefined {
  const row = ctx.tx.get('conversations', id)
  if (!row || row.runToken !== token) return undefined
  return ctx.tx.update('conversations', { ...row, status: 'processing' })
}

const details = (issue: ExtractedIssue): JsonDocument => ({
  object: 'document',
  data: { schemaVersion: 1 },
  nodes: issue.sentences.map((text): DocBlock => ({
    object: 'block',
    type: 'paragraph',
    data: {},
    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
  })),
})

/** Write the issues, each in its cluster, in one transaction with the conversation's new state. */
function finish(ctx: Context, id: string, token: string, tools: TextTools, extracted: readonly ExtractedIssue[]): void {
  const row = ctx.tx.get('conversations', id)
  if (!row || row.runToken !== token) return
  const existing = ctx.tx.scan('conversationIssues', 'byOrganization', row.organization).map((e) => e.row)
  const placements = assignClusters(tools, existing, extracted)
  const fresh = new Map<number, string>()
  const touched = new Set<string>()
  extracted.forEach((issue, i) => {
    const p = placements[i]!
    let cluster: string
    if ('cluster' in p) cluster = p.cluster
    else {
      cluster = fresh.get(p.fresh) ?? newCluster(ctx, row.organization).id
      fresh.set(p.fresh, cluster)
    }
    touched.add(cluster)
    ctx.tx.insert('conversationIssues', {
      id: ctx.newId(),
      organization: row.organization,
      conversation: row.id,
      cluster,
      title: issue.title,
      details: details(issue),
      impact: issue.impact,
      createdAt: row.createdAt,
      ingestedAt: row.ingestedAt,
      terms: issue.terms,
    })
  })
  for (const cluster of touched) refreshCluster(ctx, cluster)
  reclusterOrganization(ctx, tools, row.organization, existing.length)
  const next: ConversationRow = { ...row, status: 'processed', processedAt: ctx.nowIso() }
  const impact = strongest(extracted.map((i) => i.impact))
  if (impact) next.impact = impact
  else delete next.impact
  delete next.error
  ctx.tx.update('conversations', next)
}

function recordFailure(ctx: Context, id: string, token: string, error: unknown): void {
  const row = ctx.tx.get('conversations', id)
  if (!row || row.runToken !== token) return
  ctx.tx.update('conversations', { ...row, status: 'failed', error: (error instanceof Error ? error.message : String(error)) || 'Processing failed' })
}

/** The job processing one ingest of a conversation. */
export function processJob(id: string, token: string): Job {
  return {
    async run(env) {
      const row = await env.transaction((ctx) => start(ctx, id, token))
      if (!row) return
      const tools = await loadTextTools()
      const extracted = extractIssues(tools, row)
      await env.transaction((ctx) => finish(ctx, id, token, tools, extracted))
    },
    failed: (ctx, error) => recordFailure(ctx, id, token, error),
  }
}
