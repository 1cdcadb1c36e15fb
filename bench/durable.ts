import { compare, formatOps } from './harness.js'
import type { Measure, Result } from './measures.js'
import { apiWorld, auth, BASE, checkWalk, createRequest, expectStatus, walkList, type World } from './world.js'

/**
 * The durable-storage measures: the API on the SQLite adapter (a file on disk, `openDataDir` in a
 * temporary directory, as `serve --data` opens it) beside the same API on the in-memory store,
 * in the same process, in alternating rounds (`compare`). The issue asks: get and list walk at
 * least 0.5 of the in-memory adapter, create at least 2,000/s, cost flat from 1,000 to 100,000
 * spaces.
 */

const SPACES = 10_000
const STRIDE = 7_919

/** The two APIs at SPACES spaces, after checking they answer the same JSON (ids and dates aside). */
async function bothStores(): Promise<{ sqlite: World; memory: World }> {
  const memory = await apiWorld(SPACES)
  const sqlite = await apiWorld(SPACES, 'sqlite')
  const keys = async (w: World) =>
    Object.keys(JSON.parse(await expectStatus(await w.fetch(new Request(`${BASE}/v1/spaces/${w.ids[0]}`, { headers: auth(w) })), 200))).join()
  const [a, b] = [await keys(sqlite), await keys(memory)]
  if (a !== b) throw new Error(`the stores answer differently:\n  sqlite ${a}\n  memory ${b}`)
  return { sqlite, memory }
}

const ratioOf = (rates: Record<string, number>, ratio: number, unit = 'ops/s', scale = 1): Result => ({
  api: formatOps(rates.sqlite! * scale, unit),
  reference: `${formatOps(rates.memory! * scale, unit)} in memory`,
  value: ratio,
  shown: ratio.toFixed(2),
  met: ratio >= 0.5,
})

async function getMeasure(): Promise<Result> {
  const { sqlite, memory } = await bothStores()
  const get = (w: World) => async (i: number) =>
    expectStatus(await w.fetch(new Request(`${BASE}/v1/spaces/${w.ids[(i * STRIDE) % SPACES]}`, { headers: auth(w) })), 200)
  const { rates, ratio } = await compare({ sqlite: get(sqlite), memory: get(memory) }, { warmup: 5_000, perRound: 1_000, rounds: 31 })
  return ratioOf(rates, ratio)
}

async function listMeasure(): Promise<Result> {
  const { sqlite, memory } = await bothStores()
  for (const w of [sqlite, memory]) await checkWalk(w)
  const { rates, ratio } = await compare({ sqlite: walkList(sqlite), memory: walkList(memory) }, { warmup: 3, perRound: 1, rounds: 21 })
  return ratioOf(rates, ratio, 'pages/s', 100)
}

/**
 * Creates per second on SQLite. CPU time like every measure, and wall time beside it (a commit
 * waits for the disk: with the default durability a write to the WAL, no sync), which the target
 * is checked against: the lower of the two.
 */
async function createMeasure(): Promise<Result> {
  const { sqlite, memory } = await bothStores()
  const warmup = 2_000
  let wall = 0
  let timed = 0
  const create = (w: World, clock: boolean) => async (i: number) => {
    const start = performance.now()
    await expectStatus(await w.fetch(createRequest(w, i)), 201)
    if (clock && i >= warmup) {
      wall += performance.now() - start
      timed++
    }
  }
  const { rates } = await compare({ sqlite: create(sqlite, true), memory: create(memory, false) }, { warmup, perRound: 500, rounds: 31 })
  const wallRate = (timed / wall) * 1000
  const rate = Math.min(rates.sqlite!, wallRate)
  return {
    api: `${formatOps(rates.sqlite!)} (wall ${formatOps(wallRate)})`,
    reference: `${formatOps(rates.memory!)} in memory`,
    value: rate,
    shown: formatOps(rate),
    met: rate >= 2_000,
  }
}

/** Cost of a create at 100,000 spaces over its cost at 1,000, both on SQLite files, in this one process. */
async function scalingMeasure(): Promise<Result> {
  const small = await apiWorld(1_000, 'sqlite')
  const large = await apiWorld(100_000, 'sqlite')
  const create = (w: World) => async (i: number) => expectStatus(await w.fetch(createRequest(w, i)), 201)
  const { rates, ratio } = await compare({ small: create(small), large: create(large) }, { warmup: 500, perRound: 200, rounds: 21 })
  return { api: `${formatOps(rates.large!)} @100k`, reference: `${formatOps(rates.small!)} @1k`, value: ratio, shown: ratio.toFixed(2), met: ratio <= 1.2 }
}

export const durableMeasures: Record<string, Measure> = {
  'sqlite-get': { title: '(m) SQLite: GET /v1/spaces/{id} @10k', target: '>= 0.5 of memory', run: getMeasure },
  'sqlite-list': { title: '(n) SQLite: walk of the list @10k', target: '>= 0.5 of memory', run: listMeasure },
  'sqlite-create': { title: '(o) SQLite: POST /v1/orgs/{id}/spaces @10k', target: '>= 2,000/s', run: createMeasure },
  'sqlite-scaling': { title: '(p) SQLite: POST cost @100k / @1k', target: '<= 1.2', run: scalingMeasure },
}
