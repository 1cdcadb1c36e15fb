import { describe, expect, it, vi } from 'vitest'
import { createDocsApi, type DocsApi } from '../../../src/index.js'
import { sequentialIds } from '../../../src/testing.js'
import { BASE, call, createWorld } from '../../helpers.js'
import { TEST_STORE } from '../../test-storage.js'

/**
 * A conversation caught `processing` (the language tools' loading held) by a fork, a restore or
 * a state document is processed again there (core/resume.ts): it ends `processed` with its
 * issues once; a job of the old runner still in flight after a restore writes nothing.
 */
const control = vi.hoisted(() => ({ gate: undefined as Promise<void> | undefined }))
vi.mock('../../../src/domains/conversations/text-tools.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/domains/conversations/text-tools.js')>()
  return {
    ...real,
    loadTextTools: async () => {
      await control.gate
      return real.loadTextTools()
    },
  }
})

const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

async function midRun() {
  const w = await createWorld()
  let release!: () => void
  control.gate = new Promise<void>((resolve) => (release = resolve))
  const body = { id: 'c1', parts: [{ type: 'message', role: 'user', body: 'The PDF export fails on every space.' }] }
  expect((await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/conversations`, body)).status).toBe(204)
  await tick()
  const get = async (on: DocsApi = w.api) => (await call(on, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/conversations/c1`)).body.conversation
  expect((await get()).status).toBe('processing')
  return {
    ...w,
    get,
    release: () => {
      control.gate = undefined
      release()
    },
  }
}

/** One processing of the conversation: processed, one issue in one cluster. */
async function expectProcessedOnce(w: Awaited<ReturnType<typeof midRun>>, on: DocsApi) {
  expect(await w.get(on)).toMatchObject({ status: 'processed', impact: 'medium' })
  const issues = (await call(on, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/conversations-issues`)).body
  expect(issues.items.map((i: { issue: { title: string } }) => i.issue.title)).toEqual(['The PDF export fails on every space'])
  const clusters = (await call(on, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/conversations-clusters`)).body
  expect(clusters.items.map((c: { stats: unknown }) => c.stats)).toEqual([{ issues: 1, conversations: 1 }])
}

describe('conversations: processing taken up again after a fork, a restore, a state document', () => {
  it('a fork processes the conversation it copied processing; the parent finishes its own', async () => {
    const w = await midRun()
    const fork = w.api.fork()
    expect((await w.get(fork)).status).toBe('pending')
    w.release()
    await Promise.all([w.api.idle(), fork.idle()])
    await expectProcessedOnce(w, w.api)
    await expectProcessedOnce(w, fork)
  })

  it.skipIf(TEST_STORE === 'postgres')('restore() to the processing state processes it again; the job still in flight writes nothing', async () => {
    const w = await midRun()
    const snapshot = w.api.snapshot()
    w.api.restore(snapshot)
    w.release()
    await w.api.idle()
    await expectProcessedOnce(w, w.api)
    // Back to the state mid-run once more, its job long ended: processed again, once.
    w.api.restore(snapshot)
    expect((await w.get()).status).toBe('pending')
    await w.api.idle()
    await expectProcessedOnce(w, w.api)
  })

  it('a state document (seed or fixtures.load) with the conversation processing has it processed once', async () => {
    const w = await midRun()
    const doc = w.api.dump()
    const seeded = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('s'), seed: doc })
    const loaded = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('l') })
    await loaded.fixtures.load(doc)
    w.release()
    await Promise.all([w.api.idle(), seeded.idle(), loaded.idle()])
    for (const api of [w.api, seeded, loaded]) await expectProcessedOnce(w, api)
  })

  it('issues a document gives a conversation still processing go before it is processed again (not twice)', async () => {
    const w = await midRun()
    w.release()
    await w.api.idle()
    const doc = w.api.dump()
    doc.conversations = doc.conversations!.map((c) => ({ ...c, status: 'processing' as const }))
    const seeded = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('s'), seed: doc })
    await seeded.idle()
    await expectProcessedOnce(w, seeded)
  })
})
