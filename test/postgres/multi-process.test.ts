import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DATABASE_URL, freshDatabase } from './helpers.js'

/**
 * Issue 26's proof: several `docs-content-api serve --database` processes (the built command,
 * dist/cli.js: `npm run build` first) over one PostgreSQL database, behind a round-robin proxy,
 * under 20 concurrent writers of mixed operations (change requests, content edits, merges,
 * comments and replies). Then every acknowledged write (a 2xx answer) is read back through each
 * process, counters are compared with recounts, and change request numbers must be unique per
 * space. One test kills a process with SIGKILL in the middle.
 *
 * Runs only with DATABASE_URL (scripts/postgres-test.sh run -- npx vitest run test/postgres/multi-process.test.ts).
 * MULTI_PROCESS_SECONDS: how long the writers run in each test (default 60; CI runs them shorter).
 */

const root = resolve(import.meta.dirname, '../..')
const cliJs = join(root, 'dist/cli.js')
const SECONDS = Number(process.env.MULTI_PROCESS_SECONDS ?? 60)
const WRITERS = 20
const TOKEN = `gb_api_multi_${randomBytes(9).toString('hex')}`
const timeout = (SECONDS + 240) * 1000

// --- databases: one per test (freshDatabase, dropped after the file's tests) ---------------------

// --- processes -----------------------------------------------------------------------------------

interface Proc {
  child: ChildProcess
  url: string
  out: () => string
  alive: boolean
}
const children: ChildProcess[] = []
const dirs: string[] = []

/** `serve --database` as a person starts it; resolves once it listens (its banner printed). */
function startServe(database: string, blobs: string): Promise<Proc> {
  const child = spawn(process.execPath, [cliJs, 'serve', '--database', database, '--blobs', blobs, '--port', '0', '--quiet', '--admin-token', TOKEN], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DEMO_TOKEN: '' },
  })
  children.push(child)
  let out = ''
  let err = ''
  return new Promise((done, fail) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const url = /^docs-content-api on (\S+)/m.exec(out)?.[1]
      if (url && out.includes('Ctrl+C to stop.')) {
        const proc: Proc = { child, url, out: () => out, alive: true }
        child.once('exit', () => (proc.alive = false))
        done(proc)
      }
    })
    child.stderr!.on('data', (chunk) => (err += chunk))
    child.once('exit', (code) => fail(new Error(`serve exited (${code}) before listening:\n${out}\n${err}`)))
  })
}

afterAll(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** SIGTERM, and the exit (the server closes its store). */
async function stop(proc: Proc): Promise<number | null> {
  if (!proc.alive) return proc.child.exitCode
  const exited = new Promise<number | null>((done) => proc.child.once('exit', (code) => done(code)))
  proc.child.kill('SIGTERM')
  return exited
}

// --- the proxy: round-robin over the live processes ----------------------------------------------

interface Proxy {
  url: string
  /** Requests each backend answered (by its url). */
  answered: Map<string, number>
  /** Requests refused for a connection error (not acknowledged). */
  connectionErrors: number
  close(): Promise<void>
}

function startProxy(backends: Proc[]): Promise<Proxy> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  const answered = new Map<string, number>()
  const state = { next: 0, connectionErrors: 0 }
  const live = () => backends.filter((b) => b.alive)
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const pool = live()
    if (pool.length === 0) {
      res.writeHead(503).end('no backend')
      return
    }
    const backend = pool[state.next++ % pool.length]!
    const target = new URL(req.url!, backend.url)
    const out = request(target, { method: req.method, headers: { ...req.headers, host: target.host }, agent }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers)
      answer.pipe(res)
      answer.once('end', () => answered.set(backend.url, (answered.get(backend.url) ?? 0) + 1))
      answer.once('error', () => res.destroy())
    })
    out.once('error', () => {
      // A connection refused or cut: the backend is dropped from the rotation; the client gets a 502 (not acknowledged).
      state.connectionErrors++
      backend.alive = backend.child.exitCode === null && backend.child.signalCode === null ? backend.alive : false
      if (!res.headersSent) res.writeHead(502).end('backend connection error')
      else res.destroy()
    })
    out.end(body)
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => forward(req, res, Buffer.concat(chunks)))
  })
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        answered,
        get connectionErrors() {
          return state.connectionErrors
        },
        close: async () => {
          server.closeAllConnections()
          await new Promise((d) => server.close(d))
          agent.destroy()
        },
      }),
    ),
  )
}

// --- the writers and what they record --------------------------------------------------------------

interface Ledger {
  /** Acknowledged change requests: space → id → number. */
  changeRequests: Map<string, Map<string, number>>
  /** Pages created by acknowledged content edits: `${space}/${cr}` → page ids. */
  pages: Map<string, string[]>
  /** Acknowledged merges: `${space}/${cr}`. */
  merged: Set<string>
  /** Acknowledged comments: `${space}` or `${space}/${cr}` → comment ids. */
  comments: Map<string, string[]>
  /** Acknowledged replies: `${space}/${comment}` → reply ids. */
  replies: Map<string, string[]>
  counts: Record<string, number>
  /** A change request created through one process and not readable at once through another. */
  staleReads: string[]
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text }
  } catch {
    return { status: 0, body: undefined }
  }
}
const ok = (status: number) => status >= 200 && status < 300

/** Every item of a paged list (`next.page`). */
async function listAll(base: string, path: string): Promise<any[]> {
  const items: any[] = []
  let page: string | undefined
  for (;;) {
    const res = await call(base, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=100${page ? `&page=${encodeURIComponent(page)}` : ''}`)
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`)
    items.push(...res.body.items)
    page = res.body.next?.page
    if (!page) return items
  }
}

const push = <K>(map: Map<K, string[]>, key: K, value: string) => map.set(key, [...(map.get(key) ?? []), value])

/** 20 writers of mixed operations through the proxy for `seconds`; every 2xx is recorded. */
async function runWriters(proxy: Proxy, direct: () => Proc[], spaces: string[], seconds: number, midway?: () => Promise<void>): Promise<Ledger> {
  const ledger: Ledger = { changeRequests: new Map(), pages: new Map(), merged: new Set(), comments: new Map(), replies: new Map(), counts: {}, staleReads: [] }
  const count = (what: string) => (ledger.counts[what] = (ledger.counts[what] ?? 0) + 1)
  const end = Date.now() + seconds * 1000
  let n = 0
  const writer = async (w: number) => {
    const mine: Array<{ space: string; cr: string }> = []
    while (Date.now() < end) {
      const space = spaces[(w + n++) % spaces.length]!
      const roll = Math.random()
      const open = mine.filter((c) => !ledger.merged.has(`${c.space}/${c.cr}`))
      if (roll < 0.25 || open.length === 0) {
        // Every fourth change request: created through one process directly, read at once through another.
        const procs = direct().filter((p) => p.alive)
        const across = n % 4 === 0 && procs.length >= 2
        const a = across ? procs[n % procs.length]! : undefined
        const b = across ? procs[(n + 1) % procs.length]! : undefined
        const res = await call(a?.url ?? proxy.url, 'POST', `/v1/spaces/${space}/change-requests`, { subject: `w${w} ${n}` })
        if (!ok(res.status)) {
          count(`createChangeRequest ${res.status}`)
          continue
        }
        count('createChangeRequest')
        const byId = ledger.changeRequests.get(space) ?? new Map<string, number>()
        byId.set(res.body.id, res.body.number)
        ledger.changeRequests.set(space, byId)
        mine.push({ space, cr: res.body.id })
        if (b) {
          const read = await call(b.url, 'GET', `/v1/spaces/${space}/change-requests/${res.body.id}`)
          // A process killed meanwhile answers nothing: only an answer that misses it counts.
          if (read.status !== 0 && read.status !== 200) ledger.staleReads.push(`${res.body.id} via ${b.url}: ${read.status}`)
        }
        continue
      }
      const target = open[Math.floor(Math.random() * open.length)]!
      const key = `${target.space}/${target.cr}`
      if (roll < 0.55) {
        const res = await call(proxy.url, 'POST', `/v1/spaces/${target.space}/change-requests/${target.cr}/content`, {
          changes: [{ operation: 'insert_page', title: `Page ${w}.${n}`, document: { markdown: `# Page ${w}.${n}\n\nWritten by writer ${w}.\n` } }],
        })
        if (!ok(res.status)) {
          count(`updateChangeRequestContent ${res.status}`)
          continue
        }
        count('updateChangeRequestContent')
        for (const change of res.body.changes ?? []) if (change.object === 'created_page') push(ledger.pages, key, change.page.id)
      } else if (roll < 0.7) {
        const res = await call(proxy.url, 'POST', `/v1/spaces/${target.space}/change-requests/${target.cr}/merge`)
        if (!ok(res.status) || res.body.result !== 'merge') {
          count(`mergeChangeRequest ${res.status} ${res.body?.result ?? ''}`)
          continue
        }
        count('mergeChangeRequest')
        ledger.merged.add(key)
      } else if (roll < 0.8) {
        const res = await call(proxy.url, 'POST', `/v1/spaces/${target.space}/change-requests/${target.cr}/comments`, {
          body: { markdown: `On ${key} by ${w}` },
        })
        if (!ok(res.status)) {
          count(`postCommentInChangeRequest ${res.status}`)
          continue
        }
        count('postCommentInChangeRequest')
        push(ledger.comments, key, res.body.id)
      } else {
        const comments = ledger.comments.get(space)
        if (!comments?.length || Math.random() < 0.4) {
          const res = await call(proxy.url, 'POST', `/v1/spaces/${space}/comments`, { body: { markdown: `Comment by ${w}` } })
          if (!ok(res.status)) {
            count(`postCommentInSpace ${res.status}`)
            continue
          }
          count('postCommentInSpace')
          push(ledger.comments, space, res.body.id)
        } else {
          const comment = comments[Math.floor(Math.random() * comments.length)]!
          const res = await call(proxy.url, 'POST', `/v1/spaces/${space}/comments/${comment}/replies`, { body: { markdown: `Reply by ${w}` } })
          if (!ok(res.status)) {
            count(`postCommentReplyInSpace ${res.status}`)
            continue
          }
          count('postCommentReplyInSpace')
          push(ledger.replies, `${space}/${comment}`, res.body.id)
        }
      }
    }
  }
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w))
  if (midway) {
    await new Promise((done) => setTimeout(done, (seconds * 1000) / 2))
    await midway()
  }
  await Promise.all(writers)
  return ledger
}

/** Every acknowledged write read back through `base`; counters against recounts; unique numbers. Returns the problems found. */
async function check(base: string, spaces: string[], ledger: Ledger): Promise<string[]> {
  const problems: string[] = []
  for (const space of spaces) {
    // The list reads one status at a time (open by default).
    const listed = (
      await Promise.all(['draft', 'open', 'merged', 'archived'].map((status) => listAll(base, `/v1/spaces/${space}/change-requests?status=${status}`)))
    ).flat()
    const ids = new Set(listed.map((cr) => cr.id))
    for (const id of ledger.changeRequests.get(space)?.keys() ?? []) if (!ids.has(id)) problems.push(`${base}: change request ${id} of ${space} missing`)
    // The space's counters against recounts of its lists.
    const counted = await call(base, 'GET', `/v1/spaces/${space}`)
    const ofStatus = (status: string) => listed.filter((cr) => cr.status === status).length
    const recount = { changeRequests: listed.length, changeRequestsOpen: ofStatus('open'), changeRequestsDraft: ofStatus('draft') }
    const said = {
      changeRequests: counted.body?.changeRequests,
      changeRequestsOpen: counted.body?.changeRequestsOpen,
      changeRequestsDraft: counted.body?.changeRequestsDraft,
    }
    if (JSON.stringify(said) !== JSON.stringify(recount)) problems.push(`${base}: ${space} counts ${JSON.stringify(said)}, lists ${JSON.stringify(recount)}`)
    const numbers = listed.map((cr) => cr.number)
    if (new Set(numbers).size !== numbers.length) problems.push(`${base}: ${space} has duplicate change request numbers`)
    for (const [id, number] of ledger.changeRequests.get(space) ?? []) {
      const found = listed.find((cr) => cr.id === id)
      if (found && found.number !== number) problems.push(`${base}: change request ${id} numbered ${found.number}, answered ${number}`)
    }
    for (const cr of listed) {
      if (!ledger.changeRequests.get(space)?.has(cr.id)) continue
      const key = `${space}/${cr.id}`
      if (ledger.merged.has(key) && cr.status !== 'merged') problems.push(`${base}: ${key} merged (acknowledged) but ${cr.status}`)
      const comments = await listAll(base, `/v1/spaces/${space}/change-requests/${cr.id}/comments`)
      const commentIds = new Set(comments.map((c) => c.id))
      for (const id of ledger.comments.get(key) ?? []) if (!commentIds.has(id)) problems.push(`${base}: comment ${id} of ${key} missing`)
      const openComments = comments.filter((c) => c.status === 'open').length
      if (cr.comments !== openComments) problems.push(`${base}: ${key} counts ${cr.comments} comments, lists ${openComments} open`)
      const pages = ledger.pages.get(key) ?? []
      if (pages.length) {
        const inCr = new Set((await listAll(base, `/v1/spaces/${space}/change-requests/${cr.id}/content/pages`)).flatMap(flattenPages))
        for (const page of pages) if (!inCr.has(page)) problems.push(`${base}: page ${page} of ${key} missing`)
      }
    }
    const mergedPages = [...ledger.merged].filter((key) => key.startsWith(`${space}/`)).flatMap((key) => ledger.pages.get(key) ?? [])
    if (mergedPages.length) {
      const main = new Set((await listAll(base, `/v1/spaces/${space}/content/pages`)).flatMap(flattenPages))
      for (const page of mergedPages) if (!main.has(page)) problems.push(`${base}: page ${page} merged into ${space} missing from its content`)
    }
    const comments = await listAll(base, `/v1/spaces/${space}/comments`)
    const openInSpace = comments.filter((c) => c.status === 'open').length
    if (counted.body?.comments !== openInSpace) problems.push(`${base}: ${space} counts ${counted.body?.comments} comments, lists ${openInSpace} open`)
    const commentIds = new Set(comments.map((c) => c.id))
    for (const id of ledger.comments.get(space) ?? []) if (!commentIds.has(id)) problems.push(`${base}: comment ${id} of ${space} missing`)
    for (const comment of comments) {
      const replies = await listAll(base, `/v1/spaces/${space}/comments/${comment.id}/replies`)
      if (comment.replies !== replies.length) problems.push(`${base}: comment ${comment.id} counts ${comment.replies} replies, lists ${replies.length}`)
      const replyIds = new Set(replies.map((r) => r.id))
      for (const id of ledger.replies.get(`${space}/${comment.id}`) ?? []) if (!replyIds.has(id)) problems.push(`${base}: reply ${id} missing`)
    }
  }
  return problems
}

/** Page ids of a listPages answer (its items nest pages). */
function flattenPages(page: any): string[] {
  return [page.id, ...(page.pages ?? []).flatMap(flattenPages)]
}

/** The demo organization and `n` spaces created in it for the writers. */
async function setupSpaces(base: string, n: number): Promise<string[]> {
  const orgs = await listAll(base, '/v1/orgs')
  expect(orgs).toHaveLength(1)
  const spaces: string[] = []
  for (let i = 0; i < n; i++) {
    const res = await call(base, 'POST', `/v1/orgs/${orgs[0].id}/spaces`, { title: `Load ${i}` })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    spaces.push(res.body.id)
  }
  return spaces
}

/** N processes started at once on a fresh database, the proxy in front. */
async function cluster(n: number) {
  const database = await freshDatabase()
  const blobs = mkdtempSync(join(tmpdir(), 'mp-blobs-'))
  dirs.push(blobs)
  const procs = await Promise.all(Array.from({ length: n }, () => startServe(database, blobs)))
  const proxy = await startProxy(procs)
  return { database, blobs, procs, proxy }
}

function summary(label: string, ledger: Ledger, proxy: Proxy, procs: Proc[], ms: number) {
  const acknowledged = Object.entries(ledger.counts)
    .filter(([k]) => !k.includes(' '))
    .reduce((a, [, v]) => a + v, 0)
  const split = procs.map((p) => `${p.url.replace(/^http:\/\/localhost:/, ':')}=${proxy.answered.get(p.url) ?? 0}`).join(' ')
  console.log(
    `[multi-process] ${label}: ${acknowledged} writes acknowledged in ${Math.round(ms / 100) / 10} s; answered per process ${split}; connection errors ${proxy.connectionErrors}; ${JSON.stringify(ledger.counts)}`,
  )
  return acknowledged
}

describe.skipIf(!DATABASE_URL)('multi-process: serve --database behind one address', () => {
  it.each([2, 4])(
    '%i processes, 20 concurrent writers: every acknowledged write present through each process, counters equal recounts, numbers unique',
    async (n) => {
      expect(existsSync(cliJs), 'dist/cli.js: run npm run build first').toBe(true)
      const { procs, proxy } = await cluster(n)
      // Started at once on an empty database: seeded once (one organization, one admin token).
      const spaces = await setupSpaces(proxy.url, 4)
      const started = performance.now()
      const ledger = await runWriters(proxy, () => procs, spaces, SECONDS)
      const acknowledged = summary(`${n} processes`, ledger, proxy, procs, performance.now() - started)
      expect(acknowledged).toBeGreaterThan(0)
      expect(ledger.counts.createChangeRequest).toBeGreaterThan(0)
      expect(ledger.counts.mergeChangeRequest).toBeGreaterThan(0)
      expect(ledger.staleReads).toEqual([])
      for (const proc of procs) expect(await check(proc.url, spaces, ledger)).toEqual([])
      for (const proc of procs) expect((await listAll(proc.url, '/v1/orgs')).length).toBe(1)
      await proxy.close()
      for (const proc of procs) expect(await stop(proc)).toBe(0)
    },
    timeout,
  )

  it(
    'one of three processes killed with SIGKILL in the middle: the others go on, nothing acknowledged is lost, a new process finds it all',
    async () => {
      const { database, blobs, procs, proxy } = await cluster(3)
      const spaces = await setupSpaces(proxy.url, 4)
      const started = performance.now()
      const victim = procs[1]!
      let atKill = new Map<string, number>()
      const ledger = await runWriters(
        proxy,
        () => procs,
        spaces,
        SECONDS,
        async () => {
          victim.child.kill('SIGKILL')
          await new Promise((done) => victim.child.once('exit', done))
          atKill = new Map(proxy.answered)
        },
      )
      const acknowledged = summary('3 processes, one killed', ledger, proxy, procs, performance.now() - started)
      expect(victim.alive).toBe(false)
      expect(acknowledged).toBeGreaterThan(0)
      expect(ledger.staleReads).toEqual([])
      const survivors = procs.filter((p) => p.alive)
      expect(survivors).toHaveLength(2)
      // The survivors went on: each answered requests after the kill (the writers kept going through them).
      for (const proc of survivors) expect(proxy.answered.get(proc.url) ?? 0).toBeGreaterThan(atKill.get(proc.url) ?? 0)
      for (const proc of survivors) expect(await check(proc.url, spaces, ledger)).toEqual([])
      // A process started afterwards on the same database catches up with everything.
      const late = await startServe(database, blobs)
      expect(await check(late.url, spaces, ledger)).toEqual([])
      await proxy.close()
      for (const proc of [...survivors, late]) expect(await stop(proc)).toBe(0)
    },
    timeout,
  )
})
