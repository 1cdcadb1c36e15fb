import type { Context } from '../context.js'
import type { ConversationIssueRow } from './rows.js'
import { newCluster, refreshCluster, SIMILARITY_THRESHOLD } from './clusters.js'
import { averageLinkage, similarities } from './linkage.js'
import type { TextTools } from './text-tools.js'

/**
 * Grouping an organization's issues again from scratch. A new issue is placed against the
 * clusters as they stand (clusters.ts), but the weights it is compared with change as issues
 * come in: the first issues of an organization see "page" as a rare word, and an early choice
 * made with those weights would stay. So, when the corpus changed enough, every issue of the
 * organization is clustered again by average linkage (linkage.ts) with the weights of now, and
 * the result is written over the clusters:
 * - a new group keeps the id of the cluster it shares most issues with (the largest overlaps
 *   are matched first; ties go to the older cluster), so a cluster keeping its issues keeps its
 *   id, its `muted` and its `createdAt`, and one taking in another's issues absorbs it;
 * - a group matching no cluster left is a new cluster (muted if most of its issues came from a
 *   muted one), and a cluster left without issues is deleted;
 * - only issues whose cluster changes are written; nothing is written when nothing changes.
 * It runs in the processing job's transaction, after the new issues were placed.
 */

/** Up to this many issues, every processing groups them again (cheap at this size: bench/README.md). */
export const RECLUSTER_ALWAYS_UP_TO = 200
/** Beyond it, each time the number of issues grows by 5% (the weights then move little between times). */
export const RECLUSTER_GROWTH = 1.05
/**
 * Beyond this many issues, never: the similarity matrix takes n² × 4 bytes (16 MB at 2,000), and
 * a grouping's time grows as fast (the times measured are in bench/README.md).
 */
export const RECLUSTER_LIMIT = 2000

/** Whether going from `before` to `after` issues changed the corpus enough to group it again. */
export function changedEnough(before: number, after: number): boolean {
  if (after > RECLUSTER_LIMIT || after === 0) return false
  if (after <= RECLUSTER_ALWAYS_UP_TO) return true
  const step = (n: number) => Math.floor(Math.log(Math.max(n, 1)) / Math.log(RECLUSTER_GROWTH))
  return step(after) !== step(before)
}

/**
 * Group `issues` (in their stored order): each issue's group number, groups numbered by first
 * issue. `threshold` and `background` (text-tools.ts) are there for bench/clustering.ts.
 */
export function groupIssues(
  tools: TextTools,
  issues: ReadonlyArray<{ terms: readonly string[] }>,
  threshold = SIMILARITY_THRESHOLD,
  background?: number,
): number[] {
  const bows = tools.weigh(
    issues.map((i) => i.terms),
    background,
  )
  return averageLinkage(issues.length, similarities(bows), threshold)
}

/** Which cluster id each group takes: an existing cluster's, or undefined for a new one. */
function matchGroups(issues: readonly ConversationIssueRow[], groups: readonly number[], age: ReadonlyMap<string, number>): Array<string | undefined> {
  const overlap = new Map<string, { group: number; cluster: string; count: number }>()
  issues.forEach((issue, i) => {
    const key = `${groups[i]}\u0000${issue.cluster}`
    const entry = overlap.get(key) ?? overlap.set(key, { group: groups[i]!, cluster: issue.cluster, count: 0 }).get(key)!
    entry.count++
  })
  const pairs = [...overlap.values()].sort((x, y) => y.count - x.count || age.get(x.cluster)! - age.get(y.cluster)! || x.group - y.group)
  const ids: Array<string | undefined> = []
  const taken = new Set<string>()
  for (const { group, cluster } of pairs) {
    if (ids[group] !== undefined || taken.has(cluster)) continue
    ids[group] = cluster
    taken.add(cluster)
  }
  return ids
}

/** Group the organization's issues again when they changed enough since `before` issues (see above). */
export function reclusterOrganization(ctx: Context, tools: TextTools, organization: string, before: number): void {
  const issues = ctx.tx.scan('conversationIssues', 'byOrganization', organization).map((e) => e.row)
  if (!changedEnough(before, issues.length)) return
  const groups = groupIssues(tools, issues)
  // A cluster's age: where its first issue stands (issues are stored in the order they came).
  const age = new Map<string, number>()
  issues.forEach((issue, i) => age.has(issue.cluster) || age.set(issue.cluster, i))
  const ids = matchGroups(issues, groups, age)
  const touched = new Set<string>()
  issues.forEach((issue, i) => {
    const group = groups[i]!
    let id = ids[group]
    if (id === undefined) {
      // Muted when most of its issues come from a muted cluster.
      const members = issues.filter((_, k) => groups[k] === group)
      const muted = members.filter((m) => ctx.tx.get('issueClusters', m.cluster)?.muted).length * 2 > members.length
      const cluster = newCluster(ctx, organization)
      if (muted) ctx.tx.update('issueClusters', { ...cluster, muted })
      ids[group] = id = cluster.id
    }
    if (issue.cluster === id) return
    touched.add(issue.cluster).add(id)
    ctx.tx.update('conversationIssues', { ...issue, cluster: id })
  })
  for (const cluster of touched) refreshCluster(ctx, cluster)
}
