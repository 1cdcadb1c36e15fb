import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { openDataDir } from '../../src/sqlite.js'
import { scratchDir } from './helpers.js'

/**
 * The crash test: the real command line (`serve --data`) in a child process, written to by
 * several clients at once, killed with SIGKILL in the middle of their requests; then again on the
 * same directory; then the directory opened here. Every write a client got an answer for must be
 * there, and every stored counter must equal a recount of the rows it counts.
 */

const root = resolve(import.meta.dirname, '../..')
const bin = join(root, 'src/cli/bin.ts')
const scratch = scratchDir('crash-')

interface Server {
  proc: ChildProcess
  url: string
  token: string
  org: string
}

/** Start `docs-content-api serve --data dir` and wait for its banner. */
function start(dir: string): Promise<Server> {
  const proc = spawn(process.execPath, ['--import', 'tsx', bin, 'serve', '--port', '0', '--data', dir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((done, fail) => {
    let out = ''
    let err = ''
    proc.stderr!.on('data', (chunk) => (err += chunk))
    proc.stdout!.on('data', (chunk) => {
      out += chunk
      if (!out.includes('Ctrl+C to stop.')) return
      const url = /^docs-content-api on (\S+)/.exec(out)![1]!
      const token = /token {2}(gb_api_\S+) {3}\(Ada Lovelace, admin\)/.exec(out)![1]!
      const org = /organization {2}Acme Docs {2}(\S+)/.exec(out)![1]!
      done({ proc, url, token, org })
    })
    proc.once('exit', (code) => fail(new Error(`the server exited (${code}) before serving:\n${out}\n${err}`)))
  })
}

/** What the clients were told was done. */
interface Acked {
  spaces: string[]
  changeRequests: Array<{ id: string; space: string; number: number }>
  comments: Array<{ id: string; space: string; changeRequest?: string }>
  resolved: Set<string>
}

/** Clients writing in a loop until `stop()`; a request counts only once its answer arrived. */
function writers(server: Server, acked: Acked, clients: number) {
  let stopped = false
  let n = 0
  const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }
  const send = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method, headers, body: JSON.stringify(body) })
    const json = (await res.json()) as any
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
    return json
  }
  const pick = <T>(list: T[]): T | undefined => list[Math.floor(Math.random() * list.length)]
  const step = async () => {
    const i = n++
    const space = pick(acked.spaces)
    const cr = pick(acked.changeRequests)
    const comment = pick(acked.comments.filter((c) => !acked.resolved.has(c.id)))
    if (!space || i % 5 === 0) {
      const created = await send('POST', `/v1/orgs/${server.org}/spaces`, { title: `Space ${i}` })
      acked.spaces.push(created.id)
    } else if (i % 5 === 1) {
      const created = await send('POST', `/v1/spaces/${space}/change-requests`, { subject: `Change ${i}` })
      acked.changeRequests.push({ id: created.id, space, number: created.number })
    } else if (i % 5 === 2 || !cr) {
      const created = await send('POST', `/v1/spaces/${space}/comments`, { body: { markdown: `Comment ${i}` } })
      acked.comments.push({ id: created.id, space })
    } else if (i % 5 === 3 || !comment) {
      const created = await send('POST', `/v1/spaces/${cr.space}/change-requests/${cr.id}/comments`, { body: { markdown: `On the change ${i}` } })
      acked.comments.push({ id: created.id, space: cr.space, changeRequest: cr.id })
    } else {
      const path = comment.changeRequest
        ? `/v1/spaces/${comment.space}/change-requests/${comment.changeRequest}/comments/${comment.id}`
        : `/v1/spaces/${comment.space}/comments/${comment.id}`
      await send('PUT', path, { resolved: true })
      acked.resolved.add(comment.id)
    }
  }
  let failure: unknown
  const loops = Array.from({ length: clients }, async () => {
    while (!stopped) {
      try {
        await step()
      } catch (error) {
        // A request cut by the kill has no answer: not acknowledged, nothing to check.
        if (!stopped) {
          failure = error
          stopped = true
        }
      }
    }
  })
  return {
    /** The error of a request that failed while the server was up. */
    failure: () => failure,
    stop: async () => {
      stopped = true
      await Promise.all(loops)
    },
  }
}

async function runAndKill(dir: string, acked: Acked, writes: number): Promise<void> {
  const server = await start(dir)
  const exited = new Promise((done) => server.proc.once('exit', (_code, signal) => done(signal)))
  const loop = writers(server, acked, 4)
  const before = acked.spaces.length + acked.changeRequests.length + acked.comments.length + acked.resolved.size
  while (acked.spaces.length + acked.changeRequests.length + acked.comments.length + acked.resolved.size - before < writes) {
    if (loop.failure()) {
      server.proc.kill('SIGKILL')
      throw loop.failure()
    }
    await new Promise((r) => setTimeout(r, 5))
  }
  // Killed while the clients' next requests are on their way or being answered.
  server.proc.kill('SIGKILL')
  expect(await exited).toBe('SIGKILL')
  await loop.stop()
}

describe('crash: a server killed with SIGKILL mid-writes', () => {
  it('loses no acknowledged write, and its counters equal a recount, after two kills and a restart', async () => {
    const dir = join(scratch, 'data')
    const acked: Acked = { spaces: [], changeRequests: [], comments: [], resolved: new Set() }
    await runAndKill(dir, acked, 120)
    await runAndKill(dir, acked, 120)

    const data = openDataDir(dir)
    try {
      const api = createDocsApi({ store: data.store, blobs: data.blobs })
      const missing = api.store.read((tx) => [
        ...acked.spaces.filter((id) => !tx.get('spaces', id)),
        ...acked.changeRequests.filter((c) => tx.get('changeRequests', c.id)?.number !== c.number).map((c) => c.id),
        ...acked.comments.filter((c) => !tx.get('comments', c.id)).map((c) => c.id),
        ...[...acked.resolved].filter((id) => tx.get('comments', id)?.status !== 'resolved'),
      ])
      expect(missing).toEqual([])
      expect(acked.comments.length).toBeGreaterThan(20)

      api.store.read((tx) => {
        const crs = tx.all('changeRequests')
        const comments = tx.all('comments')
        for (const space of tx.all('spaces')) {
          const own = crs.filter((c) => c.space === space.id)
          expect(space.changeRequests, space.id).toBe(own.length)
          expect(space.changeRequestsOpen, space.id).toBe(own.filter((c) => c.status === 'open').length)
          expect(space.changeRequestsDraft, space.id).toBe(own.filter((c) => c.status === 'draft').length)
          expect(space.comments, space.id).toBe(comments.filter((c) => c.space === space.id && !c.changeRequest && c.status === 'open').length)
          // Numbers are 1..n: no number given twice, none lost to a half-done create.
          expect(own.map((c) => c.number).sort((a, b) => a - b)).toEqual(own.map((_, i) => i + 1))
          // The indexes agree with the rows.
          expect(tx.count('changeRequests', 'bySpace', space.id)).toBe(own.length)
        }
        for (const cr of crs) expect(cr.comments, cr.id).toBe(comments.filter((c) => c.changeRequest === cr.id && c.status === 'open').length)
      })
    } finally {
      data.close()
    }
  }, 120_000)
})
