import { API_CORE } from '../src/http/api-core.js'
import { compare, formatOps, median } from './harness.js'
import type { Result } from './measures.js'
import { apiWorld, BASE, expectStatus, type World } from './world.js'
import type { DocsApi } from '../src/index.js'

/**
 * The search measures: an organization of spaces of 100 pages each (10 chapters of 9 pages), or
 * of 10,000 (100 chapters of 99), filled as a user fills it (a change request per space,
 * `insert_page` batches of 50 with markdown bodies, a merge). Bodies are made of words of a
 * made-up vocabulary of 3,000 words drawn with Zipf's law (the word of rank r about 1/r as often
 * as the commonest), as natural text is: a few words are in nearly every page, most in a few.
 * Each leaf has an opening paragraph and two sections under `##` headings, about 110 words in all.
 */

const VOCABULARY = 3_000

/** A repeatable pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SYLLABLES = [
  'ka',
  'ro',
  'mi',
  'ten',
  'sul',
  'por',
  'da',
  've',
  'lin',
  'gra',
  'fe',
  'tos',
  'bu',
  'nar',
  'qui',
  'zel',
  'ho',
  'pra',
  'mes',
  'col',
  'un',
  'ba',
  'tri',
  'sen',
  'ox',
  'lu',
  'dre',
  'fan',
  'gi',
  'wo',
  'ped',
  'sta',
  'ble',
  'cor',
  'vin',
  'ask',
]

/** The vocabulary, commonest first: distinct words of 2 to 4 syllables. */
export const WORDS: readonly string[] = (() => {
  const rnd = random(7)
  const out = new Set<string>()
  while (out.size < VOCABULARY) out.add(Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => SYLLABLES[Math.floor(rnd() * SYLLABLES.length)]).join(''))
  return [...out]
})()

/** Cumulative Zipf weights, for drawing a word by rank. */
const CUMULATIVE = (() => {
  const out: number[] = []
  let sum = 0
  for (let r = 1; r <= VOCABULARY; r++) out.push((sum += 1 / r))
  return out.map((c) => c / sum)
})()

function drawWord(rnd: () => number): string {
  const x = rnd()
  let lo = 0
  let hi = CUMULATIVE.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (CUMULATIVE[mid]! < x) lo = mid + 1
    else hi = mid
  }
  return WORDS[lo]!
}

const sentence = (rnd: () => number, n: number) => Array.from({ length: n }, () => drawWord(rnd)).join(' ')

/** A leaf's markdown (no leading `#` heading, so the title stays). */
export const leafMarkdown = (rnd: () => number) =>
  `${sentence(rnd, 30)}.\n\n## ${sentence(rnd, 2)}\n\n${sentence(rnd, 40)}.\n\n## ${sentence(rnd, 2)}\n\n${sentence(rnd, 40)}.\n`

async function send(w: World, method: string, path: string, status: number, body?: unknown): Promise<string> {
  const headers: Record<string, string> = { authorization: `Bearer ${w.token}` }
  const init: RequestInit = { method, headers }
  if (body !== undefined) {
    headers['content-type'] = 'application/json'
    init.body = JSON.stringify(body)
  }
  return expectStatus(await w.fetch(new Request(`${BASE}${path}`, init)), status)
}

export interface SearchWorld extends World {
  api: DocsApi
  /** The leaves of each space (pages with a body), by space id. */
  leaves: Map<string, string[]>
}

/** Open a change request, apply `batches` of changes (returns the pages of each), merge it. */
async function edit(w: World, space: string, batches: Array<(pages: string[][]) => unknown[]>): Promise<string[][]> {
  const cr = (JSON.parse(await send(w, 'POST', `/v1/spaces/${space}/change-requests`, 201, { subject: 'Edit' })) as { id: string }).id
  const pages: string[][] = []
  for (const batch of batches) {
    const text = await send(w, 'POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, 200, { changes: batch(pages) })
    pages.push((JSON.parse(text) as { changes: Array<{ page?: { id: string } }> }).changes.map((c) => c.page?.id ?? ''))
  }
  const merged = await send(w, 'POST', `/v1/spaces/${space}/change-requests/${cr}/merge`, 200)
  if (!merged.includes('"result":"merge"')) throw new Error(`the merge did not merge: ${merged.slice(0, 200)}`)
  return pages
}

/** An API whose organization has `spaces` spaces of `pages` pages each (a square: 100 or 10,000), merged into main. */
export async function searchWorld(spaces: number, seed = 1, pages = 100): Promise<SearchWorld> {
  const base = await apiWorld(spaces)
  const w: SearchWorld = { ...base, leaves: new Map() }
  const rnd = random(seed)
  const chapters = Math.round(Math.sqrt(pages))
  const perChapter = chapters - 1
  const batch = 50
  for (const space of w.ids) {
    const leaf = (chapterIds: string[], j: number) => ({
      operation: 'insert_page',
      title: `${sentence(rnd, 2)} ${j}`,
      into: chapterIds[Math.floor(j / perChapter)],
      document: { markdown: leafMarkdown(rnd) },
    })
    // Chapters first (batches of 50), then the leaves under them.
    const chapterBatches = Math.ceil(chapters / batch)
    const batches: Array<(done: string[][]) => unknown[]> = []
    for (let b = 0; b < chapterBatches; b++) {
      batches.push(() =>
        Array.from({ length: Math.min(batch, chapters - b * batch) }, (_, c) => ({
          operation: 'insert_page',
          title: `Chapter ${b * batch + c}`,
          document: {},
        })),
      )
    }
    const total = chapters * perChapter
    for (let from = 0; from < total; from += batch) {
      batches.push((done) => Array.from({ length: Math.min(batch, total - from) }, (_, j) => leaf(done.slice(0, chapterBatches).flat(), from + j)))
    }
    const done = await edit(w, space, batches)
    w.leaves.set(space, done.slice(chapterBatches).flat())
  }
  return w
}

/** CPU milliseconds of `fn`. */
async function cpu(fn: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage()
  await fn()
  const { user, system } = process.cpuUsage(start)
  return (user + system) / 1000
}

/** The queries: words from common to rare (the 20 commonest left out: they are in nearly every page), pairs, a prefix, typos (a letter left out). */
export function queries(): string[] {
  const at = (rank: number) => WORDS[rank - 1]!
  const single = [25, 50, 100, 200, 400, 800, 1600, 2400].map(at)
  const pairs = [
    [60, 300],
    [150, 900],
    [40, 2000],
  ].map(([a, b]) => `${at(a!)} ${at(b!)}`)
  const typo = (w: string) => `${w.slice(0, 3)}${w.slice(4)}`
  return [...single, ...pairs, at(120).slice(0, 4), typo(at(90)), typo(at(700))]
}

const QUERY_ROUNDS = 15

/**
 * (j): a search at 10,000 pages in 100 spaces: `GET /v1/spaces/{id}/search` (a space of 100 pages,
 * in its own index) and `GET /v1/orgs/{id}/search` (every space, in the index of all 10,000), each
 * query of `queries()` QUERY_ROUNDS times, after a first search of each kind built the indexes
 * (the organization's, then each space's own, untimed). The result is the median CPU time per
 * request (the slowest query's median shown too).
 */
export async function searchSpeedMeasure(): Promise<Result> {
  const w = await searchWorld(100)
  const qs = queries()
  const build = await cpu(() => send(w, 'GET', `/v1/orgs/${w.organization}/search?query=${qs[0]}`, 200))
  const buildSpaces = await cpu(async () => {
    for (const id of w.ids) await send(w, 'GET', `/v1/spaces/${id}/search?query=${qs[0]}`, 200)
  })
  const times = { space: [] as number[], org: [] as number[] }
  const perQuery = { space: new Map<string, number[]>(), org: new Map<string, number[]>() }
  for (let round = 0; round < QUERY_ROUNDS; round++) {
    for (const [i, q] of qs.entries()) {
      const space = w.ids[(round * qs.length + i) % w.ids.length]!
      for (const [kind, path] of [
        ['space', `/v1/spaces/${space}/search`],
        ['org', `/v1/orgs/${w.organization}/search`],
      ] as const) {
        const ms = await cpu(() => send(w, 'GET', `${path}?query=${encodeURIComponent(q)}`, 200))
        if (round === 0) continue // warm-up
        times[kind].push(ms)
        perQuery[kind].set(q, [...(perQuery[kind].get(q) ?? []), ms])
      }
    }
  }
  const worst = (kind: 'space' | 'org') => Math.max(...[...perQuery[kind].values()].map(median))
  // Each query's medians, on stderr (progress output), to see where the cost lies.
  for (const q of qs)
    console.error(
      `    ${q.padEnd(24)} space ${median(perQuery.space.get(q)!).toFixed(2).padStart(6)} ms  org ${median(perQuery.org.get(q)!).toFixed(2).padStart(6)} ms`,
    )
  const [space, org] = [median(times.space), median(times.org)]
  return {
    api: `space ${space.toFixed(2)} ms, org ${org.toFixed(2)} ms (slowest query ${worst('space').toFixed(1)} / ${worst('org').toFixed(1)} ms)`,
    reference: `first searches: org (index of 10,000 pages) ${(build / 1000).toFixed(1)} s, each space (100 pages) ${(buildSpaces / w.ids.length).toFixed(0)} ms`,
    value: Math.max(space, org),
    shown: `${space.toFixed(2)} / ${org.toFixed(2)} ms`,
    met: space < 10 && org < 10,
  }
}

/**
 * The update a merge of 3 pages causes, in a world whose every index was built (an organization
 * search, and each space's own search). Per operation, untimed: a change request on one space
 * (each in turn) rewriting 3 of its leaves, merged. Timed: bringing that space up to its new
 * revision in the indexes holding it (its own and the organization's: what the next search of it
 * does first), which must index exactly 3 pages in each.
 */
async function stagedUpdate(w: SearchWorld, rnd: () => number) {
  await send(w, 'GET', `/v1/orgs/${w.organization}/search?query=${WORDS[30]}`, 200)
  for (const id of w.ids) await send(w, 'GET', `/v1/spaces/${id}/search?query=${WORDS[30]}`, 200)
  const services = w.api[API_CORE].runtime.services
  let space = ''
  return {
    prepare: async (i: number) => {
      space = w.ids[i % w.ids.length]!
      const leaves = w.leaves.get(space)!
      // Leaves far apart, each operation others: in a space of 10,000 pages, 3 other buckets each time.
      const pages = [0, 1, 2].map((k) => leaves[((i * 3 + k) * 7_919) % leaves.length]!)
      await edit(w, space, [() => pages.map((page) => ({ operation: 'update_page', page, document: { markdown: leafMarkdown(rnd) } }))])
    },
    run: async () => {
      const before = services.search.stats.pagesIndexed
      // Inline (a system-like context: no warm-up), as a search's transaction does once warm.
      w.api.store.read((tx) => services.search.of(w.organization).sync({ tx, beforehand: () => undefined }, [tx.get('spaces', space)!]))
      const indexed = services.search.stats.pagesIndexed - before
      if (indexed !== 6) throw new Error(`the merge of 3 pages reindexed ${indexed} pages in 2 indexes, not 3 in each`)
    },
  }
}

/**
 * (k): the index update after a merge of 3 pages into a space of 100 pages, in an organization of
 * 1,000 pages (10 spaces) and of 10,000 (100 spaces). The result is the cost at 10,000 pages
 * over that at 1,000.
 */
export async function searchMergeMeasure(): Promise<Result> {
  const small = await searchWorld(10, 2)
  const large = await searchWorld(100, 3)
  const rnd = random(11)
  const { rates, ratio } = await compare(
    { small: await stagedUpdate(small, rnd), large: await stagedUpdate(large, rnd) },
    { warmup: 40, perRound: 20, rounds: 21 },
  )
  return {
    api: `${formatOps(rates.large!, 'updates/s')} @10k (${(1000 / rates.large!).toFixed(2)} ms)`,
    reference: `${formatOps(rates.small!, 'updates/s')} @1k (${(1000 / rates.small!).toFixed(2)} ms)`,
    value: ratio,
    shown: ratio.toFixed(2),
    met: ratio <= 1.5,
  }
}

/**
 * (l): the same update, the organization holding 10,000 pages each time, merged into a space of
 * 100 pages (100 spaces of 100) or of 10,000 (one space). The result is the cost in the space
 * of 10,000 pages over that in the space of 100.
 */
export async function searchMergeSpaceMeasure(): Promise<Result> {
  const small = await searchWorld(100, 4)
  const large = await searchWorld(1, 5, 10_000)
  const rnd = random(13)
  const { rates, ratio } = await compare(
    { small: await stagedUpdate(small, rnd), large: await stagedUpdate(large, rnd) },
    { warmup: 40, perRound: 20, rounds: 21 },
  )
  return {
    api: `${formatOps(rates.large!, 'updates/s')} in 10k (${(1000 / rates.large!).toFixed(2)} ms)`,
    reference: `${formatOps(rates.small!, 'updates/s')} in 100 (${(1000 / rates.small!).toFixed(2)} ms)`,
    value: ratio,
    shown: ratio.toFixed(2),
    met: ratio <= 1.5,
  }
}

/**
 * How long `fn` held the event loop at most: the longest gap between ticks of a 5 ms timer (wall
 * time), and the most CPU time the process spent between two ticks. On a shared machine the
 * first counts the time the process waited for a CPU; the second is the work itself (GC helper
 * threads included).
 */
async function longestStall<T>(fn: () => Promise<T>): Promise<{ result: T; stall: number; cpuStall: number; wall: number }> {
  let last = performance.now()
  let lastCpu = process.cpuUsage()
  let stall = 0
  let cpuStall = 0
  const tick = () => {
    const now = performance.now()
    const { user, system } = process.cpuUsage(lastCpu)
    stall = Math.max(stall, now - last)
    cpuStall = Math.max(cpuStall, (user + system) / 1000)
    last = now
    lastCpu = process.cpuUsage()
  }
  const timer = setInterval(tick, 5)
  const start = performance.now()
  try {
    const result = await fn()
    tick()
    return { result, stall, cpuStall, wall: performance.now() - start }
  } finally {
    clearInterval(timer)
  }
}

/**
 * (t) `site-search`: a site publishing one space of 10,000 pages (100 chapters of 99), searched
 * as GitBook's renderer's search box does: `POST /v1/orgs/{id}/sites/{id}/search` with the site
 * token of a visit and the body `{ query, mode: 'current', siteSpaceId }`. First, untimed,
 * `prewarmSiteSearch` builds the space's index (its wall time and the longest event-loop stall
 * meanwhile are shown, the stall in wall time and in the process's CPU time: the build runs in
 * slices); then each query of `queries()` QUERY_ROUNDS times, the first round a warm-up. The
 * result is the median CPU time per request.
 */
export async function siteSearchMeasure(): Promise<Result> {
  const w = await searchWorld(1, 6, 10_000)
  const space = w.ids[0]!
  const site = JSON.parse(await send(w, 'POST', `/v1/orgs/${w.organization}/sites`, 201, { title: 'Docs', spaces: [space] })) as { id: string }
  const published = JSON.parse(await send(w, 'POST', `/v1/orgs/${w.organization}/sites/${site.id}/publish`, 200, {})) as { urls: { published: string } }
  const resolve = await w.fetch(
    new Request(`${BASE}/v1/urls/published`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: published.urls.published, visitor: { unsignedClaims: {} } }),
    }),
  )
  const visit = JSON.parse(await expectStatus(resolve, 200)) as { apiToken: string; siteSpace: string }
  const visitor: World = { ...w, token: visit.apiToken }
  const path = `/v1/orgs/${w.organization}/sites/${site.id}/search`
  const prewarm = await longestStall(() => send(visitor, 'POST', `${path}/prewarm`, 204))
  const qs = queries()
  const times: number[] = []
  const perQuery = new Map<string, number[]>()
  for (let round = 0; round < QUERY_ROUNDS; round++) {
    for (const q of qs) {
      const ms = await cpu(() => send(visitor, 'POST', path, 200, { query: q, mode: 'current', siteSpaceId: visit.siteSpace }))
      if (round === 0) continue // warm-up
      times.push(ms)
      perQuery.set(q, [...(perQuery.get(q) ?? []), ms])
    }
  }
  for (const q of qs) console.error(`    ${q.padEnd(24)} site ${median(perQuery.get(q)!).toFixed(2).padStart(6)} ms`)
  const result = median(times)
  const worst = Math.max(...[...perQuery.values()].map(median))
  return {
    api: `${result.toFixed(2)} ms (slowest query ${worst.toFixed(1)} ms)`,
    reference: `prewarm (index of 10,000 pages): ${(prewarm.wall / 1000).toFixed(1)} s, longest stall ${prewarm.stall.toFixed(0)} ms (CPU ${prewarm.cpuStall.toFixed(0)} ms)`,
    value: result,
    shown: `${result.toFixed(2)} ms`,
    met: result < 10,
  }
}
