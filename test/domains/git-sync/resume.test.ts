import { describe, expect, it } from 'vitest'
import { createDocsApi, type DocsApi } from '../../../src/index.js'
import { INTERRUPTED } from '../../../src/domains/git-sync/resume.js'
import { sequentialIds } from '../../../src/testing.js'
import { BASE, call, createWorld } from '../../helpers.js'
import { TEST_STORE } from '../../test-storage.js'

/**
 * A Git Sync operation caught `running` (its remote held) by a fork, a restore or a state
 * document cannot be run again (its credentials, commit message and author live only in its
 * job): it ends as a failure saying so, and the job of the old runner still in flight after a
 * restore writes nothing over it.
 */
async function midRun() {
  let reached!: () => void
  const called = new Promise<void>((resolve) => (reached = resolve))
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const calls: string[] = []
  // A remote that answers 404 once released.
  const fetch = (async (input: RequestInfo | URL) => {
    calls.push(String(input instanceof Request ? input.url : input))
    reached()
    await gate
    return new Response('no such repository', { status: 404 })
  }) as typeof globalThis.fetch
  const w = await createWorld({ fetch })
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
  const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/git/import`, { url: 'https://git.example.com/a/b.git', ref: 'refs/heads/main' })
  expect(res.status).toBe(204)
  await called
  const info = async (on: DocsApi = w.api) => (await call(on, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/git/info`)).body.operation
  expect((await info()).state).toBe('running')
  return { ...w, fetch, calls, release, info }
}

describe('Git Sync: an operation running when the API forks, goes back or is saved', () => {
  it('ends as a failure saying why in a fork; the parent ends its own', async () => {
    const w = await midRun()
    const fork = w.api.fork()
    expect(await w.info(fork)).toEqual({
      state: 'failure',
      direction: 'import',
      startedAt: '2026-03-01T10:00:00.000Z',
      endedAt: '2026-03-01T10:00:00.000Z',
      error: INTERRUPTED,
    })
    w.release()
    await Promise.all([w.api.idle(), fork.idle()])
    expect(await w.info()).toMatchObject({ state: 'failure', error: 'no repository at this URL (HTTP 404)' })
    expect((await w.info(fork)).error).toBe(INTERRUPTED)
    // The fork started no job of its own.
    expect(w.calls).toHaveLength(1)
  })

  it.skipIf(TEST_STORE === 'postgres')(
    'after restore() to the running state: a failure saying why, which the job still in flight does not overwrite',
    async () => {
      const w = await midRun()
      w.api.restore(w.api.snapshot())
      expect((await w.info()).error).toBe(INTERRUPTED)
      w.release()
      await w.api.idle()
      expect(await w.info()).toMatchObject({ state: 'failure', error: INTERRUPTED })
    },
  )

  it('loaded from a state document (seed or fixtures.load): a failure saying why', async () => {
    const w = await midRun()
    const doc = w.api.dump()
    expect(doc.gitSyncs![0]!.operation.state).toBe('running')
    const seeded = createDocsApi({ baseUrl: BASE, ids: sequentialIds('s'), seed: doc })
    const loaded = createDocsApi({ baseUrl: BASE, ids: sequentialIds('l') })
    await loaded.fixtures.load(doc)
    for (const api of [seeded, loaded]) expect(await w.info(api)).toMatchObject({ state: 'failure', error: INTERRUPTED })
    w.release()
    await w.api.idle()
  })
})
