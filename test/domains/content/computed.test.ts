import { describe, expect, it, vi } from 'vitest'
import { call, createWorld } from '../../helpers.js'

/** Computed content (docs/behaviour/content-and-change-requests.md): checked, then empty; a POST that only reads. */
describe('computed content', () => {
  it('runs in a read transaction, as a GET does: it writes nothing, so it opens no write transaction', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/openapi`, {
      slug: 'petstore',
      source: { text: '{"openapi":"3.0.3","info":{"title":"P","version":"1"},"paths":{}}' },
    })
    await w.api.idle()
    const transactions = vi.spyOn(w.api.store, 'transaction')
    const reads = vi.spyOn(w.api.store, 'read')
    const source = { type: 'builtin:openapi', props: { models: true }, dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } } }
    const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/content/computed/revision`, { source, seed: 's' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toEqual({ pages: [], files: [], reusableContents: [] })
    expect(transactions).not.toHaveBeenCalled()
    expect(reads).toHaveBeenCalled()
  })
})
