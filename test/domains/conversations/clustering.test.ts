import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { call, createWorld, type World } from '../../helpers.js'
import { DISTINCT_PROBLEMS, EARLIER_PROBLEMS, PAGE_PROBLEMS, type Conversation } from './corpus.js'

/**
 * Clustering through api.fetch, on corpora of a docs product where nearly every conversation
 * says "page", "space" or "site" (corpus.ts): each problem must end in exactly one
 * cluster of its own, whatever order the conversations come in (fast-check shuffles, fixed seed
 * so a red run is repeatable) and whether they are processed one by one or together.
 */
const SEED = 20260301
const base = (w: World) => `/v1/orgs/${w.org.id}`
const msg = (body: string, role: 'user' | 'assistant' = 'user') => ({ type: 'message', role, body })

async function ingestAll(w: World, conversations: readonly Conversation[], oneByOne: boolean) {
  for (const [, id, subject, body] of conversations) {
    const res = await call(w.api, w.tokens.ada, 'POST', `${base(w)}/conversations`, {
      id,
      ...(subject ? { subject } : {}),
      parts: [msg(body), msg('Thanks, we are looking into it.', 'assistant')],
    })
    expect(res.status).toBe(204)
    if (oneByOne) await w.api.idle()
  }
  await w.api.idle()
}

type Listed = { issue: { cluster: string }; conversation: { id: string } }

/** Each problem of `corpus` in exactly one cluster, that cluster holding no other problem. */
async function expectOneClusterPerProblem(w: World, corpus: readonly Conversation[]) {
  const issues = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues?limit=1000`)).body.items as Listed[]
  const clusterOf = new Map(issues.map((i) => [i.conversation.id, i.issue.cluster]))
  const problemsOf = new Map<string, Set<string>>()
  for (const [problem, id] of corpus) {
    const cluster = clusterOf.get(id)
    expect(cluster, id).toBeDefined()
    problemsOf.set(cluster!, (problemsOf.get(cluster!) ?? new Set()).add(problem))
  }
  const problems = new Set(corpus.map(([p]) => p))
  // As many clusters as problems, and none holding two: each problem has one cluster of its own.
  expect([...problemsOf.values()].map((p) => [...p].join('+')).sort()).toEqual([...problems].sort())
}

const shuffled = (corpus: readonly Conversation[]) => fc.shuffledSubarray([...corpus], { minLength: corpus.length, maxLength: corpus.length })

describe('conversations: clustering problems that share their vocabulary', () => {
  it('five problems of pages (deleting, permissions, history, moving, cover images), in any order: one cluster each', async () => {
    // Every conversation gives one issue, so the clusters are the problems' and nothing else's.
    await fc.assert(
      fc.asyncProperty(shuffled(PAGE_PROBLEMS), fc.boolean(), async (order, oneByOne) => {
        const w = await createWorld()
        await ingestAll(w, order, oneByOne)
        expect((await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-issues`)).body.count).toBe(PAGE_PROBLEMS.length)
        await expectOneClusterPerProblem(w, PAGE_PROBLEMS)
        expect((await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters`)).body.count).toBe(5)
      }),
      { numRuns: 8, seed: SEED },
    )
  })

  it('the same five after 23 earlier conversations about nine other problems ("Search does not find pages..." among them)', async () => {
    await fc.assert(
      fc.asyncProperty(shuffled(EARLIER_PROBLEMS), shuffled(PAGE_PROBLEMS), async (earlier, later) => {
        const w = await createWorld()
        await ingestAll(w, earlier, false)
        await expectOneClusterPerProblem(w, EARLIER_PROBLEMS)
        await ingestAll(w, later, true)
        const all = [...EARLIER_PROBLEMS.map(([p, ...rest]): Conversation => [`earlier:${p}`, ...rest]), ...PAGE_PROBLEMS]
        await expectOneClusterPerProblem(w, all)
        expect((await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters`)).body.count).toBe(14)
      }),
      { numRuns: 4, seed: SEED + 1 },
    )
  })

  it('seven problems whose words do not overlap, three conversations each, in any order: one cluster each, none split', async () => {
    await fc.assert(
      fc.asyncProperty(shuffled(DISTINCT_PROBLEMS), fc.boolean(), async (order, oneByOne) => {
        const w = await createWorld()
        await ingestAll(w, order, oneByOne)
        await expectOneClusterPerProblem(w, DISTINCT_PROBLEMS)
        expect((await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters`)).body.count).toBe(7)
      }),
      { numRuns: 6, seed: SEED + 2 },
    )
  })

  it('a cluster keeps its id, createdAt and muted while its issues stay together as others come in', async () => {
    const w = await createWorld()
    const covers = PAGE_PROBLEMS.filter(([p]) => p === 'cover')
    await ingestAll(w, covers.slice(0, 2), true)
    const [cluster] = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters`)).body.items
    expect(cluster.stats.issues).toBe(2)
    await call(w.api, w.tokens.ada, 'PATCH', `${base(w)}/conversations-clusters/${cluster.id}`, { muted: true })
    w.clock.advance(60_000)
    await ingestAll(w, [...EARLIER_PROBLEMS, ...PAGE_PROBLEMS.filter(([p]) => p !== 'cover'), covers[2]!], true)
    const after = (await call(w.api, w.tokens.ada, 'GET', `${base(w)}/conversations-clusters/${cluster.id}`)).body
    expect(after).toMatchObject({ id: cluster.id, createdAt: cluster.createdAt, muted: true, label: cluster.label, stats: { issues: 3, conversations: 3 } })
  })
})
