import { cpus } from 'node:os'
import { createDocsApi } from '../src/index.js'
import { createBaseline } from './baseline.js'
import { compare, formatOps, printTable } from './harness.js'

/**
 * `npm run bench` (tsx --expose-gc bench/run.ts): the API against a bare baseline handler.
 * It prints a table of ratios and targets and exits 0 whatever the numbers: a measurement, not a test.
 */

const BASE = 'http://localhost:4000'

interface Row {
  measure: string
  api: string
  reference: string
  value: number | undefined
  shown: string
  target: string
  met: boolean | undefined
}
const rows: Row[] = []

/** An API with one admin, one organization and `spaces` spaces, built through the fixtures. */
async function createWorld(spaces: number) {
  const api = createDocsApi({ baseUrl: BASE })
  const user = await api.fixtures.createUser({ displayName: 'Bench', email: 'bench@bench.test' })
  const token = await api.fixtures.createToken(user.id)
  const org = await api.fixtures.createOrganization({ title: 'Bench', members: [{ user: user.id, role: 'admin' }] })
  const encoded: Array<{ id: string }> = []
  for (let i = 0; i < spaces; i++) encoded.push(await api.fixtures.createSpace(org.id, { title: `Space ${i}` }))
  return { api, token, org, encoded }
}

async function expectOk(response: Response, status = 200): Promise<string> {
  const text = await response.text()
  if (response.status !== status) throw new Error(`${response.status} ${text.slice(0, 120)}`)
  return text
}

/** Run one measurement; a failure (an operation not there yet, say) becomes a row saying so. */
async function attempt(measure: string, target: string, fn: () => Promise<Omit<Row, 'measure' | 'target'>>) {
  const started = performance.now()
  try {
    rows.push({ measure, target, ...(await fn()) })
  } catch (error) {
    rows.push({ measure, target, api: '-', reference: '-', value: undefined, shown: `n/a: ${(error as Error).message}`, met: undefined })
  }
  console.error(`  ${measure}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

/** (d) Heap per stored space: heapUsed after minus before creating N spaces, over N. */
async function heapPerSpace(n: number) {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('run with --expose-gc (npm run bench)')
  const world = await createWorld(0)
  const settle = () => {
    for (let i = 0; i < 3; i++) gc()
    return process.memoryUsage().heapUsed
  }
  const before = settle()
  for (let i = 0; i < n; i++) await world.api.fixtures.createSpace(world.org.id, { title: `Space ${i}` })
  const after = settle()
  const count = world.api.store.read((tx) => tx.count('spaces', 'byOrganization', world.org.id))
  if (count !== n) throw new Error(`expected ${n} spaces, found ${count}`)
  const perSpace = (after - before) / n
  return { api: `${Math.round(perSpace)} B/space`, reference: `${n.toLocaleString('en-US')} spaces`, value: perSpace, shown: `${(perSpace / 1024).toFixed(2)} KB`, met: perSpace < 2048 }
}

/** (a) GET /v1/spaces/{id} at 10,000 spaces, and (b) walking the organization's spaces by 100. */
async function readMeasures() {
  const world = await createWorld(10_000)
  const { api, token, org, encoded } = world
  const ids = encoded.map((s) => s.id)
  const baseline = createBaseline({
    tokens: new Set([token]),
    spaces: new Map(encoded.map((s) => [s.id, s])),
    listItems: encoded,
  })
  const headers = { authorization: `Bearer ${token}` }

  await attempt('(a) GET /v1/spaces/{id} @10k spaces', 'ratio >= 0.8', async () => {
    const get = (fetchFn: (r: Request) => Promise<Response>) => async (i: number) =>
      expectOk(await fetchFn(new Request(`${BASE}/v1/spaces/${ids[i % ids.length]}`, { headers })))
    const r = await compare({ api: get((req) => api.fetch(req)), baseline: get(baseline) }, { warmup: 10_000, perRound: 5_000, rounds: 9 })
    const ratio = r.api! / r.baseline!
    return { api: formatOps(r.api!), reference: formatOps(r.baseline!), value: ratio, shown: ratio.toFixed(2), met: ratio >= 0.8 }
  })

  await attempt('(b) walk /v1/orgs/{id}/spaces?limit=100 @10k', 'ratio >= 0.8', async () => {
    let pages = 0
    const walk = (fetchFn: (r: Request) => Promise<Response>) => async () => {
      let page: string | undefined
      let seen = 0
      do {
        const url = `${BASE}/v1/orgs/${org.id}/spaces?limit=100${page ? `&page=${encodeURIComponent(page)}` : ''}`
        const body = JSON.parse(await expectOk(await fetchFn(new Request(url, { headers })))) as { items: unknown[]; next?: { page: string } }
        seen += body.items.length
        page = body.next?.page
      } while (page)
      if (seen !== ids.length) throw new Error(`walked ${seen} items, expected ${ids.length}`)
      pages = Math.ceil(seen / 100)
    }
    const r = await compare({ api: walk((req) => api.fetch(req)), baseline: walk(baseline) }, { warmup: 5, perRound: 5, rounds: 7 })
    const ratio = r.api! / r.baseline!
    const walks = (n: number) => `${n.toFixed(1)} walks/s (${Math.round(n * pages)} pages/s)`
    return { api: walks(r.api!), reference: walks(r.baseline!), value: ratio, shown: ratio.toFixed(2), met: ratio >= 0.8 }
  })
}

/** (c) POST /v1/orgs/{id}/spaces at 1,000 and at 100,000 spaces: the cost should not grow with the store. */
async function createMeasures() {
  await attempt('(c) POST /v1/orgs/{id}/spaces @1k vs @100k', 'cost ratio <= 1.5', async () => {
    const small = await createWorld(1_000)
    const large = await createWorld(100_000)
    const create = (w: typeof small) => async () =>
      expectOk(
        await w.api.fetch(
          new Request(`${BASE}/v1/orgs/${w.org.id}/spaces`, {
            method: 'POST',
            headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' },
            body: '{"title":"New space"}',
          }),
        ),
        201,
      )
    const r = await compare({ small: create(small), large: create(large) }, { warmup: 500, perRound: 500, rounds: 7 })
    // Cost is time per create: the ratio of costs is the inverse ratio of rates.
    const ratio = r.small! / r.large!
    return { api: `${formatOps(r.large!)} @100k`, reference: `${formatOps(r.small!)} @1k`, value: ratio, shown: ratio.toFixed(2), met: ratio <= 1.5 }
  })
}

console.error(`docs-content-api benchmark: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`)
await attempt('(d) heap per stored space (10k via fixtures)', '< 2 KB', () => heapPerSpace(10_000))
await readMeasures()
await createMeasures()

console.log('')
printTable(
  ['measure', 'api', 'baseline / reference', 'result', 'target', 'met'],
  rows.map((r) => [r.measure, r.api, r.reference, r.shown, r.target, r.met === undefined ? '-' : r.met ? 'yes' : 'NO']),
)
console.log('\nRatios are api / baseline throughput (medians of alternating rounds); (c) is the cost at 100k over the cost at 1k.')
process.exitCode = 0
