import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { createDocsApi, createMemoryStore, schema, type DocsApi } from '../src/index.js'
import type { StoragePort } from '../src/storage/port.js'
import type { AppSchema } from '../src/domains/schema.js'
import { compare, median, type Contender } from './harness.js'
import type { Measure, Result } from './measures.js'
import { BASE, createRequest, expectStatus, nextCursor, pageUrl, seed, type World } from './world.js'
import { asyncFacade, getSpaceAsync, getSpaceSync, listPageAsync, listPageSync, replayAsync, replaySync, type ListPage } from './prototypes/async-port.js'
import { countingStore, type ReadCall } from './prototypes/read-counter.js'

/**
 * Issue 26 (several API processes over one PostgreSQL database): measured prototypes of the
 * options the lead did not build. Reported, not targeted. See bench/README.md, "PostgreSQL
 * options (issue 26)", and docs/design/postgres-options-measurements.md.
 *
 * pg-option-a: (a) an asynchronous port. Counts the port reads of real operations through the
 *   real API, measures the cost of awaiting a read on the in-memory hot path (sync vs async
 *   read paths and replays of the real reads, alternating rounds), and extrapolates per operation.
 * pg-option-b: (b) synchronous queries to PostgreSQL (pg-native's querySync, libpq): latency per
 *   read, a GET-space-like operation with the real number of reads against better-sqlite3, and the
 *   throughput of 1, 2 and 4 processes doing such operations one at a time.
 */

const SPACES = 10_000
const STRIDE = 7_919

interface Op {
  name: string
  trace: ReadCall[]
  /** The real operation on the plain (uncounted) world, timed by `compare`. */
  real: Contender
}

/** An API on `store` with an admin, an organization, SPACES spaces, and a space of 50 pages merged into main. */
async function world(store: StoragePort<AppSchema>) {
  const api = createDocsApi({ baseUrl: BASE, store })
  const user = await api.fixtures.createUser({ displayName: 'Bench', email: 'bench@bench.test' })
  const token = await api.fixtures.createToken(user.id)
  const org = await api.fixtures.createOrganization({ title: 'Bench', members: [{ user: user.id, role: 'admin' }] })
  const w: World & { api: DocsApi; user: string } = { api, fetch: (r: Request) => api.fetch(r), token, organization: org.id, ids: [], user: user.id }
  await seed(w, SPACES)
  const space = w.ids[0]!
  const cr = await openCr(w, space)
  const leaves = await insertPages(w, space, cr, 0)
  await merge(w, space, cr)
  return { ...w, space, leaves }
}

async function send(w: World, method: string, path: string, status: number, body?: unknown): Promise<string> {
  const headers: Record<string, string> = { authorization: `Bearer ${w.token}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  return expectStatus(await w.fetch(new Request(`${BASE}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) })), status)
}
const openCr = async (w: World, space: string) =>
  (JSON.parse(await send(w, 'POST', `/v1/spaces/${space}/change-requests`, 201, { subject: 'Bench' })) as { id: string }).id
const pageBody = (n: number, word: string) => ({
  markdown: `Page ${n} about **topic** ${n}, with [a link](https://example.com/${n}).\n\n- one\n- two\n\n${word} text of page ${n}.\n`,
})
/** A content batch: 50 `insert_page` in one request (an import's step). */
const insertPages = async (w: World, space: string, cr: string, n: number) =>
  (
    JSON.parse(
      await send(w, 'POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, 200, {
        changes: Array.from({ length: 50 }, (_, j) => ({ operation: 'insert_page', title: `Page ${n}-${j}`, document: pageBody(j, 'Closing') })),
      }),
    ) as { changes: Array<{ page: { id: string } }> }
  ).changes.map((c) => c.page.id)
/** The body of one page replaced (what a PUT of a page's content does). */
const editPage = (w: World, space: string, cr: string, page: string, n: number) =>
  send(w, 'POST', `/v1/spaces/${space}/change-requests/${cr}/content`, 200, { changes: [{ operation: 'update_page', page, document: pageBody(n, 'Edited') }] })
const merge = async (w: World, space: string, cr: string) => {
  const text = await send(w, 'POST', `/v1/spaces/${space}/change-requests/${cr}/merge`, 200)
  if (!text.includes('"result":"merge"')) throw new Error(`the merge did not merge: ${text.slice(0, 200)}`)
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

/**
 * The reads each real operation makes through the real API (the counting store of
 * prototypes/read-counter.ts), after a 20 ms settle so that work the response scheduled is counted.
 */
async function countReads() {
  const counter = countingStore(createMemoryStore(schema))
  const w = await world(counter.store)
  const traces: Record<string, ReadCall[]> = {}
  const record = async (name: string, fn: () => Promise<unknown>) => {
    await settle()
    counter.reset()
    await fn()
    await settle()
    traces[name] = [...counter.trace]
  }
  await record('GET /v1/spaces/{id}', () => send(w, 'GET', `/v1/spaces/${w.ids[5_000]}`, 200))
  const first = await expectStatus(await w.fetch(new Request(pageUrl(w, undefined), { headers: { authorization: `Bearer ${w.token}` } })), 200)
  await record('list page (100 spaces)', async () =>
    expectStatus(await w.fetch(new Request(pageUrl(w, nextCursor(first)), { headers: { authorization: `Bearer ${w.token}` } })), 200),
  )
  await record('POST space', async () => expectStatus(await w.fetch(createRequest(w, 1)), 201))
  let cr = ''
  await record('POST change request', async () => (cr = await openCr(w, w.space)))
  await record('content batch (50 insert_page)', () => insertPages(w, w.space, cr, 1))
  const cr2 = await openCr(w, w.space)
  await record('edit of a page (update_page)', () => editPage(w, w.space, cr2, w.leaves[7]!, 1))
  for (const k of [11, 13]) await editPage(w, w.space, cr2, w.leaves[k]!, 2)
  // cr (50 new pages) merged first, then cr2 (3 edits): a three-way merge, main having moved.
  await merge(w, w.space, cr)
  await record('merge (3 pages edited, main moved)', () => merge(w, w.space, cr2))
  return { traces, counted: w, memory: counter.inner }
}

const expectFetch = (w: World, url: string) => async () =>
  expectStatus(await w.fetch(new Request(url, { headers: { authorization: `Bearer ${w.token}` } })), 200)

async function optionA(): Promise<Result> {
  const { traces } = await countReads()
  const w = await world(createMemoryStore(schema))
  const facade = asyncFacade(w.api.store)
  const tx = facade.sync
  const lines: string[][] = []

  // 1. The hand-written read paths, sync and async, in alternating rounds.
  const id = (i: number) => w.ids[(i * STRIDE) % SPACES]!
  const getPaths = await compare(
    { async: async (i) => facade.read((a) => getSpaceAsync(a, id(i), w.user)), sync: async (i) => getSpaceSync(tx, id(i), w.user) },
    { warmup: 20_000, perRound: 5_000, rounds: 31 },
  )
  const walkAsync = async () => {
    let after: ListPage['next']
    do after = (await facade.read((a) => listPageAsync(a, w.organization, w.user, 100, after))).next
    while (after)
  }
  const walkSync = async () => {
    let after: ListPage['next']
    do after = listPageSync(tx, w.organization, w.user, 100, after).next
    while (after)
  }
  const listPaths = await compare({ async: walkAsync, sync: walkSync }, { warmup: 5, perRound: 2, rounds: 21 })
  console.error(
    `prototype GET space: async ${Math.round(getPaths.rates.async!)}/s, sync ${Math.round(getPaths.rates.sync!)}/s, ratio ${getPaths.ratio.toFixed(3)}`,
  )
  console.error(
    `prototype list walk (100 pages): async ${(listPaths.rates.async! * 100).toFixed(0)} pages/s, sync ${(listPaths.rates.sync! * 100).toFixed(0)} pages/s, ratio ${listPaths.ratio.toFixed(3)}`,
  )

  // 2. Per real operation: its reads replayed sync and async (the cost of awaiting them), and the real operation's own cost.
  let cr = await openCr(w, w.space)
  let n = 0
  const ops: Op[] = [
    { name: 'GET /v1/spaces/{id}', trace: traces['GET /v1/spaces/{id}']!, real: async (i) => send(w, 'GET', `/v1/spaces/${id(i)}`, 200) },
    {
      name: 'list page (100 spaces)',
      trace: traces['list page (100 spaces)']!,
      real: expectFetch(w, pageUrl(w, nextCursor(await expectFetch(w, pageUrl(w, undefined))()))),
    },
    { name: 'POST space', trace: traces['POST space']!, real: async (i) => expectStatus(await w.fetch(createRequest(w, i)), 201) },
    { name: 'POST change request', trace: traces['POST change request']!, real: async () => openCr(w, w.space) },
    {
      name: 'content batch (50 insert_page)',
      trace: traces['content batch (50 insert_page)']!,
      real: { prepare: async () => (cr = await openCr(w, w.space)), run: async (i) => insertPages(w, w.space, cr, i) },
    },
    { name: 'edit of a page (update_page)', trace: traces['edit of a page (update_page)']!, real: async (i) => editPage(w, w.space, cr, w.leaves[i % 50]!, i) },
    {
      name: 'merge (3 pages edited, main moved)',
      trace: traces['merge (3 pages edited, main moved)']!,
      real: {
        prepare: async (i) => {
          const a = await openCr(w, w.space)
          cr = await openCr(w, w.space)
          await editPage(w, w.space, a, w.leaves[(i * 3) % 50]!, ++n)
          await merge(w, w.space, a)
          for (let k = 1; k <= 3; k++) await editPage(w, w.space, cr, w.leaves[(i * 3 + k) % 50]!, ++n)
        },
        run: async () => merge(w, w.space, cr),
      },
    },
  ]
  const extra: Record<string, number> = {}
  for (const op of ops) {
    const reads = op.trace.length
    const heavy = reads > 200
    const replay = await compare(
      { async: async () => facade.read((a) => replayAsync(a, op.trace)), sync: async () => replaySync(tx, op.trace) },
      heavy ? { warmup: 200, perRound: 50, rounds: 21 } : { warmup: 5_000, perRound: 1_000, rounds: 21 },
    )
    const staged = typeof op.real !== 'function'
    const real = await compare(
      { real: op.real, sync: async () => replaySync(tx, op.trace) },
      staged ? { warmup: 10, perRound: 10, rounds: 11 } : { warmup: 300, perRound: 100, rounds: 21 },
    )
    const realUs = 1e6 / real.rates.real!
    const addedUs = 1e6 / replay.rates.async! - 1e6 / replay.rates.sync!
    const perRead = reads ? (addedUs * 1000) / reads : 0
    extra[op.name] = realUs / (realUs + addedUs)
    lines.push([op.name, String(reads), perRead.toFixed(0), addedUs.toFixed(1), realUs.toFixed(1), extra[op.name]!.toFixed(3)])
  }
  console.error('\noperation | port reads | ns added per awaited read | µs added per op | µs per op (real, sync) | est. ratio async/sync')
  for (const l of lines) console.error(l.join(' | '))
  const byMethod = Object.fromEntries(
    Object.entries(traces).map(([k, t]) => [k, t.reduce<Record<string, number>>((o, [m]) => ((o[m] = (o[m] ?? 0) + 1), o), {})]),
  )
  console.error(`\nreads by method: ${JSON.stringify(byMethod)}`)
  const getEst = extra['GET /v1/spaces/{id}']!
  return {
    api: `prototype async/sync: GET ${getPaths.ratio.toFixed(2)}, list ${listPaths.ratio.toFixed(2)}`,
    reference: `est. whole op: GET ${getEst.toFixed(2)}, list ${extra['list page (100 spaces)']!.toFixed(2)}, merge ${extra['merge (3 pages edited, main moved)']!.toFixed(2)}`,
    value: getPaths.ratio,
    shown: getPaths.ratio.toFixed(2),
    met: true,
  }
}

/** pg-native, from a scratch install outside the repository (PG_NATIVE_DIR, default /work/proto-b). */
function loadPgNative(): new () => PgNative {
  const dir = process.env.PG_NATIVE_DIR ?? '/work/proto-b'
  try {
    return createRequire(join(dir, 'package.json'))('pg-native') as new () => PgNative
  } catch (error) {
    throw new Error(`pg-native not installed in ${dir} (npm install pg-native there, with libpq-dev): ${(error as Error).message.split('\n')[0]}`)
  }
}
interface PgNative {
  connectSync(url: string): void
  querySync(text: string, values?: unknown[]): Array<Record<string, unknown>>
  prepareSync(name: string, text: string, count: number): void
  executeSync(name: string, values: unknown[]): Array<Record<string, unknown>>
  end(cb?: () => void): void
}

const script = fileURLToPath(new URL('../scripts/postgres-test.sh', import.meta.url))
const worker = fileURLToPath(new URL('./prototypes/pg-sync-worker.mjs', import.meta.url))

export function startCluster(): { url: string; dir: string } {
  const out = spawnSync(script, ['start'], { encoding: 'utf8' })
  if (out.status !== 0) throw new Error(`no PostgreSQL cluster: ${(out.stderr || out.stdout).trim().split('\n')[0]}`)
  const url = /DATABASE_URL=(\S+)/.exec(out.stdout)?.[1]
  const dir = /PGTEST_DIR=(\S+)/.exec(out.stdout)?.[1]
  if (!url || !dir) throw new Error(`postgres-test.sh start said: ${out.stdout}`)
  return { url, dir }
}

/** Wall microseconds per call of `fn` (median of `rounds` batches of `per`). */
function wallUs(fn: (i: number) => unknown, per: number, rounds: number): number {
  const out: number[] = []
  let i = 0
  for (let r = 0; r < rounds; r++) {
    const start = performance.now()
    for (let k = 0; k < per; k++) fn(i++)
    out.push(((performance.now() - start) * 1000) / per)
  }
  return median(out)
}

async function optionB(): Promise<Result> {
  const Client = loadPgNative()
  const { traces, counted, memory } = await countReads()
  // The rows of the real store, every collection, as JSON text (the SQLite layout: id, data).
  const rows: Array<[string, string, string]> = []
  counted.api.store.read((tx) => {
    for (const c of Object.keys(schema)) for (const row of tx.all(c as keyof AppSchema) as Array<{ id: string }>) rows.push([c, row.id, JSON.stringify(row)])
  })
  // A GET of a space with the reads the real one makes: the same collections and ids, for other spaces in turn.
  const getTrace = traces['GET /v1/spaces/{id}']!
  const reads = getTrace.length
  const spaceIds = counted.ids
  const keysOf = (i: number): Array<[string, string]> => {
    const space = spaceIds[(i * STRIDE) % SPACES]!
    return getTrace.map(([, c, k]) => [c as string, String(k) === counted.ids[5_000] ? space : String(k)])
  }
  const cluster = startCluster()
  const tmp = mkdtempSync(join(tmpdir(), 'pg-option-b-'))
  try {
    const pg = new Client()
    pg.connectSync(cluster.url)
    pg.querySync('CREATE TABLE rows (collection text NOT NULL, id text NOT NULL, data text NOT NULL, PRIMARY KEY (collection, id))')
    pg.querySync('BEGIN')
    pg.prepareSync('ins', 'INSERT INTO rows VALUES ($1, $2, $3)', 3)
    for (const r of rows) pg.executeSync('ins', r)
    pg.querySync('COMMIT')
    pg.querySync('ANALYZE rows')
    pg.prepareSync('get', 'SELECT data FROM rows WHERE collection = $1 AND id = $2', 2)
    const pgGet = (c: string, id: string) => {
      const r = pg.executeSync('get', [c, id])
      return r.length ? JSON.parse(r[0]!.data as string) : undefined
    }
    const db = new Database(join(tmp, 'rows.db'))
    db.pragma('journal_mode = WAL')
    db.exec('CREATE TABLE rows (collection TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (collection, id)) WITHOUT ROWID')
    const ins = db.prepare('INSERT INTO rows VALUES (?, ?, ?)')
    db.transaction(() => rows.forEach((r) => ins.run(...r)))()
    const sel = db.prepare('SELECT data FROM rows WHERE collection = ? AND id = ?').pluck()
    const sqliteGet = (c: string, id: string) => {
      const d = sel.get(c, id) as string | undefined
      return d === undefined ? undefined : JSON.parse(d)
    }
    const memTx = memory.read((t) => t) as unknown as { get: (c: string, id: string) => unknown }

    const spaceKey = (i: number): [string, string] => ['spaces', spaceIds[(i * STRIDE) % SPACES]!]
    for (let i = 0; i < 2_000; i++) {
      pgGet(...spaceKey(i))
      sqliteGet(...spaceKey(i))
    }
    const perRead = {
      pg: wallUs((i) => pgGet(...spaceKey(i)), 1_000, 21),
      sqlite: wallUs((i) => sqliteGet(...spaceKey(i)), 5_000, 21),
      memory: wallUs((i) => memTx.get(...spaceKey(i)), 50_000, 21),
    }
    const cpuBefore = process.cpuUsage()
    for (let i = 0; i < 10_000; i++) pgGet(...spaceKey(i))
    const cpu = process.cpuUsage(cpuBefore)
    const pgCpuUs = (cpu.user + cpu.system) / 10_000
    const getLike = (get: (c: string, id: string) => unknown) => (i: number) => {
      for (const [c, id] of keysOf(i)) get(c, id)
    }
    const op = { pg: wallUs(getLike(pgGet), 500, 21), sqlite: wallUs(getLike(sqliteGet), 2_000, 21) }
    // The real in-memory GET (through an uncounted API), wall time, for scale.
    const plain = await world(createMemoryStore(schema))
    const realGet = async (i: number) =>
      expectStatus(
        await plain.fetch(new Request(`${BASE}/v1/spaces/${plain.ids[(i * STRIDE) % SPACES]}`, { headers: { authorization: `Bearer ${plain.token}` } })),
        200,
      )
    for (let i = 0; i < 5_000; i++) await realGet(i)
    const realUs: number[] = []
    for (let r = 0; r < 21; r++) {
      const start = performance.now()
      for (let k = 0; k < 1_000; k++) await realGet(r * 1_000 + k)
      realUs.push(performance.now() - start)
    }
    const memoryGetUs = median(realUs) // ms per 1,000 = µs per GET
    pg.end()

    // Throughput: N processes, each doing GET-like operations (the real GET's reads) one at a time, for 3 s.
    const keysFile = join(tmp, 'keys.json')
    writeFileSync(keysFile, JSON.stringify(Array.from({ length: 1_000 }, (_, i) => keysOf(i))))
    const throughput: Record<number, number> = {}
    for (const n of [1, 2, 4]) {
      const counts = await Promise.all(
        Array.from(
          { length: n },
          () =>
            new Promise<number>((resolve, reject) => {
              const child = spawn(process.execPath, [worker, cluster.url, keysFile, '3000', process.env.PG_NATIVE_DIR ?? '/work/proto-b'], {
                stdio: ['ignore', 'pipe', 'inherit'],
              })
              let out = ''
              child.stdout.on('data', (d) => (out += d))
              child.on('close', (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error(`worker exited ${code}`))))
            }),
        ),
      )
      throughput[n] = counts.reduce((a, b) => a + b, 0) / 3
    }
    console.error(`rows loaded: ${rows.length}; reads per GET /v1/spaces/{id}: ${reads} (${getTrace.map(([m, c]) => `${m} ${String(c)}`).join(', ')})`)
    console.error(
      `per read (wall): pg-native ${perRead.pg.toFixed(1)} µs (CPU of this process ${pgCpuUs.toFixed(1)} µs), better-sqlite3 ${perRead.sqlite.toFixed(2)} µs, memory ${(perRead.memory * 1000).toFixed(0)} ns`,
    )
    console.error(
      `GET-like (${reads} reads): pg-native ${op.pg.toFixed(1)} µs, better-sqlite3 ${op.sqlite.toFixed(2)} µs; whole in-memory GET through the API ${memoryGetUs.toFixed(1)} µs`,
    )
    // Extrapolation: the in-memory GET plus the GET-like reads as round trips (the memory reads it replaces are ~5 × 50 ns, left in).
    console.error(
      `extrapolated GET /v1/spaces/{id} on option (b), one process: ${(memoryGetUs + op.pg).toFixed(0)} µs, ${(memoryGetUs / (memoryGetUs + op.pg)).toFixed(2)} of in-memory`,
    )
    console.error(
      `GET-like ops/s, N processes (2 cores, PostgreSQL on the same cores): ${Object.entries(throughput)
        .map(([n, t]) => `${n}: ${Math.round(t)}`)
        .join(', ')}`,
    )
    return {
      api: `pg-native ${perRead.pg.toFixed(1)} µs/read, GET-like ${op.pg.toFixed(0)} µs; 1/2/4 procs ${[1, 2, 4].map((n) => Math.round(throughput[n]!)).join('/')} ops/s`,
      reference: `better-sqlite3 ${perRead.sqlite.toFixed(2)} µs/read, GET-like ${op.sqlite.toFixed(1)} µs; memory GET ${memoryGetUs.toFixed(1)} µs`,
      value: op.pg / op.sqlite,
      shown: `${(op.pg / op.sqlite).toFixed(1)}× sqlite`,
      met: true,
    }
  } finally {
    spawnSync(script, ['stop', cluster.dir])
    rmSync(tmp, { recursive: true, force: true })
  }
}

export const postgresOptionMeasures: Record<string, Measure> = {
  'pg-option-a': { title: 'issue 26 (a) async port: GET space read path async / sync (prototype)', target: 'reported', run: optionA },
  'pg-option-b': { title: 'issue 26 (b) sync PostgreSQL (pg-native): GET-like op, pg / better-sqlite3', target: 'reported', run: optionB },
}
