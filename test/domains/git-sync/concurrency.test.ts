import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { call, createWorld } from '../../helpers.js'
import { gitInfo, useGitServer } from './helpers.js'

/**
 * Requests close together: a space's Git Sync operations run one at a time, a job replaced by a
 * newer request never pushes, the newer export reads the last synced commit when it runs, and a
 * push the remote refuses says why. What a sync integration does after quick merges: export,
 * merge, export, merge, export without waiting.
 */
const git = useGitServer()

/** A fetch that can hold the requests matching `hold` until `release()` (each held one reported by `held`). */
function gate() {
  let hold: ((url: string, init?: RequestInit) => boolean) | undefined
  let release!: () => void
  let opened = new Promise<void>((resolve) => (release = resolve))
  let reached!: () => void
  const held = new Promise<void>((resolve) => (reached = resolve))
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (hold?.(url, init)) {
      hold = undefined
      reached()
      await opened
    }
    return globalThis.fetch(input, init)
  }
  return {
    fetch,
    holdNext(match: (url: string, init?: RequestInit) => boolean) {
      hold = match
    },
    held,
    release: () => {
      release()
      opened = Promise.resolve()
    },
  }
}

async function world(fetch?: typeof globalThis.fetch) {
  const w = await createWorld({ allowPrivateNetwork: true, ...(fetch && { fetch }) })
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
  const s = `/v1/spaces/${space.id}`
  const addPage = async (title: string) => {
    const cr = (await call(w.api, w.tokens.ada, 'POST', `${s}/change-requests`, { subject: title })).body
    await call(w.api, w.tokens.ada, 'POST', `${s}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'insert_page', title, document: { markdown: `${title} body` } }],
    })
    expect((await call(w.api, w.tokens.ada, 'POST', `${s}/change-requests/${cr.id}/merge`)).status).toBe(200)
  }
  const exportAs = (repo: string, commitMessage: string) =>
    call(w.api, w.tokens.ada, 'POST', `${s}/git/export`, { url: git.server.url(repo), ref: 'refs/heads/main', commitMessage })
  return { ...w, space, addPage, exportAs }
}

/** A small seeded generator (mulberry32), so each trial's timing is the same on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The remote is at the space's last export and the sync is healthy: git info says success on the remote's head. */
async function expectSettled(w: Awaited<ReturnType<typeof world>>, repo: string, last: string) {
  const info = (await gitInfo(w)).body
  expect(info.operation, JSON.stringify(info.operation)).toMatchObject({ state: 'success', direction: 'export' })
  const head = git.server.git(repo, 'rev-parse', 'main').trim()
  expect(info.operation.commit).toBe(head)
  expect(git.server.git(repo, 'log', '-1', '--format=%s', 'main').trim()).toBe(last)
  expect(git.server.git(repo, 'show', 'main:SUMMARY.md')).toContain(`[${last[0]!.toUpperCase()}${last.slice(1)}]`)
}

describe('Git Sync operations close together', () => {
  it('export, then "two" and "three" without waiting: the remote ends at "three" and the next export succeeds (many timings)', async () => {
    const next = random(20260311)
    for (let trial = 0; trial < 10; trial++) {
      const w = await world()
      const repo = `quick-${trial}`
      git.server.createRepo(repo)
      await w.addPage('One')
      await w.exportAs(repo, 'one')
      await w.api.idle()
      await w.addPage('Two')
      expect((await w.exportAs(repo, 'two')).status).toBe(204)
      await sleep(Math.floor(next() * 40))
      await w.addPage('Three')
      expect((await w.exportAs(repo, 'three')).status).toBe(204)
      await w.api.idle()
      await expectSettled(w, repo, 'three')
      await w.addPage('Four')
      await w.exportAs(repo, 'four')
      await w.api.idle()
      await expectSettled(w, repo, 'four')
    }
  }, 120_000)

  it('an export replaced while it waited for the remote never pushes; one replaced after its push leaves the sync on its commit', async () => {
    for (const stage of ['fetch', 'push'] as const) {
      const g = gate()
      const w = await world(g.fetch)
      const repo = `held-${stage}`
      git.server.createRepo(repo)
      await w.addPage('One')
      await w.exportAs(repo, 'one')
      await w.api.idle()
      await w.addPage('Two')
      // Hold "two" at its first look at the branch, or at its push.
      g.holdNext((url, init) => (stage === 'fetch' ? url.includes('/info/refs') : init?.method === 'POST' && url.endsWith('/git-receive-pack')))
      await w.exportAs(repo, 'two')
      await g.held
      await w.addPage('Three')
      await w.exportAs(repo, 'three')
      g.release()
      await w.api.idle()
      await expectSettled(w, repo, 'three')
      const log = git.server.git(repo, 'log', '--format=%s', 'main').trim().split('\n')
      expect(log).toEqual(stage === 'fetch' ? ['three', 'one'] : ['three', 'two', 'one'])
    }
  })

  it('a push the remote refuses because the branch moved meanwhile says so, and overwrites nothing', async () => {
    const g = gate()
    const w = await world(g.fetch)
    git.server.createRepo('moved-meanwhile')
    await w.addPage('One')
    await w.exportAs('moved-meanwhile', 'one')
    await w.api.idle()
    await w.addPage('Two')
    g.holdNext((url, init) => init?.method === 'POST' && url.endsWith('/git-receive-pack'))
    await w.exportAs('moved-meanwhile', 'two')
    await g.held
    const theirs = git.server.commit('moved-meanwhile', { 'theirs.md': '# Theirs\n' }, { message: 'Their change' })
    g.release()
    await w.api.idle()
    const info = (await gitInfo(w)).body
    expect(info.operation.state).toBe('failure')
    expect(info.operation.error).toBe(
      'the remote refused the push: the branch "main" moved while the export ran (another push reached it first); nothing was overwritten: import its changes, or export again',
    )
    expect(git.server.git('moved-meanwhile', 'rev-parse', 'main').trim()).toBe(theirs)
  })
})

describe('Git Sync jobs across spaces', () => {
  /**
   * A fetch recording, per request, which repository it reached, and how many requests were in
   * flight at most. With `meet`, the first request waits for a second one to start (two jobs
   * running side by side then always overlap).
   */
  function counting(meet = false) {
    const order: string[] = []
    let inFlight = 0
    let most = 0
    let second!: () => void
    const met = new Promise<void>((resolve) => (second = resolve))
    const fetch: typeof globalThis.fetch = async (input, init) => {
      order.push(new URL(String(input)).pathname.split('/')[1]!)
      most = Math.max(most, ++inFlight)
      if (order.length === 2) second()
      try {
        if (meet && order.length === 1) await met
        return await globalThis.fetch(input, init)
      } finally {
        inFlight--
      }
    }
    return { fetch, order, most: () => most }
  }

  it("run at most `gitSync.maxConcurrentJobs` at once: with 1, a second space's import waits for the first one to end", async () => {
    git.server.createRepo('capped-a', { 'README.md': '# A\n', 'a.md': '# Page A\n' })
    git.server.createRepo('capped-b', { 'README.md': '# B\n', 'b.md': '# Page B\n' })
    const run = async (maxConcurrentJobs: number) => {
      const remote = counting(maxConcurrentJobs > 1)
      const w = await createWorld({ allowPrivateNetwork: true, fetch: remote.fetch, gitSync: { maxConcurrentJobs } })
      const spaces = [await w.api.fixtures.createSpace(w.org.id, { title: 'A' }), await w.api.fixtures.createSpace(w.org.id, { title: 'B' })]
      for (const [i, space] of spaces.entries()) {
        const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/git/import`, {
          url: git.server.url(`capped-${'ab'[i]}`),
          ref: 'refs/heads/main',
        })
        expect(res.status).toBe(204)
      }
      await w.api.idle()
      for (const space of spaces) expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/git/info`)).body.operation.state).toBe('success')
      return remote
    }
    const one = await run(1)
    // Every request of the first import came before any of the second: one job at a time.
    const firstB = one.order.indexOf('capped-b.git')
    expect(one.order.slice(0, firstB).every((r) => r === 'capped-a.git')).toBe(true)
    expect(one.order.slice(firstB).every((r) => r === 'capped-b.git')).toBe(true)
    expect(one.most()).toBe(1)
    // With 2 (the default), the two imports run side by side.
    const two = await run(2)
    expect(two.most()).toBe(2)
  })

  it('refuses a limit that is not a whole number of 1 or more', async () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => createDocsApi({ gitSync: { maxConcurrentJobs: bad } })).toThrow(/gitSync\.maxConcurrentJobs must be a whole number, 1 or more/)
  })
})
