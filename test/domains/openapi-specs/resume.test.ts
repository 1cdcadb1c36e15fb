import { describe, expect, it } from 'vitest'
import { createDocsApi, type DocsApi } from '../../../src/index.js'
import { call, createWorld } from '../../helpers.js'
import { fakeFetch, PETSTORE_YAML } from '../../fixtures/openapi.js'
import { TEST_STORE } from '../../test-storage.js'

/**
 * A spec caught in `progress` (its fetch held) by a fork, a restore or a state document is
 * processed again there (core/resume.ts) and ends `complete` with exactly one version; a job of
 * the old runner still in flight after a restore writes nothing.
 */
const URL_OK = 'https://specs.acme.test/petstore.yaml'
const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

async function midRun() {
  const served = fakeFetch({ [URL_OK]: PETSTORE_YAML })
  const errors: unknown[] = []
  const w = await createWorld({ fetch: served.fetch, onError: (e) => errors.push(e) })
  const base = `/v1/orgs/${w.org.id}/openapi`
  served.hold()
  expect((await call(w.api, w.tokens.ada, 'POST', base, { slug: 'spec', source: { url: URL_OK } })).status).toBe(201)
  await tick()
  const spec = async (api: DocsApi = w.api) => (await call(api, w.tokens.ada, 'GET', `${base}/spec`)).body
  expect((await spec()).processingState).toBe('progress')
  const versions = async (api: DocsApi = w.api) => (await call(api, w.tokens.ada, 'GET', `${base}/spec/versions`)).body.count as number
  return { ...w, served, errors, spec, versions }
}

describe('OpenAPI specs: processing taken up again after a fork, a restore, a state document', () => {
  it('a fork processes the spec it copied in progress; the parent finishes its own', async () => {
    const w = await midRun()
    const fork = w.api.fork()
    await tick()
    expect((await w.spec(fork)).processingState).toBe('progress')
    w.served.release()
    await Promise.all([w.api.idle(), fork.idle()])
    for (const api of [w.api, fork]) {
      expect(await w.spec(api)).toMatchObject({ processingState: 'complete', lastProcessedErrors: [] })
      expect(await w.versions(api)).toBe(1)
    }
    // One fetch for each API's job.
    expect(w.served.calls).toEqual([URL_OK, URL_OK])
    expect(w.errors).toEqual([])
  })

  it.skipIf(TEST_STORE === 'postgres')(
    'restore() to a state with the spec in progress processes it again; the job still in flight writes nothing',
    async () => {
      const w = await midRun()
      const snapshot = w.api.snapshot()
      w.api.restore(snapshot)
      w.served.release()
      await w.api.idle()
      expect(await w.spec()).toMatchObject({ processingState: 'complete', lastProcessedErrors: [] })
      expect(await w.versions()).toBe(1)
      expect(w.served.calls).toEqual([URL_OK, URL_OK])
      // Once complete, a restore of the finished state starts nothing.
      const done = w.api.snapshot()
      w.api.restore(done)
      await w.api.idle()
      expect(w.served.calls.length).toBe(2)
      expect(await w.versions()).toBe(1)
      expect(w.errors).toEqual([])
    },
  )

  it.skipIf(TEST_STORE === 'postgres')('reset() takes up what the seed left in progress, again', async () => {
    const w = await midRun()
    const api = createDocsApi({ fetch: w.served.fetch, seed: w.api.dump(), baseUrl: 'http://localhost:4000' })
    w.served.release()
    await api.idle()
    expect(await w.versions(api)).toBe(1)
    api.reset()
    expect((await w.spec(api)).processingState).toBe('pending')
    await api.idle()
    expect(await w.spec(api)).toMatchObject({ processingState: 'complete' })
    expect(await w.versions(api)).toBe(1)
  })

  it('a state document (seed or fixtures.load) holding the spec in progress has it processed once', async () => {
    const w = await midRun()
    const doc = w.api.dump()
    const seeded = createDocsApi({ fetch: w.served.fetch, seed: doc, baseUrl: 'http://localhost:4000' })
    const loaded = createDocsApi({ fetch: w.served.fetch, baseUrl: 'http://localhost:4000' })
    await loaded.fixtures.load(doc)
    w.served.release()
    await Promise.all([w.api.idle(), seeded.idle(), loaded.idle()])
    for (const api of [w.api, seeded, loaded]) {
      expect((await w.spec(api)).processingState).toBe('complete')
      expect(await w.versions(api)).toBe(1)
    }
    expect(w.served.calls.length).toBe(3)
  })
})
