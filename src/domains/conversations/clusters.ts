import type { Bow } from 'wink-nlp'
import type { Context } from '../context.js'
import type { ConversationIssueRow, Impact, IssueClusterRow } from './rows.js'
import type { DocBlock, JsonDocument } from '../content/document.js'
import { strongest } from './extract.js'
import { addInto, dot } from './linkage.js'
import type { TextTools } from './text-tools.js'

/**
 * Grouping issues about the same problem. Each issue is a bag of its terms (text-tools.ts),
 * weighted by BM25 over every issue of the organization, so a term most issues share ("page",
 * "space") counts for little and a rare one ("cover", "history") for much. Issues are compared
 * by cosine similarity, and an issue with a group of issues by average linkage (linkage.ts): the
 * mean of its similarities to the group's members. A new issue joins the cluster it resembles
 * most when that mean reaches SIMILARITY_THRESHOLD, and starts a cluster of its own otherwise;
 * issues of one batch (one conversation) are placed in order, each seeing the ones placed before
 * it. Since the weights change as issues come in, recluster.ts then groups the organization's
 * issues again from scratch when the corpus changed enough.
 *
 * The threshold is measured, not guessed: bench/clustering.ts clusters samples of a corpus of 42
 * support conversations about 14 problems of a docs product (bench/clustering-corpus.ts, apart
 * from the tests' corpora), organizations of 5 to 14 problems and small ones of 1 to 3, and keeps
 * the threshold (with text-tools.ts BACKGROUND_ISSUES) of the best BCubed F0.5 (precision counts
 * twice: a cluster mixing problems hides one, a split problem still shows). It was 0.125, with
 * F0.5 within 0.001 of its best from 0.115 to 0.13; 0.10 mixes more, 0.15 splits more.
 */
export const SIMILARITY_THRESHOLD = 0.125

/** A cluster a new issue joins: an existing one's id, or `{ fresh: n }`, the n-th new cluster of the batch. */
export type Placement = { cluster: string } | { fresh: number }

export function assignClusters(
  tools: TextTools,
  existing: ReadonlyArray<{ terms: readonly string[]; cluster: string }>,
  incoming: ReadonlyArray<{ terms: readonly string[] }>,
): Placement[] {
  const bows = tools.weigh([...existing.map((e) => e.terms), ...incoming.map((i) => i.terms)])
  // Each cluster as the sum of its members' bags and their number.
  const groups = new Map<string, { sum: Bow; size: number }>()
  const add = (key: string, bow: Bow) => {
    const group = groups.get(key) ?? groups.set(key, { sum: {}, size: 0 }).get(key)!
    addInto(group.sum, bow)
    group.size++
  }
  existing.forEach((e, k) => add(e.cluster, bows[k]!))
  let fresh = 0
  return incoming.map((_, j) => {
    const bow = bows[existing.length + j]!
    let best: string | undefined
    let bestScore = -Infinity
    for (const [key, group] of groups) {
      const score = dot(bow, group.sum) / group.size
      if (score > bestScore) [best, bestScore] = [key, score]
    }
    const key = best !== undefined && bestScore >= SIMILARITY_THRESHOLD ? best : `\u0000fresh:${fresh++}`
    add(key, bow)
    return key.startsWith('\u0000fresh:') ? { fresh: Number(key.slice(7)) } : { cluster: key }
  })
}

const paragraph = (text: string): DocBlock => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
})
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** A cluster's summary: how often and how badly, and the latest distinct titles (at most 5). */
function summaryOf(issues: readonly ConversationIssueRow[], impact: Impact): JsonDocument {
  const conversations = new Set(issues.map((i) => i.conversation)).size
  const titles = [...new Set([...issues].reverse().map((i) => i.title))].slice(0, 5)
  return {
    object: 'document',
    data: { schemaVersion: 1 },
    nodes: [
      paragraph(`${plural(issues.length, 'issue')} reported in ${plural(conversations, 'conversation')}; the strongest impact is ${impact}.`),
      { object: 'block', type: 'list-unordered', data: {}, nodes: titles.map((t) => ({ object: 'block', type: 'list-item', nodes: [paragraph(t)] })) },
    ],
  }
}

/**
 * Bring a cluster up to date with its issues after they changed: label (its first issue's title)
 * and summary; `updatedAt` moves. A cluster left without issues is deleted.
 */
export function refreshCluster(ctx: Context, id: string): void {
  const cluster = ctx.tx.get('issueClusters', id)
  if (!cluster) return
  const issues = ctx.tx.scan('conversationIssues', 'byCluster', id).map((e) => e.row)
  if (issues.length === 0) {
    ctx.tx.delete('issueClusters', id)
    return
  }
  const next: IssueClusterRow = {
    ...cluster,
    label: issues[0]!.title,
    summary: summaryOf(issues, strongest(issues.map((i) => i.impact))!),
    updatedAt: ctx.nowIso(),
  }
  ctx.tx.update('issueClusters', next)
}

/** A new cluster (its label and summary are set by `refreshCluster` once its issues are in). */
export function newCluster(ctx: Context, organization: string): IssueClusterRow {
  const now = ctx.nowIso()
  return ctx.tx.insert('issueClusters', {
    id: ctx.newId(),
    organization,
    label: '',
    summary: { object: 'document', data: {}, nodes: [] },
    muted: false,
    createdAt: now,
    updatedAt: now,
  })
}
