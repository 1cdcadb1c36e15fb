import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { SERVE_NODE_FLAGS } from '../src/cli/node-flags.js'
import { median } from './harness.js'
import { BASELINE as IMPORT_REFERENCE, ensureBuilt } from './import-cost.js'
import type { Measure, Result } from './measures.js'
import { stopServe as stop } from './stalls.js'

/**
 * The served measures (issue 25): the API as served users run it, `docs-content-api serve` (the
 * built command, dist/cli.js, with its Node flags and `--quiet`, the demo data), under load over
 * HTTP, against a floor (bench/served-floor.mjs: a bare `node:http` server answering the bytes the
 * API answered, recorded first, from a Map after a bearer check) and json-server 0.17 (the same
 * space objects as a `spaces` collection). Each server is a process of its own, pinned to core 0
 * (`taskset`, when the machine has 2 cores or more); the load generator (autocannon, 10
 * connections) runs in this process, pinned to core 1. Rounds alternate the contenders (who goes
 * first reverses every round); each round reads the server's CPU time (utime + stime of
 * /proc/<pid>/stat, every thread of the process) before and after the load, so the CPU time per
 * request is the server's alone. See bench/README.md.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(ROOT, 'dist', 'cli.js')
const FLOOR = fileURLToPath(new URL('./served-floor.mjs', import.meta.url))
const JSON_SERVER = join(ROOT, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js')

/** Seconds of load per contender per round, and rounds (odd: a median); BENCH_SERVED_SECONDS / _ROUNDS for short runs. */
const SECONDS = Number(process.env.BENCH_SERVED_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_SERVED_ROUNDS ?? 5)
const WARMUP_SECONDS = 1
const CONNECTIONS = 10
/** Spaces in the organization: the GETs go to each in turn, the list is one page of all of them. */
const SPACES = 100
/** Clock ticks per second of /proc/<pid>/stat's utime and stime. */
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100)
const PIN = cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0

/** This process (the load generator, all its threads) on core 1; the servers go on core 0. */
function pinLoadGenerator(): void {
  if (PIN) spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' })
}

function spawnServer(args: string[]): ChildProcess {
  const [command, argv] = PIN ? ['taskset', ['-c', '0', process.execPath, ...args]] : [process.execPath, args]
  // taskset execs node: the child's pid is the server's.
  return spawn(command, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
}

/** Resolves with the first match of `pattern` in what the process printed so far. */
function waitFor(proc: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = ''
    const onData = (chunk: Buffer) => {
      out += chunk
      const match = pattern.exec(out)
      if (match) {
        proc.stdout!.off('data', onData)
        // What it prints later is read and dropped: a full pipe would block the server.
        proc.stdout!.resume()
        resolve(match)
      }
    }
    proc.stdout!.on('data', onData)
    // 'close', not 'exit': by then everything it printed was read.
    proc.once('close', (code) => reject(new Error(`${what} exited with ${code}: ${out.slice(0, 500)}`)))
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

interface Server {
  proc: ChildProcess
  url: string
}

interface ServedApi extends Server {
  token: string
  org: string
  adminToken: string
}

/** `docs-content-api serve --port 0 --quiet` (the demo data), ready once its banner is printed. */
async function startApi(): Promise<ServedApi> {
  ensureBuilt(CLI)
  const proc = spawnServer([...SERVE_NODE_FLAGS, CLI, 'serve', '--port', '0', '--quiet'])
  const banner = (await waitFor(proc, /^[\s\S]*Ctrl\+C/, 'docs-content-api serve'))[0]
  const url = /on (http:\/\/\S+)/.exec(banner)![1]!
  const token = /token {2}(\S+) {3}\([^)]*admin/.exec(banner)![1]!
  const org = /organization {2}.* {2}(\S+)\n/.exec(banner)![1]!
  const adminToken = /Admin API: .*Bearer (\S+)\)/.exec(banner)![1]!
  return { proc, url, token, org, adminToken }
}

/** The floor: `stringify` holds each answer parsed and sends `JSON.stringify` of it; `bytes` holds and sends the bytes. */
async function startFloor(answersFile: string, hold: 'stringify' | 'bytes' = 'stringify'): Promise<Server> {
  const proc = spawnServer([FLOOR, answersFile, hold])
  const port = (await waitFor(proc, /listening (\d+)/, 'the floor'))[1]!
  return { proc, url: `http://127.0.0.1:${port}` }
}

/** json-server 0.17 on `db`, ready once it answers its list. */
async function startJsonServer(db: string): Promise<Server> {
  const port = await freePort()
  const proc = spawnServer([JSON_SERVER, db, '--port', String(port), '--host', '127.0.0.1', '--quiet'])
  const url = `http://127.0.0.1:${port}`
  for (let tries = 0; ; tries++) {
    if (proc.exitCode !== null) throw new Error(`json-server exited with ${proc.exitCode}`)
    const ok = await fetch(`${url}/spaces`).then(
      (res) => res.ok,
      () => false,
    )
    if (ok) {
      // What it prints is read and dropped: a full pipe would block the server.
      proc.stdout!.resume()
      return { proc, url }
    }
    if (tries > 300) throw new Error('json-server did not answer within 15 s')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** utime + stime of the process (every thread), in seconds. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // After the command's name: state is field 3, utime 14, stime 15 (man 5 proc).
  return (Number(fields[11]) + Number(fields[12])) / TICKS
}

/** Peak resident set size (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(kb![1]) * 1024
}

interface Contender {
  name: string
  server: Server
  token: string
  /** The paths a round sends, each connection in turn. */
  paths: string[]
}

interface Sample {
  rps: number
  /** Server CPU seconds per request. */
  cpu: number
}

async function load(c: Contender, seconds: number): Promise<Sample> {
  const pid = c.server.proc.pid!
  const before = cpuSeconds(pid)
  const result = await autocannon({
    url: c.server.url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${c.token}` },
    requests: c.paths.map((path) => ({ method: 'GET', path })),
  })
  const spent = cpuSeconds(pid) - before
  if (result.non2xx || result.errors || result.timeouts)
    throw new Error(`${c.name}: ${result.non2xx} answers not 2xx, ${result.errors} errors, ${result.timeouts} timeouts under load`)
  const answered = result['2xx']
  return { rps: answered / result.duration, cpu: spent / answered }
}

/** Warm-up (each contender WARMUP_SECONDS, not counted), then ROUNDS rounds, who goes first alternating. */
async function rounds(contenders: Contender[], seconds = SECONDS, count = ROUNDS): Promise<Record<string, Sample[]>> {
  for (const c of contenders) await load(c, WARMUP_SECONDS)
  const samples: Record<string, Sample[]> = Object.fromEntries(contenders.map((c) => [c.name, []]))
  for (let round = 0; round < count; round++) {
    const order = round % 2 ? [...contenders].reverse() : contenders
    for (const c of order) samples[c.name]!.push(await load(c, seconds))
  }
  return samples
}

/** Median over rounds of a's figure over b's in the same round. */
const pair = (samples: Record<string, Sample[]>, a: string, b: string, figure: keyof Sample) =>
  median(samples[a]!.map((s, round) => s[figure] / samples[b]![round]![figure]))

const mid = (samples: Sample[], figure: keyof Sample) => median(samples.map((s) => s[figure]))
const shownRate = (rps: number) => `${Math.round(rps).toLocaleString('en-US')} req/s`
const shownCpu = (seconds: number) => `${(seconds * 1e6).toFixed(0)} µs CPU/req`
const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

/**
 * The served world: `serve` with the demo data, its organization brought to SPACES spaces by
 * `POST /v1/orgs/{id}/spaces` (as a user adds them); the answers to the GET of each space and to
 * the list of SPACES recorded, byte for byte, for the floor; the same space objects as
 * json-server's `spaces` collection. The floor is checked to answer the API's bytes.
 */
interface ServedWorld {
  api: ServedApi
  dir: string
  answersFile: string
  db: string
  gets: string[]
  list: string
  ids: string[]
  /** Bytes of the served state (`GET /_admin/state`): "the data" of the memory target. */
  dataBytes: number
  close(): Promise<void>
}

async function servedWorld(): Promise<ServedWorld> {
  const api = await startApi()
  const call = async (method: string, path: string, body?: unknown, token = api.token) => {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
    return { text, contentType: res.headers.get('content-type') ?? 'application/json', status: res.status }
  }
  const list = `/v1/orgs/${api.org}/spaces?limit=${SPACES}`
  const count = (JSON.parse((await call('GET', list)).text) as { count?: number; items: unknown[] }).items.length
  for (let i = count; i < SPACES; i++) await call('POST', `/v1/orgs/${api.org}/spaces`, { title: `Space ${i}` })
  const listed = await call('GET', list)
  const items = (JSON.parse(listed.text) as { items: Array<{ id: string }> }).items
  if (items.length !== SPACES) throw new Error(`the list of ${SPACES} holds ${items.length} spaces`)
  const ids = items.map((s) => s.id)
  const gets = ids.map((id) => `/v1/spaces/${id}`)
  const answers: Record<string, { status: number; contentType: string; body: string }> = {}
  for (const path of gets) {
    const { text, contentType, status } = await call('GET', path)
    answers[path] = { status, contentType, body: text }
  }
  answers[list] = { status: listed.status, contentType: listed.contentType, body: listed.text }
  const dir = mkdtempSync(join(tmpdir(), 'bench-served-'))
  const answersFile = join(dir, 'answers.json')
  writeFileSync(answersFile, JSON.stringify({ token: api.token, answers }))
  const db = join(dir, 'db.json')
  writeFileSync(db, JSON.stringify({ spaces: gets.map((path) => JSON.parse(answers[path]!.body)) }))
  const dataBytes = Buffer.byteLength((await call('GET', '/_admin/state', undefined, api.adminToken)).text)
  return {
    api,
    dir,
    answersFile,
    db,
    gets,
    list,
    ids,
    dataBytes,
    async close() {
      await stop(api.proc)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A floor, checked to answer the API's recorded bytes for a GET and the list. */
async function checkedFloor(world: ServedWorld, hold: 'stringify' | 'bytes'): Promise<Server> {
  const floor = await startFloor(world.answersFile, hold)
  const { answers } = JSON.parse(readFileSync(world.answersFile, 'utf8')) as { answers: Record<string, { body: string }> }
  for (const path of [world.gets[0]!, world.list]) {
    const text = await (await fetch(`${floor.url}${path}`, { headers: { authorization: `Bearer ${world.api.token}` } })).text()
    if (text !== answers[path]!.body) throw new Error(`the floor answers other bytes than the API for ${path}`)
  }
  return floor
}

interface Servers {
  floor: Server
  floorBytes: Server
  json: Server
}

async function withServers<T>(
  run: (world: ServedWorld, servers: Servers) => Promise<T>,
  needs: { floor: boolean; bytes?: boolean; json: boolean },
): Promise<T> {
  pinLoadGenerator()
  const world = await servedWorld()
  const started: Server[] = []
  try {
    const floor = needs.floor ? await checkedFloor(world, 'stringify') : undefined
    if (floor) started.push(floor)
    const floorBytes = needs.bytes ? await checkedFloor(world, 'bytes') : undefined
    if (floorBytes) started.push(floorBytes)
    const json = needs.json ? await startJsonServer(world.db) : undefined
    if (json) started.push(json)
    return await run(world, { floor: floor!, floorBytes: floorBytes!, json: json! })
  } finally {
    for (const s of started) await stop(s.proc)
    await world.close()
  }
}

const apiContender = (w: ServedWorld, paths: string[]): Contender => ({ name: 'api', server: w.api, token: w.api.token, paths })
const floorContender = (w: ServedWorld, floor: Server, paths: string[], name = 'floor'): Contender => ({ name, server: floor, token: w.api.token, paths })
const jsonContender = (w: ServedWorld, json: Server, list: boolean): Contender => ({
  name: 'json-server',
  server: json,
  token: w.api.token,
  paths: list ? ['/spaces'] : w.ids.map((id) => `/spaces/${id}`),
})

/** API CPU per request over the floor's, alternating rounds of the same requests. */
function cpuOverFloor(list: boolean, target: number) {
  return () =>
    withServers(
      async (world, { floor, floorBytes }) => {
        const paths = list ? [world.list] : world.gets
        const samples = await rounds([floorContender(world, floor, paths), floorContender(world, floorBytes, paths, 'bytes'), apiContender(world, paths)])
        const cpu = pair(samples, 'api', 'floor', 'cpu')
        const rate = pair(samples, 'api', 'floor', 'rps')
        const overBytes = pair(samples, 'api', 'bytes', 'cpu')
        return {
          api: `${shownRate(mid(samples.api!, 'rps'))}, ${shownCpu(mid(samples.api!, 'cpu'))}`,
          reference: `floor ${shownRate(mid(samples.floor!, 'rps'))}, ${shownCpu(mid(samples.floor!, 'cpu'))}; bytes floor ${shownCpu(mid(samples.bytes!, 'cpu'))}`,
          value: cpu,
          shown: `${cpu.toFixed(2)}× CPU/req (${rate.toFixed(2)}× req/s); ${overBytes.toFixed(2)}× the bytes floor's CPU`,
          met: cpu <= target,
        } satisfies Result
      },
      { floor: true, bytes: true, json: false },
    )
}

/** Peak RSS (VmHWM) of `serve` and of the floor, after alternating rounds of GETs and lists on both. */
function servedMemory(): Promise<Result> {
  return withServers(
    async (world, { floor }) => {
      await rounds([floorContender(world, floor, world.gets), apiContender(world, world.gets)], SECONDS, 3)
      await rounds([floorContender(world, floor, [world.list]), apiContender(world, [world.list])], SECONDS, 3)
      const [api, base] = [peakRss(world.api.proc.pid!), peakRss(floor.proc.pid!)]
      const limit = 2 * base + world.dataBytes
      return {
        api: `${MB(api)} peak RSS`,
        reference: `floor ${MB(base)}, data ${(world.dataBytes / 1024).toFixed(0)} KB`,
        value: api / limit,
        shown: `${MB(api)} (${(api / limit).toFixed(2)}× the limit, ${MB(limit)})`,
        met: api <= limit,
      }
    },
    { floor: true, json: false },
  )
}

/** Requests per second of the API over json-server's, on the GETs and on the list of 100. */
function servedVsJsonServer(): Promise<Result> {
  return withServers(
    async (world, { json }) => {
      const get = await rounds([apiContender(world, world.gets), jsonContender(world, json, false)])
      const list = await rounds([apiContender(world, [world.list]), jsonContender(world, json, true)])
      const [g, l] = [pair(get, 'api', 'json-server', 'rps'), pair(list, 'api', 'json-server', 'rps')]
      return {
        api: `GET ${shownRate(mid(get.api!, 'rps'))}, list ${shownRate(mid(list.api!, 'rps'))}`,
        reference: `json-server GET ${shownRate(mid(get['json-server']!, 'rps'))}, list ${shownRate(mid(list['json-server']!, 'rps'))}`,
        value: Math.min(g, l),
        shown: `GET ${g.toFixed(2)}×, list ${l.toFixed(2)}×`,
        met: Math.min(g, l) >= 1,
      }
    },
    { floor: false, json: true },
  )
}

/**
 * Wall time, in ms, from spawning a process (`start`) to its first answer (`answered`); the process
 * is then stopped, untimed, and waited for, so it takes no CPU from the next start.
 */
async function timedStart(start: () => Promise<ChildProcess>, answered: () => Promise<void>): Promise<number> {
  const t = performance.now()
  const proc = await start()
  try {
    await answered()
    return performance.now() - t
  } finally {
    await stop(proc)
  }
}

/**
 * Start-up: wall time from spawning to a first answered request, `serve` (demo data; the banner,
 * then `GET /v1/orgs` with the admin's token) against the floor (its `listening` line, then a
 * recorded GET), and the import reference of (w) (a fresh process importing zod, immer and nanoid,
 * until it reports). Target: serve ≤ 2 × floor + 3 × reference, the (w) import target.
 */
async function servedStartup(): Promise<Result> {
  pinLoadGenerator()
  const world = await servedWorld()
  const { token, answersFile, gets } = { token: world.api.token, answersFile: world.answersFile, gets: world.gets }
  const expect200 = async (url: string, bearer: string, what: string) => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${bearer}` } })
    await res.text()
    if (res.status !== 200) throw new Error(`${what} answered ${res.status}`)
  }
  try {
    const serveOnce = () => {
      let api: ServedApi
      return timedStart(
        async () => (api = await startApi()).proc,
        () => expect200(`${api.url}/v1/orgs`, api.token, 'serve'),
      )
    }
    const floorOnce = () => {
      let floor: Server
      return timedStart(
        async () => (floor = await startFloor(answersFile)).proc,
        () => expect200(`${floor.url}${gets[0]}`, token, 'the floor'),
      )
    }
    const referenceOnce = () => {
      let proc: ChildProcess
      return timedStart(
        async () => (proc = spawnServer(['--input-type=module', '-e', IMPORT_REFERENCE])),
        async () => void (await waitFor(proc, /COST /, 'the import reference')),
      )
    }
    // Once each first, not counted (the page cache).
    const kinds = { serve: serveOnce, floor: floorOnce, reference: referenceOnce }
    for (const once of Object.values(kinds)) await once()
    const times: Record<string, number[]> = { serve: [], floor: [], reference: [] }
    const ratios: number[] = []
    for (let round = 0; round < 7; round++) {
      const names = Object.keys(kinds) as Array<keyof typeof kinds>
      for (const name of round % 2 ? [...names].reverse() : names) times[name]!.push(await kinds[name]())
      const i = times.serve!.length - 1
      ratios.push(times.serve![i]! / (2 * times.floor![i]! + 3 * times.reference![i]!))
    }
    const value = median(ratios)
    const [s, f, r] = [median(times.serve!), median(times.floor!), median(times.reference!)]
    return {
      api: `serve ${s.toFixed(0)} ms`,
      reference: `floor ${f.toFixed(0)} ms, import reference ${r.toFixed(0)} ms`,
      value,
      shown: `${value.toFixed(2)}× (2 × floor + 3 × reference)`,
      met: value <= 1,
    }
  } finally {
    await world.close()
  }
}

/** The served measures, in `npm run bench` (run.ts runs each in a fresh process). */
export const servedMeasures: Record<string, Measure> = {
  'served-get': { title: '(y1) served GET /v1/spaces/{id}, API CPU per request / floor', target: '<= 1.3', run: cpuOverFloor(false, 1.3) },
  'served-list': { title: '(y2) served list of 100 spaces, API CPU per request / floor', target: '<= 1.0', run: cpuOverFloor(true, 1) },
  'served-memory': { title: '(y3) served peak RSS under load, over 2 × floor + data', target: '<= 1', run: servedMemory },
  'served-vs-json-server': { title: '(y4) served req/s, API / json-server 0.17 (GET, list of 100)', target: '>= 1 each', run: servedVsJsonServer },
  'served-startup': { title: '(y5) serve start until a first answer, over 2 × floor + 3 × import reference', target: '<= 1', run: servedStartup },
}
