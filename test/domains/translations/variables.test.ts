import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { sequentialIds } from '../../../src/testing.js'
import { BASE, call, createWorld } from '../../helpers.js'

/** A translation's result revision carries the source revision's variables, as a duplicated space does. */
describe('translations: space variables', () => {
  it('the result revision has the source revision variables; a later run follows a change of them', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    const cr = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' })).body
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.' } }],
    })
    expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200)
    // Variables come with a state document (no operation sets them).
    const doc = w.api.dump()
    const main = w.api.store.read((tx) => tx.get('spaces', space.id)!.revision)
    doc.revisions = doc.revisions!.map((r) => (r.id === main ? { ...r, variables: { product: 'Acme Cloud', version: '2.1' } } : r))
    const api = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('t'), seed: doc, translate: (t) => t.toUpperCase() })
    const source = (await call(api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/revisions/${main}`)).body
    expect(source.variables).toEqual({ product: 'Acme Cloud', version: '2.1' })

    const base = `/v1/orgs/${w.org.id}/translations`
    const id = (await call(api, w.tokens.ada, 'POST', base, { language: 'fr', source: { space: space.id, language: 'en' } })).body.id
    await api.idle()
    const first = (await call(api, w.tokens.ada, 'GET', `${base}/${id}`)).body
    const result = (await call(api, w.tokens.ada, 'GET', `/v1/spaces/${first.result.space}/revisions/${first.result.revision}`)).body
    expect(result.variables).toEqual({ product: 'Acme Cloud', version: '2.1' })

    // The source's variables change (a state document again): the next run writes them, pages untouched.
    const later = api.dump()
    later.revisions = later.revisions!.map((r) => (r.id === main ? { ...r, variables: { product: 'Acme Cloud', version: '3.0' } } : r))
    const again = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('u'), seed: later, translate: (t) => t.toUpperCase() })
    await call(again, w.tokens.ada, 'POST', `${base}/${id}/run`)
    await again.idle()
    const second = (await call(again, w.tokens.ada, 'GET', `${base}/${id}`)).body
    expect(second.result.revision).not.toBe(first.result.revision)
    expect(second.stats).toMatchObject({ runs: 2, latestPages: 0 })
    const revision = (await call(again, w.tokens.ada, 'GET', `/v1/spaces/${second.result.space}/revisions/${second.result.revision}`)).body
    expect(revision.variables).toEqual({ product: 'Acme Cloud', version: '3.0' })
    // The source is only read.
    expect((await call(again, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/revisions/${main}`)).body.variables).toEqual({
      product: 'Acme Cloud',
      version: '3.0',
    })
  })
})
