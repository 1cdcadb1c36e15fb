import { describe, expect, it } from 'vitest'
import { createDocsApi, type DocsApi } from '../../../src/index.js'
import type { Translator } from '../../../src/domains/translations/translator.js'
import { sequentialIds } from '../../../src/testing.js'
import { BASE, call, createWorld } from '../../helpers.js'
import { TEST_STORE } from '../../test-storage.js'

/**
 * A translation caught `running` (its translator held) by a fork, a restore or a state document
 * is run again there (core/resume.ts): it ends `completed` with one run counted and one result
 * space; a run of the old runner still in flight after a restore writes nothing.
 */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

/** An uppercasing translator that waits while held. */
function heldTranslator() {
  let gate: Promise<void> | undefined
  let open: (() => void) | undefined
  const calls: string[] = []
  const translate: Translator = async (text) => {
    calls.push(text)
    await gate
    return text.toUpperCase()
  }
  return {
    translate,
    calls,
    hold: () => void (gate = new Promise((resolve) => (open = resolve))),
    release: () => (open?.(), (gate = undefined)),
  }
}

async function midRun() {
  const w = await createWorld()
  const t = heldTranslator()
  const api = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('t'), seed: w.api.dump(), translate: t.translate })
  const space = await api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const cr = (await call(api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' })).body
  await call(api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello world.' } }],
  })
  expect((await call(api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200)
  t.hold()
  const base = `/v1/orgs/${w.org.id}/translations`
  const created = (await call(api, w.tokens.ada, 'POST', base, { language: 'fr', source: { space: space.id, language: 'en' } })).body
  await tick()
  const get = async (on: DocsApi = api) => (await call(on, w.tokens.ada, 'GET', `${base}/${created.id}`)).body
  expect((await get()).status).toBe('running')
  /** The result spaces in the organization (one per translation, made by its first run). */
  const results = (on: DocsApi) => on.store.read((tx) => tx.all('spaces').filter((s) => s.title === 'Handbook (fr)').length)
  return { ...w, api, t, get, results }
}

/** What one completed run of the one page gives. */
async function expectDoneOnce(w: Awaited<ReturnType<typeof midRun>>, on: DocsApi) {
  const tr = await w.get(on)
  expect(tr).toMatchObject({ status: 'completed', stats: { runs: 1, totalPages: 1, latestPages: 1 } })
  expect(tr.lastRunError).toBeUndefined()
  expect(w.results(on)).toBe(1)
  const pages = (await call(on, w.tokens.ada, 'GET', `/v1/spaces/${tr.result.space}/content/pages`)).body.pages
  expect(pages.map((p: { title: string }) => p.title)).toEqual(['WELCOME'])
}

describe('translations: runs taken up again after a fork, a restore, a state document', () => {
  it('a fork runs the translation it copied running; the parent completes its own', async () => {
    const w = await midRun()
    const fork = w.api.fork()
    expect((await w.get(fork)).status).toBe('pending')
    w.t.release()
    await Promise.all([w.api.idle(), fork.idle()])
    await expectDoneOnce(w, w.api)
    await expectDoneOnce(w, fork)
  })

  it.skipIf(TEST_STORE === 'postgres')('restore() to the running state runs it again; the run still in flight writes nothing', async () => {
    const w = await midRun()
    w.api.restore(w.api.snapshot())
    w.t.release()
    await w.api.idle()
    await expectDoneOnce(w, w.api)
    // The old run and the resumed one each sent the page's title and text; only one was written.
    expect(w.t.calls.filter((c) => c === 'Welcome').length).toBe(2)
  })

  it('a state document (seed or fixtures.load) with the translation running has it run once', async () => {
    const w = await midRun()
    const doc = w.api.dump()
    const seeded = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('s'), seed: doc, translate: w.t.translate })
    const loaded = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('l'), translate: w.t.translate })
    await loaded.fixtures.load(doc)
    w.t.release()
    await Promise.all([w.api.idle(), seeded.idle(), loaded.idle()])
    for (const api of [w.api, seeded, loaded]) await expectDoneOnce(w, api)
  })
})
