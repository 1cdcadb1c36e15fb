import { contentChangesMeasure, contentEditMeasure, contentMergeMeasure, contentReadMeasure } from './content.js'
import { renderPageMeasure, resolveUrlMeasure } from './published.js'
import { compare, formatOps, type Comparison } from './harness.js'
import { searchMergeMeasure, searchMergeSpaceMeasure, searchSpeedMeasure, siteSearchMeasure } from './search.js'
import { durableMeasures } from './durable.js'
import { postgresOptionMeasures } from './postgres-options.js'
import { postgresMeasures } from './postgres.js'
import { gitExportEditMeasure, gitExportUnchangedMeasure } from './git-sync.js'
import { importCostMeasure } from './import-cost.js'
import { permissionAggregateMeasure } from './aggregates.js'
import { servedMeasures } from './served.js'
import { stallMeasures } from './stalls.js'
import { apiWorld, auth, baselineWorld, BASE, createRequest, checkWalk, expectStatus, pageUrl, walkList, type Client, type World } from './world.js'

/**
 * The measures of `npm run bench`. Each runs in its own fresh process (see run.ts), so one
 * measure's garbage, JIT state or grown heap never weighs on the next.
 */

export interface Result {
  /** The API's figure, as shown. */
  api: string
  /** The baseline's (or the reference's) figure, as shown. */
  reference: string
  /** The figure compared with the target. */
  value: number
  shown: string
  met: boolean
}

export interface Measure {
  title: string
  target: string
  run: () => Promise<Result>
}

const SPACES = 10_000
/** A stride coprime with SPACES: consecutive GETs and PATCHes hit spaces far apart, every one in turn. */
const STRIDE = 7_919

const ratioResult = ({ rates, ratio }: Comparison, unit = 'ops/s', scale = 1): Result => ({
  api: formatOps(rates.api! * scale, unit),
  reference: formatOps(rates.baseline! * scale, unit),
  value: ratio,
  shown: ratio.toFixed(2),
  met: ratio >= 0.9,
})

/** Both contenders at SPACES spaces, after checking they answer the same JSON shape. */
async function bothWorlds() {
  const api = await apiWorld(SPACES)
  const baseline = await baselineWorld(SPACES)
  const shape = async (w: World) =>
    shapeOf(JSON.parse(await expectStatus(await w.fetch(new Request(`${BASE}/v1/spaces/${w.ids[0]}`, { headers: auth(w) })), 200)))
  const [a, b] = [await shape(api), await shape(baseline)]
  if (a !== b) throw new Error(`the baseline answers another shape:\n  api      ${a}\n  baseline ${b}`)
  return { api, baseline }
}

/** Keys and value types, recursively: what "the same JSON shape" means here. */
function shapeOf(value: unknown): string {
  if (value === null || typeof value !== 'object') return value === null ? 'null' : typeof value
  return `{${Object.entries(value)
    .map(([k, v]) => `${k}:${shapeOf(v)}`)
    .join(',')}}`
}

async function getMeasure(): Promise<Result> {
  const { api, baseline } = await bothWorlds()
  const get = (w: World) => async (i: number) =>
    expectStatus(await w.fetch(new Request(`${BASE}/v1/spaces/${w.ids[(i * STRIDE) % SPACES]}`, { headers: auth(w) })), 200)
  return ratioResult(await compare({ api: get(api), baseline: get(baseline) }, { warmup: 5_000, perRound: 1_000, rounds: 31 }))
}

async function patchMeasure(): Promise<Result> {
  const { api, baseline } = await bothWorlds()
  // Every PATCH sets a new title, so both contenders really write.
  const patch = (w: World) => async (i: number) =>
    expectStatus(
      await w.fetch(
        new Request(`${BASE}/v1/spaces/${w.ids[(i * STRIDE) % SPACES]}`, {
          method: 'PATCH',
          headers: { ...auth(w), 'content-type': 'application/json' },
          body: JSON.stringify({ title: `Renamed ${i}` }),
        }),
      ),
      200,
    )
  return ratioResult(await compare({ api: patch(api), baseline: patch(baseline) }, { warmup: 5_000, perRound: 1_000, rounds: 31 }))
}

async function listMeasure(): Promise<Result> {
  const { api, baseline } = await bothWorlds()
  for (const w of [api, baseline]) await checkWalk(w)
  // One walk is 100 pages: rates are shown in pages per second.
  return ratioResult(await compare({ api: walkList(api), baseline: walkList(baseline) }, { warmup: 3, perRound: 1, rounds: 21 }), 'pages/s', 100)
}

async function createMeasure(): Promise<Result> {
  const { api, baseline } = await bothWorlds()
  const create = (w: World) => async (i: number) => expectStatus(await w.fetch(createRequest(w, i)), 201)
  return ratioResult(await compare({ api: create(api), baseline: create(baseline) }, { warmup: 2_000, perRound: 500, rounds: 31 }))
}

/** Cost of a create at 100,000 spaces over its cost at 1,000, both stores in this one process. */
async function createScalingMeasure(): Promise<Result> {
  const small = await apiWorld(1_000)
  const large = await apiWorld(100_000)
  const create = (w: World) => async (i: number) => expectStatus(await w.fetch(createRequest(w, i)), 201)
  const { rates, ratio } = await compare({ small: create(small), large: create(large) }, { warmup: 500, perRound: 200, rounds: 21 })
  // Cost is time per create: the ratio of costs (large over small) is the ratio of rates (small over large).
  return { api: `${formatOps(rates.large!)} @100k`, reference: `${formatOps(rates.small!)} @1k`, value: ratio, shown: ratio.toFixed(2), met: ratio <= 1.2 }
}

const HEAP_SPACES = 100_000

function settledHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('run with --expose-gc (npm run bench does)')
  for (let i = 0; i < 4; i++) gc()
  return process.memoryUsage().heapUsed
}

/**
 * Heap per space: heapUsed (after full GCs) once `HEAP_SPACES` spaces were created by POST and
 * then read back (a walk of the list and a GET of every space, so that whatever the read path
 * caches is counted), minus heapUsed before the first create, over `HEAP_SPACES`. The bench
 * keeps no ids or responses, so what remains is what the contender keeps.
 */
async function heapOf(world: Client): Promise<number> {
  const fetch = world.fetch
  const before = settledHeap()
  for (let i = 0; i < HEAP_SPACES; i++) await expectStatus(await fetch(createRequest(world, i)), 201)
  let page: string | undefined
  let seen = 0
  do {
    const body = JSON.parse(await expectStatus(await fetch(new Request(pageUrl(world, page), { headers: auth(world) })), 200))
    for (const s of body.items as Array<{ id: string }>) {
      await expectStatus(await fetch(new Request(`${BASE}/v1/spaces/${s.id}`, { headers: auth(world) })), 200)
      seen++
    }
    page = body.next?.page
  } while (page)
  if (seen !== HEAP_SPACES) throw new Error(`walked ${seen} spaces, expected ${HEAP_SPACES}`)
  return (settledHeap() - before) / HEAP_SPACES
}

async function heapMeasure(): Promise<Result> {
  const world = await apiWorld(0)
  const perSpace = await heapOf(world)
  // The reference: the baseline's heap per space, measured the same way in a fresh process.
  const reference = Number(process.env.BENCH_BASELINE_HEAP ?? Number.NaN)
  return {
    api: `${Math.round(perSpace)} B/space`,
    reference: Number.isNaN(reference) ? '-' : `baseline ${Math.round(reference)} B/space`,
    value: perSpace,
    shown: `${Math.round(perSpace)} B`,
    met: perSpace <= 600,
  }
}

async function baselineHeapMeasure(): Promise<Result> {
  const world = await baselineWorld(0)
  const perSpace = await heapOf(world)
  return { api: '-', reference: `${Math.round(perSpace)} B/space`, value: perSpace, shown: `${Math.round(perSpace)} B`, met: true }
}

export const MEASURES: Record<string, Measure> = {
  get: { title: '(a) GET /v1/spaces/{id} @10k', target: 'ratio >= 0.9', run: getMeasure },
  patch: { title: '(b) PATCH /v1/spaces/{id} @10k', target: 'ratio >= 0.9', run: patchMeasure },
  list: { title: '(c) walk /v1/orgs/{id}/spaces?limit=100 @10k', target: 'ratio >= 0.9', run: listMeasure },
  create: { title: '(d) POST /v1/orgs/{id}/spaces @10k', target: 'ratio >= 0.9', run: createMeasure },
  scaling: { title: '(e) POST cost @100k / @1k', target: '<= 1.2', run: createScalingMeasure },
  'heap-baseline': { title: 'baseline heap per space @100k', target: '-', run: baselineHeapMeasure },
  heap: { title: '(f) heap per space @100k', target: '<= 600 B', run: heapMeasure },
  'content-edit': { title: '(g) edit of 1 page, cost @1k pages / @10', target: '<= 2', run: contentEditMeasure },
  'content-merge': { title: '(h) merge of a CR of 3 pages, cost @1k / @10', target: '<= 2', run: contentMergeMeasure },
  'content-read': { title: '(i) GET page by id, cost @1k pages / @10', target: '<= 1.5', run: contentReadMeasure },
  'content-changes': { title: '(s) semantic changes of a CR of 3 pages, cost @1k / @10', target: '<= 1.5', run: contentChangesMeasure },
  search: { title: '(j) search @10k pages in 100 spaces, median (space / org)', target: '< 10 ms', run: searchSpeedMeasure },
  'search-merge': { title: '(k) index update after a merge of 3 pages, cost @10k pages / @1k', target: '<= 1.5', run: searchMergeMeasure },
  'search-merge-space': { title: '(l) the same, merged space of 10k pages / of 100', target: '<= 1.5', run: searchMergeSpaceMeasure },
  'render-page': { title: "(q) a page's renderer calls with its site token, cost @1k pages / @10", target: '<= 1.5', run: renderPageMeasure },
  'resolve-url': { title: '(r) resolve a published URL, cost @1k sites / @10', target: '<= 1.5', run: resolveUrlMeasure },
  'site-search': {
    title: "(t) site search @10k pages (one space), the renderer's call with its site token, median",
    target: '< 10 ms',
    run: siteSearchMeasure,
  },
  'git-export-unchanged': {
    title: '(u) Git Sync export with nothing changed, cost over the import, 1,000 pages',
    target: '<= 1.2',
    run: gitExportUnchangedMeasure,
  },
  'git-export-edit': { title: '(v) Git Sync export after a 1-page edit, cost @1k pages / @10', target: '<= 1.5', run: gitExportEditMeasure },
  'import-cost': {
    title: '(w) import + createDocsApi + first request, CPU of a fresh process / importing zod, immer, nanoid',
    target: '<= 3',
    run: importCostMeasure,
  },
  'permission-aggregate': {
    title: '(x) a page of a space permission aggregate, cost @10k members, 100 teams / @100',
    target: '<= 1.5',
    run: permissionAggregateMeasure,
  },
  ...durableMeasures,
  ...stallMeasures,
  ...servedMeasures,
  ...postgresOptionMeasures,
  ...postgresMeasures,
}
