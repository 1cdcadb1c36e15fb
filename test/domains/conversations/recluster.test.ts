import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Context } from '../../../src/domains/context.js'
import { assignClusters, newCluster } from '../../../src/domains/conversations/clusters.js'
import { extractIssues } from '../../../src/domains/conversations/extract.js'
import { averageLinkage } from '../../../src/domains/conversations/linkage.js'
import { changedEnough, reclusterOrganization } from '../../../src/domains/conversations/recluster.js'
import { loadTextTools } from '../../../src/domains/conversations/text-tools.js'
import { createWorld } from '../../helpers.js'
import { DISTINCT_PROBLEMS, EARLIER_PROBLEMS, PAGE_PROBLEMS } from './corpus.js'

/**
 * The parts of clustering below the API: average linkage by the nearest-neighbour chain against
 * the plain algorithm, when the organization is grouped again, and how a new grouping is written
 * over the clusters (ids kept where issues stay together, muted kept, emptied clusters gone).
 */

/** Average linkage the plain way: merge the two most similar groups while their mean similarity reaches `threshold`. */
function naiveAverageLinkage(sim: readonly (readonly number[])[], threshold: number): number[] {
  const groups = sim.map((_, i) => [i])
  const mean = (a: number[], b: number[]) => a.reduce((s, i) => s + b.reduce((t, j) => t + sim[i]![j]!, 0), 0) / (a.length * b.length)
  for (;;) {
    let best: [number, number, number] | undefined
    for (let x = 0; x < groups.length; x++)
      for (let y = x + 1; y < groups.length; y++) {
        const m = mean(groups[x]!, groups[y]!)
        if (!best || m > best[2]) best = [x, y, m]
      }
    if (!best || best[2] < threshold) break
    groups[best[0]]!.push(...groups[best[1]]!)
    groups.splice(best[1], 1)
  }
  const label: number[] = []
  groups.forEach((g, k) => g.forEach((i) => (label[i] = k)))
  // Numbered by first item, as averageLinkage numbers them.
  const numbers = new Map<number, number>()
  return label.map((k) => numbers.get(k) ?? numbers.set(k, numbers.size).get(k)!)
}

describe('conversations: average linkage', () => {
  it('the nearest-neighbour chain cuts the same groups as merging the most similar pair first', () => {
    // Distinct similarities: with ties, both ways may merge different pairs first, and rightly so.
    const matrix = fc
      .integer({ min: 1, max: 14 })
      .chain((n) =>
        fc.tuple(fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: (n * (n - 1)) / 2, maxLength: (n * (n - 1)) / 2 }), fc.constant(n)),
      )
    fc.assert(
      fc.property(matrix, fc.double({ min: 0.05, max: 0.9, noNaN: true }), ([upper, n], threshold) => {
        const sim = Array.from({ length: n }, () => new Array<number>(n).fill(1))
        let k = 0
        for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) sim[i]![j] = sim[j]![i] = upper[k++]! / 1_000_000
        // Float32 in the matrix, as similarities() gives it.
        const flat = new Float32Array(n * n)
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) flat[i * n + j] = sim[i]![j]!
        const exact = sim.map((row) => row.map((v) => Math.fround(v)))
        expect(averageLinkage(n, flat, threshold)).toEqual(naiveAverageLinkage(exact, threshold))
      }),
      { numRuns: 300, seed: 20260301 },
    )
  })

  it('groups the organization again after every processing up to 200 issues, then at each 5% of growth, never past 2,000', () => {
    expect([changedEnough(0, 1), changedEnough(150, 151), changedEnough(199, 200), changedEnough(200, 200)]).toEqual([true, true, true, true])
    // Steps of 5% past 200: 1.05^109 ≈ 204.4, 1.05^110 ≈ 214.6.
    expect([changedEnough(200, 201), changedEnough(204, 205), changedEnough(205, 214), changedEnough(214, 215)]).toEqual([false, true, false, true])
    expect([changedEnough(1900, 2000), changedEnough(2000, 2001), changedEnough(3000, 4000), changedEnough(1, 0)]).toEqual([true, false, false, false])
  })
})

describe('conversations: placing a new issue', () => {
  it('an issue comes to the cluster of its problem when placed alone against the others (past 200 issues, as between regroupings)', async () => {
    const tools = await loadTextTools()
    for (const corpus of [[...EARLIER_PROBLEMS, ...PAGE_PROBLEMS], DISTINCT_PROBLEMS]) {
      const issues = corpus.map(([problem, , subject, body]) => {
        const [extracted, ...more] = extractIssues(tools, { subject: subject || undefined, parts: [{ type: 'message', role: 'user', body }] })
        expect(more).toEqual([])
        return { problem, terms: extracted!.terms }
      })
      // Leave each issue out, the others in clusters by problem, and place it.
      issues.forEach((left, k) => {
        const others = issues.filter((_, i) => i !== k).map((i) => ({ terms: i.terms, cluster: i.problem }))
        expect(assignClusters(tools, others, [left]), `${corpus[k]![1]}`).toEqual([{ cluster: left.problem }])
      })
    }
  })
})

describe('conversations: grouping the organization again', () => {
  function issue(ctx: Context, organization: string, cluster: string, terms: string[]) {
    const now = ctx.nowIso()
    return ctx.tx.insert('conversationIssues', {
      id: ctx.newId(),
      organization,
      conversation: `${organization}/c-${terms.join('-')}`,
      cluster,
      title: terms.join(' '),
      details: { object: 'document', data: {}, nodes: [] },
      impact: 'low',
      createdAt: now,
      ingestedAt: now,
      terms,
    }).id
  }

  it('a cluster keeps its id where most of its issues stay, a split-off is a new cluster (muted like its source), an emptied one goes', async () => {
    const w = await createWorld()
    const tools = await loadTextTools()
    const org = w.org.id
    const ids = w.api.system((ctx) => {
      const [a, b, c, d] = [0, 1, 2, 3].map(() => newCluster(ctx, org).id)
      ctx.tx.update('issueClusters', { ...ctx.tx.get('issueClusters', a!)!, muted: true })
      ctx.tx.update('issueClusters', { ...ctx.tx.get('issueClusters', d!)!, muted: true })
      const issues = {
        // Cluster a holds two issues about alpha and one about gamma that belongs with b's.
        a1: issue(ctx, org, a!, ['alpha', 'beta']),
        a2: issue(ctx, org, a!, ['alpha', 'beta']),
        a3: issue(ctx, org, a!, ['gamma', 'delta']),
        b1: issue(ctx, org, b!, ['gamma', 'delta']),
        b2: issue(ctx, org, b!, ['gamma', 'delta', 'epsilon']),
        // c holds one about alpha: it joins a.
        c1: issue(ctx, org, c!, ['alpha', 'beta']),
        // d holds two problems, two issues each: the first keeps d, the other is a new cluster.
        d1: issue(ctx, org, d!, ['kappa', 'lambda']),
        d2: issue(ctx, org, d!, ['kappa', 'lambda']),
        d3: issue(ctx, org, d!, ['mu', 'nu']),
        d4: issue(ctx, org, d!, ['mu', 'nu']),
      }
      return { clusters: { a: a!, b: b!, c: c!, d: d! }, issues }
    })
    w.clock.advance(1000)
    w.api.system((ctx) => reclusterOrganization(ctx, tools, org, 0))
    const clusterOf = (id: string) => w.api.store.read((tx) => tx.get('conversationIssues', id)!.cluster)
    const { a, b, c, d } = ids.clusters
    const got = Object.fromEntries(Object.entries(ids.issues).map(([k, id]) => [k, clusterOf(id)]))
    const e = got.d3!
    expect(got).toEqual({ a1: a, a2: a, a3: b, b1: b, b2: b, c1: a, d1: d, d2: d, d3: e, d4: e })
    expect([a, b, c, d]).not.toContain(e)
    const cluster = (id: string) => w.api.store.read((tx) => tx.get('issueClusters', id))
    expect(cluster(c)).toBeUndefined()
    expect(cluster(a)).toMatchObject({ muted: true, label: 'alpha beta', createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-01T10:00:01.000Z' })
    expect(cluster(b)).toMatchObject({ muted: false, label: 'gamma delta' })
    expect(cluster(d)).toMatchObject({ muted: true, label: 'kappa lambda' })
    expect(cluster(e)).toMatchObject({ muted: true, label: 'mu nu', createdAt: '2026-03-01T10:00:01.000Z' })
    // Grouping again what did not change writes nothing.
    const before = w.api.dump()
    w.clock.advance(1000)
    w.api.system((ctx) => reclusterOrganization(ctx, tools, org, 0))
    expect(w.api.dump()).toEqual(before)
  })
})
