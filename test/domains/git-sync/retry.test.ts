import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorld } from '../../helpers.js'
import { startDroppingProxy, type DroppingProxy } from './dropping-proxy.js'
import { exportSpace, gitInfo, gitWorld, importRepo, pageLines, useGitServer } from './helpers.js'

/**
 * A connection the remote dropped while the API kept it alive (docs/behaviour/git-sync.md): a
 * request that only reads is sent again once, a push never, and a failure after the second try says so.
 */
const git = useGitServer()
let proxy: DroppingProxy
beforeAll(async () => {
  proxy = await startDroppingProxy(git.server.base)
})
afterAll(async () => {
  await proxy?.close()
})

const through = (url: string) => url.replace(new URL(git.server.base).host, new URL(proxy.base).host)

/** A fetch whose requests matching `fails` throw as Node's fetch does when the socket was reset, recording each call. */
function resetting(fails: (url: string, method: string, call: number) => boolean) {
  const calls: string[] = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    calls.push(`${method} ${new URL(url).pathname}`)
    if (fails(url, method, calls.length)) throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) })
    return globalThis.fetch(input, init)
  }
  return { fetch, calls }
}

describe('Git Sync over connections the remote drops', () => {
  it('an export right after an import works when the kept-alive connection was dropped meanwhile', async () => {
    const w = await gitWorld()
    git.server.createRepo('dropped', { 'README.md': '# Home\n', 'a.md': '# A\n' })
    const url = through(git.server.url('dropped'))
    await importRepo(w, { url, ref: 'refs/heads/main' })
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', direction: 'import' })
    expect(await pageLines(w, w.space.id)).toEqual(['home: Home', 'a: A'])
    proxy.arm()
    await exportSpace(w, { url, ref: 'refs/heads/out', commitMessage: 'Right after' })
    expect(proxy.dropped).toBe(1)
    expect((await gitInfo(w)).body.operation).toMatchObject({ state: 'success', direction: 'export' })
    expect(git.server.git('dropped', 'log', '-1', '--format=%s', 'out').trim()).toBe('Right after')
  })

  it('reads are sent again once (refs, upload-pack), a push never; a failure after the retry says it was retried', async () => {
    git.server.createRepo('resets', { 'README.md': '# Home\n' })
    const url = git.server.url('resets')
    const world = async (fetch: typeof globalThis.fetch) => {
      const w = await createWorld({ allowPrivateNetwork: true, fetch })
      return { ...w, space: await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' }) }
    }

    // The first call of each kind of read fails: each is sent again, and the import works.
    const seen = new Set<string>()
    const once = resetting((u, method) => {
      const kind = `${method} ${new URL(u).pathname}`
      return !seen.has(kind) && seen.add(kind) !== undefined
    })
    const w1 = await world(once.fetch)
    await importRepo(w1, { url, ref: 'refs/heads/main' })
    expect((await gitInfo(w1)).body.operation).toMatchObject({ state: 'success' })
    // (The refs are read once by an import: the branch's head and the capabilities its fetch asks for.)
    expect(once.calls).toEqual([
      'GET /resets.git/info/refs',
      'GET /resets.git/info/refs',
      'POST /resets.git/git-upload-pack',
      'POST /resets.git/git-upload-pack',
    ])

    // Every call fails: the refs are asked twice, then the import fails saying so.
    const always = resetting(() => true)
    const w2 = await world(always.fetch)
    await importRepo(w2, { url, ref: 'refs/heads/main' })
    expect(always.calls).toEqual(['GET /resets.git/info/refs', 'GET /resets.git/info/refs'])
    expect((await gitInfo(w2)).body.operation).toMatchObject({
      state: 'failure',
      error: expect.stringMatching(/^could not reach the repository: could not reach http:\/\/127\.0\.0\.1:\d+: fetch failed \(retried once\)$/),
    })

    // A push whose connection broke is not sent again (it may have reached the remote).
    const push = resetting((u, method) => method === 'POST' && u.endsWith('/git-receive-pack'))
    const w3 = await world(push.fetch)
    await exportSpace(w3, { url, ref: 'refs/heads/pushed', commitMessage: 'Once' })
    expect(push.calls.filter((c) => c.endsWith('/git-receive-pack') && c.startsWith('POST'))).toHaveLength(1)
    const failed = (await gitInfo(w3)).body.operation
    expect(failed).toMatchObject({ state: 'failure', error: expect.stringContaining('fetch failed') })
    expect(failed.error).not.toContain('retried')
  })
})
