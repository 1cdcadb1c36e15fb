import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Measure, Result } from './measures.js'
import { prose } from '../test/stall.js'
import { SERVE_NODE_FLAGS } from '../src/cli/node-flags.js'

/**
 * (q): the longest event-loop stall of a served API while a worst-case request of each kind runs.
 * The server is `docs-content-api serve` with its Node flags (src/cli/node-flags.ts; demo data, worker threads for CPU-heavy work, the
 * resolving fetch; `--allow-private-network` for the file server below) in a process of its own;
 * this process sends the worst-case request and, meanwhile, a small authenticated GET
 * (`GET /v1/user`) every 2 ms, one after the other. The stall is the longest wait of such a GET
 * while the request (and the background work it starts) runs, less the median wait of the same
 * GET before it: how long any other caller waited on the worst-case caller. Target 100 ms.
 */

const bin = fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url))

interface Served {
  url: string
  token: string
  org: string
  proc: ChildProcess
  call(method: string, path: string, body?: unknown): Promise<Response>
}

async function startServe(): Promise<Served> {
  const proc = spawn(
    process.execPath,
    [
      ...SERVE_NODE_FLAGS,
      ...(process.env.BENCH_SERVE_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--import',
      'tsx',
      bin,
      'serve',
      '--port',
      '0',
      '--allow-private-network',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let out = ''
  const banner = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (chunk) => {
      out += chunk
      if (out.includes('Ctrl+C')) resolve(out)
    })
    proc.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)))
  })
  const url = /on (http:\/\/\S+)/.exec(banner)![1]!
  const token = /token {2}(\S+) {3}\([^)]*admin/.exec(banner)![1]!
  const org = /organization {2}.* {2}(\S+)\n/.exec(banner)![1]!
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${url}/v1${path}`, { method, headers, ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }) })
  return { url, token, org, proc, call }
}

/** How long each of `count` pings waits, in ms, one after the other (2 ms apart). */
/**
 * The pinger: a process of its own sending a small GET every 2 ms and timing each answer, so what
 * the bench itself does (building a 13 MB body, reading a PDF) never counts as a wait of the
 * server. It sends 200 pings first (the baseline), says `ready`, then times the pings from `go` to
 * `stop` and prints both lists as JSON.
 */
const PINGER = `
  const [url, token] = process.argv.slice(1)
  const before = [], during = []
  let phase = 'before', stopped = false
  process.stdin.setEncoding('utf8').on('data', (line) => {
    if (line.includes('go')) phase = 'during'
    if (line.includes('stop')) stopped = true
  })
  ;(async () => {
    while (!stopped) {
      const t = performance.now()
      const res = await fetch(url + '/v1/user', { headers: { authorization: 'Bearer ' + token } })
      await res.arrayBuffer()
      const wait = performance.now() - t
      if (phase === 'before') {
        before.push(wait)
        if (before.length === 200) { phase = 'waiting'; process.stdout.write('ready\\n') }
      } else if (phase === 'during') during.push(wait)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    process.stdout.write(JSON.stringify({ before, during }) + '\\n')
    process.exit(0)
  })()`

interface Pinger {
  /** Resolves when the baseline pings are done. */
  ready: Promise<void>
  go(): void
  stop(): Promise<{ before: number[]; during: number[] }>
}

function startPinger(s: Served): Pinger {
  const proc = spawn(process.execPath, ['-e', PINGER, s.url, s.token], { stdio: ['pipe', 'pipe', 'inherit'] })
  let out = ''
  let onReady: () => void
  const ready = new Promise<void>((resolve) => (onReady = resolve))
  const done = new Promise<{ before: number[]; during: number[] }>((resolve, reject) => {
    proc.stdout!.on('data', (chunk) => {
      out += chunk
      if (out.includes('ready')) onReady()
      // The waits are one line of JSON, which may come in several chunks: parsed once it ends.
      const json = out.split('\n').find((line, i, lines) => line.startsWith('{') && i < lines.length - 1)
      if (json) resolve(JSON.parse(json))
    })
    proc.on('exit', (code) => (code === 0 ? undefined : reject(new Error(`the pinger exited with ${code}`))))
  })
  let stopping: Promise<{ before: number[]; during: number[] }> | undefined
  return {
    ready,
    go: () => proc.stdin!.write('go\n'),
    stop: () => (stopping ??= (proc.stdin!.write('stop\n'), done)),
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** The worst-case work of a kind, and what it needs set up first (not measured). */
interface Kind {
  title: string
  setup?(s: Served): Promise<unknown>
  /** The worst-case request(s); resolves once the work it started is over. */
  run(s: Served, setup: unknown): Promise<string>
}

const expectOk = async (res: Response, what: string): Promise<unknown> => {
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : undefined
}

async function firstSpace(s: Served): Promise<string> {
  const list = (await expectOk(await s.call('GET', `/orgs/${s.org}/spaces`), 'spaces')) as { items: Array<{ id: string }> }
  return list.items[0]!.id
}

async function newChangeRequest(s: Served, space: string): Promise<string> {
  return ((await expectOk(await s.call('POST', `/spaces/${space}/change-requests`, { subject: 'Bench' }), 'change request')) as { id: string }).id
}

/** 40 pages of 330 KB of prose (13 MB of markdown: the batch), merged: what the PDF, search and read kinds start from. */
async function largeSpace(s: Served): Promise<{ space: string; cr: string; page: string }> {
  const space = await firstSpace(s)
  const cr = await newChangeRequest(s, space)
  const changes = Array.from({ length: 40 }, (_, i) => ({ operation: 'insert_page', title: `Large ${i}`, document: { markdown: prose(330_000) } }))
  await expectOk(await s.call('POST', `/spaces/${space}/change-requests/${cr}/content`, { changes }), 'batch')
  const pages = (await expectOk(await s.call('GET', `/spaces/${space}/change-requests/${cr}/content/pages`), 'pages')) as {
    pages: Array<{ id: string; title: string }>
  }
  return { space, cr, page: pages.pages.find((p) => p.title === 'Large 0')!.id }
}

/**
 * A file server on this machine, in a process of its own (its work must not delay this process's
 * pings): `/<n>` answers 10 MiB. The API may reach it (`--allow-private-network`).
 */
async function fileServer(): Promise<{ url: string; close(): void }> {
  const script = `
    const body = Buffer.alloc(10 * 1024 * 1024, 0x61)
    const server = require('node:http').createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) }).end(body))
    server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port))`
  const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<string>((resolve) => proc.stdout!.on('data', (chunk) => resolve(/PORT (\d+)/.exec(String(chunk))![1]!)))
  return { url: `http://127.0.0.1:${port}`, close: () => proc.kill() }
}

/** An OpenAPI spec whose schemas each $ref every earlier one (the fan-out), n of them. */
function fanOutSpec(n: number): string {
  const schemas: Record<string, unknown> = {}
  for (let i = 0; i < n; i++)
    schemas[`S${i}`] = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: i }, (_, j) => [`p${j}`, { $ref: `#/components/schemas/S${j}` }])),
    }
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Fan-out', version: '1' }, paths: {}, components: { schemas } })
}

async function specProcessed(s: Served, slug: string): Promise<void> {
  for (;;) {
    const spec = (await expectOk(await s.call('GET', `/orgs/${s.org}/openapi/${slug}`), 'spec')) as { processingState?: string }
    if (spec.processingState !== 'pending' && spec.processingState !== 'progress') return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export const KINDS: Record<string, Kind> = {
  'stall-markdown': {
    title: 'comment of pathological markdown (`*a` x 400,000 and `**a` x 200,000)',
    async setup(s) {
      await (await s.call('POST', `/spaces/${await firstSpace(s)}/comments`, { body: { markdown: 'A *warm* **up**' } })).text()
    },
    async run(s) {
      const space = await firstSpace(s)
      for (const markdown of ['*a'.repeat(400_000), '**a'.repeat(200_000)]) {
        const res = await s.call('POST', `/spaces/${space}/comments`, { body: { markdown } })
        await res.text()
      }
      return 'posted'
    },
  },
  'stall-batch': {
    title: 'content batch of 40 pages of 330 KB of prose (13 MB of markdown)',
    async run(s) {
      const { cr } = await largeSpace(s)
      return `change request ${cr}`
    },
  },
  'stall-json-batch': {
    title: 'content batch of 40 JSON documents (12 MB, 2,500 blocks each)',
    async run(s) {
      const space = await firstSpace(s)
      const cr = await newChangeRequest(s, space)
      const paragraph = (text: string) => ({
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
      })
      const changes = Array.from({ length: 40 }, (_, n) => ({
        operation: 'insert_page',
        title: `P${n}`,
        document: {
          document: { object: 'document', data: {}, nodes: Array.from({ length: 2500 }, (_, i) => paragraph(`line ${n}.${i} of a page of the batch`)) },
        },
      }))
      await expectOk(await s.call('POST', `/spaces/${space}/change-requests/${cr}/content`, { changes }), 'batch')
      return 'stored'
    },
  },
  'stall-search': {
    title: 'search just after merging the 40-page batch (the index warms up)',
    async setup(s) {
      const large = await largeSpace(s)
      await expectOk(await s.call('POST', `/spaces/${large.space}/change-requests/${large.cr}/merge`), 'merge')
      return large
    },
    async run(s, setup) {
      const { space } = setup as { space: string }
      await expectOk(await s.call('GET', `/spaces/${space}/search?query=wizards`), 'search')
      await expectOk(await s.call('GET', `/orgs/${s.org}/search?query=boxing`), 'org search')
      return 'searched'
    },
  },
  'stall-read-markdown': {
    title: 'a 330 KB page read as markdown',
    async setup(s) {
      const large = await largeSpace(s)
      await expectOk(await s.call('POST', `/spaces/${large.space}/change-requests/${large.cr}/merge`), 'merge')
      return large
    },
    async run(s, setup) {
      const { space, page } = setup as { space: string; page: string }
      await expectOk(await s.call('GET', `/spaces/${space}/content/page/${page}?format=markdown`), 'page')
      return 'read'
    },
  },
  'stall-pdf': {
    title: 'PDF of the 40-page change request, fetched twice',
    setup: largeSpace,
    async run(s, setup) {
      const { space, cr } = setup as { space: string; cr: string }
      const { url } = (await expectOk(await s.call('GET', `/spaces/${space}/change-requests/${cr}/pdf`), 'pdf url')) as { url: string }
      for (let i = 0; i < 2; i++) {
        const res = await fetch(url)
        if (res.status !== 200) throw new Error(`pdf: ${res.status}`)
        await res.arrayBuffer()
      }
      return 'rendered'
    },
  },
  'stall-openapi': {
    title: 'OpenAPI spec of 30 schemas each $ref-ing every earlier one (processed)',
    async run(s) {
      await expectOk(await s.call('PUT', `/orgs/${s.org}/openapi/fan-out`, { source: { text: fanOutSpec(30) } }), 'spec')
      await specProcessed(s, 'fan-out')
      return 'processed'
    },
  },
  'stall-files': {
    title: 'content batch of 3 files by URL of 10 MiB each',
    async setup() {
      return fileServer()
    },
    async run(s, setup) {
      const { url, close } = setup as { url: string; close(): void }
      try {
        const space = await firstSpace(s)
        const cr = await newChangeRequest(s, space)
        const files = Array.from({ length: 3 }, (_, i) => ({ name: `f${i}.bin`, url: `${url}/${i}` }))
        await expectOk(await s.call('POST', `/spaces/${space}/change-requests/${cr}/content`, { changes: [{ operation: 'insert_files', files }] }), 'files')
        return 'fetched'
      } finally {
        close()
      }
    },
  },
  'stall-hostile-body': {
    title: 'Git import bodies nested 20,000 deep and with a 1 MiB string (an outsider)',
    // The same refusals once on small bodies first: the first run of a code path is slower (the JIT).
    async setup(s) {
      const space = await firstSpace(s)
      for (const body of [`{"url":${'['.repeat(300)}${']'.repeat(300)}}`, JSON.stringify({ url: `https://${'a'.repeat(5000)}`, ref: 'refs/heads/main' })])
        await (await s.call('POST', `/spaces/${space}/git/import`, body)).text()
    },
    async run(s) {
      const space = await firstSpace(s)
      const deep = `{"url":${'['.repeat(20_000)}${']'.repeat(20_000)},"ref":"refs/heads/main"}`
      const long = JSON.stringify({ url: `https://${'a'.repeat(1_000_000)}`, ref: 'refs/heads/main' })
      for (const body of [deep, long]) await (await s.call('POST', `/spaces/${space}/git/import`, body)).text()
      return 'refused'
    },
  },
}

async function stallOf(kind: Kind): Promise<Result> {
  const s = await startServe()
  try {
    const setup = await kind.setup?.(s)
    const pinger = startPinger(s)
    await pinger.ready
    pinger.go()
    const t = performance.now()
    await kind.run(s, setup).finally(() => pinger.stop())
    const duration = performance.now() - t
    const { before, during: waits } = await pinger.stop()
    const base = median(before)
    const stall = Math.max(...waits) - base
    return {
      api: `${Math.max(...waits).toFixed(0)} ms longest wait`,
      reference: `${base.toFixed(1)} ms median wait, ${(duration / 1000).toFixed(1)} s of work`,
      value: stall,
      shown: `${stall.toFixed(0)} ms`,
      met: stall <= 100,
    }
  } finally {
    await stopServe(s.proc)
  }
}

/**
 * Stop the served process and wait for it: one left running (closing waits for its background
 * work, a 13 MB batch's for seconds) would take CPU from the next measure, which then reads a
 * longer stall that is not its own. SIGINT, then SIGKILL after 5 s. The served measures (served.ts)
 * stop their servers with it too.
 */
export async function stopServe(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return
  const exited = new Promise((resolve) => proc.once('exit', resolve))
  proc.kill('SIGINT')
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(timer)
}

/** The (q) measures, one per kind. */
export const stallMeasures: Record<string, Measure> = Object.fromEntries(
  Object.entries(KINDS).map(([name, kind], i) => [name, { title: `(q${i + 1}) stall: ${kind.title}`, target: '<= 100 ms', run: () => stallOf(kind) }]),
)
