import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { createDocsApi, type StateDocument } from '../src/index.js'
import { openPostgresData, type PostgresData } from '../src/postgres.js'
import { compare, formatOps, median, type RoundOptions } from './harness.js'
import type { Measure, Result } from './measures.js'
import { startCluster } from './postgres-options.js'
import { apiWorld, auth, BASE, createRequest, checkWalk, expectStatus, sqliteData, walkList, type World } from './world.js'

/**
 * Issue 26, the PostgreSQL store as built (src/postgres/): reported, not targeted. Each measure
 * starts its own cluster (scripts/postgres-test.sh start, stopped at the end); without PostgreSQL
 * it fails with the reason, which `npm run bench` shows as `n/a: ...`.
 *
 * pg-get, pg-list, pg-create: one API on PostgreSQL (`openPostgresData`) against the same API on
 *   SQLite (`openDataDir` in a temporary directory), both loaded from one state document of
 *   10,000 spaces (the same ids and token), in alternating rounds (`compare`). Requests go one at
 *   a time, so a PostgreSQL request waits for its round trips (a read's catch-up query, a write's
 *   lock, append and commit): the ratio is of wall-clock throughputs; the API process's CPU time
 *   (what `compare` times) and the PostgreSQL server's CPU time per operation are shown beside it.
 * pg-scale: 1, 2 and 4 API processes (bench/pg-process.ts) on one database, under a mixed load
 *   (90 % GET of a space, 10 % POST of a change request), one autocannon per process, all in this
 *   process; then the change request numbers are checked (unique, consecutive, none acknowledged
 *   missing).
 */

const SPACES = 10_000
const STRIDE = 7_919
const SCRIPT = fileURLToPath(new URL('../scripts/postgres-test.sh', import.meta.url))
const PROCESS = fileURLToPath(new URL('./pg-process.ts', import.meta.url))

interface Cluster {
  url: string
  dir: string
}

/** Run `fn` on a fresh cluster, stopped (and removed) afterwards. Throws when PostgreSQL cannot be started. */
async function withCluster<T>(fn: (cluster: Cluster) => Promise<T>): Promise<T> {
  const cluster = startCluster()
  try {
    return await fn(cluster)
  } finally {
    spawnSync(SCRIPT, ['stop', cluster.dir])
  }
}

/** Clock ticks per second of /proc/<pid>/stat. */
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100)

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

/** utime + stime of a process (every thread), in seconds; 0 once it is gone. */
function cpuSeconds(pid: number): number {
  const f = statFields(pid)
  return f ? (Number(f[11]) + Number(f[12])) / TICKS : 0
}

/**
 * CPU seconds of the whole PostgreSQL cluster: the postmaster (with its reaped children, cutime +
 * cstime) and its live children (backends, checkpointer, WAL writer...).
 */
function clusterCpu(cluster: Cluster): number {
  const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0])
  const own = statFields(postmaster)!
  let total = (Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])) / TICKS
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const f = statFields(Number(entry))
    if (f && Number(f[1]) === postmaster) total += (Number(f[11]) + Number(f[12])) / TICKS
  }
  return total
}

/** An API of SPACES spaces in memory, dumped: the state both contenders load (same ids, same token). */
async function stateOf(n: number): Promise<{ doc: StateDocument; token: string; organization: string; ids: string[] }> {
  const memory = await apiWorld(n)
  return { doc: memory.api.dump(), token: memory.token, organization: memory.organization, ids: memory.ids }
}

/** A fresh blob directory, removed when the process exits. */
function blobsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pg-blobs-'))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The API on the cluster's database, loaded from `state` in one exclusive transaction. */
async function postgresApi(cluster: Cluster, state: Awaited<ReturnType<typeof stateOf>>): Promise<{ world: World; data: PostgresData }> {
  const data = await openPostgresData(cluster.url, { blobsDir: blobsDir() })
  const api = await data.store.shared.exclusive(() => createDocsApi({ baseUrl: BASE, store: data.store, blobs: data.blobs, seed: state.doc }))
  return { data, world: { fetch: (r: Request) => api.fetch(r), token: state.token, organization: state.organization, ids: [...state.ids] } }
}

function sqliteApi(state: Awaited<ReturnType<typeof stateOf>>): World {
  const data = sqliteData()
  const api = createDocsApi({ baseUrl: BASE, store: data.store, blobs: data.blobs, seed: state.doc })
  return { fetch: (r: Request) => api.fetch(r), token: state.token, organization: state.organization, ids: [...state.ids] }
}

/** Both APIs, after checking they answer a GET of a space with the same bytes. */
async function bothStores(cluster: Cluster) {
  const state = await stateOf(SPACES)
  const { world: postgres, data } = await postgresApi(cluster, state)
  const sqlite = sqliteApi(state)
  const text = async (w: World) => expectStatus(await w.fetch(new Request(`${BASE}/v1/spaces/${w.ids[42]}`, { headers: auth(w) })), 200)
  const [a, b] = [await text(postgres), await text(sqlite)]
  if (a !== b) throw new Error(`the stores answer differently:\n  postgres ${a}\n  sqlite   ${b}`)
  return { postgres, sqlite, data }
}

type Op = (i: number) => Promise<unknown>

/**
 * `compare` of the two contenders (CPU time of this process), with each operation's wall time
 * added up per round beside it, and the cluster's CPU time over the whole comparison.
 */
async function comparePg(cluster: Cluster, ops: { postgres: Op; sqlite: Op }, options: RoundOptions) {
  const walls: Record<string, number[]> = { postgres: [], sqlite: [] }
  const clocked = (name: 'postgres' | 'sqlite') => async (i: number) => {
    const start = performance.now()
    await ops[name](i)
    if (i >= options.warmup) {
      const round = Math.floor((i - options.warmup) / options.perRound)
      walls[name]![round] = (walls[name]![round] ?? 0) + performance.now() - start
    }
  }
  const before = clusterCpu(cluster)
  const cpu = await compare({ postgres: clocked('postgres'), sqlite: clocked('sqlite') }, options)
  const serverUs = ((clusterCpu(cluster) - before) * 1e6) / (options.warmup + options.rounds * options.perRound)
  const wallRate = (name: string) => median(walls[name]!.map((ms) => (options.perRound / ms) * 1000))
  const wallRatio = median(walls.postgres!.map((ms, round) => walls.sqlite![round]! / ms))
  return { cpu, wall: { postgres: wallRate('postgres'), sqlite: wallRate('sqlite') }, wallRatio, serverUs }
}

function reported(r: Awaited<ReturnType<typeof comparePg>>, unit = 'ops/s', scale = 1): Result {
  const apiUs = (name: string) => (1e6 / r.cpu.rates[name]!).toFixed(0)
  return {
    api: `${formatOps(r.wall.postgres * scale, unit)} wall; CPU/op: API ${apiUs('postgres')} µs + PostgreSQL ${r.serverUs.toFixed(0)} µs`,
    reference: `SQLite ${formatOps(r.wall.sqlite * scale, unit)} wall; CPU/op ${apiUs('sqlite')} µs`,
    value: r.wallRatio,
    shown: `${r.wallRatio.toFixed(2)} (API CPU ${r.cpu.ratio.toFixed(2)})`,
    met: true,
  }
}

const getMeasure = () =>
  withCluster(async (cluster) => {
    const { postgres, sqlite, data } = await bothStores(cluster)
    try {
      const get = (w: World) => async (i: number) =>
        expectStatus(await w.fetch(new Request(`${BASE}/v1/spaces/${w.ids[(i * STRIDE) % SPACES]}`, { headers: auth(w) })), 200)
      return reported(await comparePg(cluster, { postgres: get(postgres), sqlite: get(sqlite) }, { warmup: 2_000, perRound: 500, rounds: 21 }))
    } finally {
      await data.close()
    }
  })

const listMeasure = () =>
  withCluster(async (cluster) => {
    const { postgres, sqlite, data } = await bothStores(cluster)
    try {
      for (const w of [postgres, sqlite]) await checkWalk(w)
      // One walk is 100 pages: rates in pages per second.
      const r = await comparePg(cluster, { postgres: walkList(postgres), sqlite: walkList(sqlite) }, { warmup: 3, perRound: 1, rounds: 21 })
      return reported(
        { ...r, serverUs: r.serverUs / 100, cpu: { ...r.cpu, rates: { postgres: r.cpu.rates.postgres! * 100, sqlite: r.cpu.rates.sqlite! * 100 } } },
        'pages/s',
        100,
      )
    } finally {
      await data.close()
    }
  })

const createMeasure = () =>
  withCluster(async (cluster) => {
    const { postgres, sqlite, data } = await bothStores(cluster)
    try {
      const create = (w: World) => async (i: number) => expectStatus(await w.fetch(createRequest(w, i)), 201)
      return reported(await comparePg(cluster, { postgres: create(postgres), sqlite: create(sqlite) }, { warmup: 500, perRound: 200, rounds: 21 }))
    } finally {
      await data.close()
    }
  })

/** Seconds of load per configuration and pass, after a warm-up of WARMUP_SECONDS (BENCH_PG_WARMUP): with 1 s, fresh processes were still compiling (4 processes read 0.4 of what they did after 4 s). */
const SECONDS = Number(process.env.BENCH_PG_SECONDS ?? 4)
const WARMUP_SECONDS = Number(process.env.BENCH_PG_WARMUP ?? 3)
/** Connections in all, shared out among the processes. */
const CONNECTIONS = 8
/** BENCH_PG_READS_ONLY=1: every request a GET (a diagnosis: how reads alone scale). */
const READS_ONLY = process.env.BENCH_PG_READS_ONLY === '1'
/** Spaces the change requests are opened in (one per process, in turn). */
const CR_SPACES = 4

function startProcess(cluster: Cluster, blobs: string): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', PROCESS, cluster.url, blobs], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    const onData = (chunk: Buffer) => {
      out += chunk
      const port = /listening (\d+)/.exec(out)?.[1]
      if (port) {
        proc.stdout!.off('data', onData)
        proc.stdout!.resume()
        resolve({ proc, url: `http://127.0.0.1:${port}` })
      }
    }
    proc.stdout!.on('data', onData)
    proc.once('close', (code) => reject(new Error(`pg-process exited with ${code}: ${out.slice(0, 300)}`)))
  })
}

function stopProcess(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve()
    proc.once('close', () => resolve())
    proc.kill('SIGTERM')
  })
}

interface Run {
  rps: number
  /** CPU µs per request: the API processes, the cluster. */
  apiUs: number
  serverUs: number
}

async function scaleMeasure(): Promise<Result> {
  return withCluster(async (cluster) => {
    const state = await stateOf(SPACES)
    const blobs = blobsDir()
    // The database, loaded once; every process loads it at its start.
    const { data } = await postgresApi(cluster, state)
    await data.close()
    const { token, ids } = state
    const crSpaces = ids.slice(0, CR_SPACES)
    let acknowledged = 0
    const gets = (p: number, count: number) =>
      Array.from({ length: count }, (_, k) => ({ method: 'GET', path: `/v1/spaces/${ids[((p * 10 + k) * STRIDE) % SPACES]}` }))
    const requests = (p: number) => [
      ...gets(p, 9),
      READS_ONLY
        ? gets(p, 10)[9]!
        : {
            method: 'POST',
            path: `/v1/spaces/${crSpaces[p % CR_SPACES]}/change-requests`,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ subject: 'Bench' }),
            onResponse: (status: number) => {
              if (status === 201) acknowledged++
            },
          },
    ]

    /** `n` processes under load: a warm-up, then SECONDS of load (one autocannon per process, CONNECTIONS / n connections each). */
    const runWith = async (n: number): Promise<Run> => {
      const procs = await Promise.all(Array.from({ length: n }, () => startProcess(cluster, blobs)))
      try {
        const load = (seconds: number) =>
          Promise.all(
            procs.map((p, i) =>
              autocannon({ url: p.url, connections: CONNECTIONS / n, duration: seconds, headers: { authorization: `Bearer ${token}` }, requests: requests(i) }),
            ),
          )
        await load(WARMUP_SECONDS)
        const apiBefore = procs.reduce((s, p) => s + cpuSeconds(p.proc.pid!), 0)
        const serverBefore = clusterCpu(cluster)
        const results = await load(SECONDS)
        const apiSpent = procs.reduce((s, p) => s + cpuSeconds(p.proc.pid!), 0) - apiBefore
        const serverSpent = clusterCpu(cluster) - serverBefore
        for (const r of results)
          if (r.non2xx || r.errors || r.timeouts) throw new Error(`${n} processes: ${r.non2xx} answers not 2xx, ${r.errors} errors, ${r.timeouts} timeouts`)
        const answered = results.reduce((s, r) => s + r['2xx'], 0)
        const rps = results.reduce((s, r) => s + r['2xx'] / r.duration, 0)
        console.error(`pg-scale: ${n} process(es): ${Math.round(rps)} req/s`)
        return { rps, apiUs: (apiSpent * 1e6) / answered, serverUs: (serverSpent * 1e6) / answered }
      } finally {
        await Promise.all(procs.map((p) => stopProcess(p.proc)))
      }
    }

    // Two passes, 1-2-4 then 4-2-1, so that a drift falls on all alike; the figure is their mean.
    const runs: Record<number, Run[]> = { 1: [], 2: [], 4: [] }
    for (const n of [1, 2, 4, 4, 2, 1]) runs[n]!.push(await runWith(n))
    const mean = (n: number, k: keyof Run) => (runs[n]![0]![k] + runs[n]![1]![k]) / 2

    // Correctness: every change request number unique and consecutive in its space, every acknowledged one there.
    const check = await startProcess(cluster, blobs)
    let listed = 0
    try {
      for (const space of crSpaces) {
        const numbers: number[] = []
        let page: string | undefined
        do {
          const res = await fetch(`${check.url}/v1/spaces/${space}/change-requests?limit=100${page ? `&page=${encodeURIComponent(page)}` : ''}`, {
            headers: { authorization: `Bearer ${token}` },
          })
          const body = JSON.parse(await expectStatus(res, 200)) as { items: Array<{ number: number }>; next?: { page: string } }
          numbers.push(...body.items.map((cr) => cr.number))
          page = body.next?.page
        } while (page)
        numbers.sort((a, b) => a - b)
        if (numbers.some((x, i) => x !== i + 1)) throw new Error(`space ${space}: change request numbers not 1..${numbers.length} once each`)
        listed += numbers.length
      }
    } finally {
      await stopProcess(check.proc)
    }
    if (listed < acknowledged) throw new Error(`${acknowledged} change requests acknowledged, ${listed} in the database`)
    console.error(
      `pg-scale: ${acknowledged} change requests acknowledged (201), ${listed} in the database (the rest in flight when a load stopped), numbers unique and consecutive`,
    )

    const [one, two, four] = [mean(1, 'rps'), mean(2, 'rps'), mean(4, 'rps')]
    const cpu = [1, 2, 4].map((n) => `${mean(n, 'apiUs').toFixed(0)}+${mean(n, 'serverUs').toFixed(0)}`).join(' / ')
    return {
      api: `1 / 2 / 4 processes: ${[one, two, four].map((r) => Math.round(r).toLocaleString('en-US')).join(' / ')} req/s (${READS_ONLY ? 'GET space only' : '90 % GET space, 10 % POST CR'})`,
      reference: `CPU µs/req API+PostgreSQL: ${cpu}; 2 cores shared by PostgreSQL, the processes and autocannon`,
      value: four / one,
      shown: `2/1 ${(two / one).toFixed(2)}, 4/1 ${(four / one).toFixed(2)}`,
      met: true,
    }
  })
}

export const postgresMeasures: Record<string, Measure> = {
  'pg-get': { title: 'issue 26 PostgreSQL: GET /v1/spaces/{id} @10k, PostgreSQL / SQLite (wall)', target: 'reported', run: getMeasure },
  'pg-list': { title: 'issue 26 PostgreSQL: walk of the list @10k, PostgreSQL / SQLite (wall)', target: 'reported', run: listMeasure },
  'pg-create': { title: 'issue 26 PostgreSQL: POST /v1/orgs/{id}/spaces @10k, PostgreSQL / SQLite (wall)', target: 'reported', run: createMeasure },
  'pg-scale': { title: 'issue 26 PostgreSQL: mixed load on 1, 2, 4 processes, throughput 4/1', target: 'reported', run: scaleMeasure },
}
