import { describe, expect, it } from 'vitest'
import { createDocsApi, type DocsApi } from '../../../src/index.js'
import { API_CORE } from '../../../src/http/api-core.js'
import { call } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { page, publish, searchOrg, searchSpace, searchWorld, titles } from './helpers.js'
import { TEST_STORE } from '../../test-storage.js'

/** Pages the API's search index has indexed so far (derived state: not in the store). */
const indexed = (api: DocsApi) => api[API_CORE].runtime.services.search.stats.pagesIndexed

const update = (pageId: string, markdown: string, extra: object = {}) => ({ operation: 'update_page', page: pageId, document: { markdown }, ...extra })

describe('search: the index follows main content', () => {
  it('finds new words after a merge, never the old words of a rewritten or deleted page, never an unmerged change request', async () => {
    const w = await searchWorld()
    const [alpha, beta] = (await publish(w, w.space.id, [page('Alpha', 'The old zeppelin story.'), page('Beta', 'A page about submarines.')])).changes.map(
      (c: { page: { id: string } }) => c.page.id,
    )
    expect(titles((await searchSpace(w, w.tokens.ada, w.space.id, 'zeppelin')).body)).toEqual(['Alpha'])

    // Edited in a change request: main's search does not change until the merge.
    const cr = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests`, { subject: 'Rewrite' })).body
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests/${cr.id}/content`, {
      changes: [update(alpha, 'A new hovercraft story.')],
    })
    expect(titles((await searchSpace(w, w.tokens.ada, w.space.id, 'zeppelin')).body)).toEqual(['Alpha'])
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'hovercraft')).body.count).toBe(0)
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests/${cr.id}/merge`)
    expect(titles((await searchSpace(w, w.tokens.ada, w.space.id, 'hovercraft')).body)).toEqual(['Alpha'])
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'zeppelin')).body.count).toBe(0)

    // Retitled, moved under another page, deleted.
    await publish(w, w.space.id, [{ operation: 'update_page', page: beta, title: 'Gamma', into: alpha }])
    const moved = (await searchSpace(w, w.tokens.ada, w.space.id, 'submarines')).body.items[0]
    expect(moved).toMatchObject({ title: 'Gamma', path: 'alpha/gamma', ancestors: [{ title: 'Alpha' }] })
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'beta')).body.count).toBe(0)
    await publish(w, w.space.id, [{ operation: 'delete_page', page: alpha }])
    for (const word of ['hovercraft', 'submarines', 'gamma']) expect((await searchSpace(w, w.tokens.ada, w.space.id, word)).body.count, word).toBe(0)
  })

  it('reindexes only the pages a merge changed (3 of 40), whatever else the space holds', async () => {
    const w = await searchWorld()
    const ids = (
      await publish(
        w,
        w.space.id,
        Array.from({ length: 40 }, (_, i) => page(`Page ${i}`, `Body of page ${i} about lighthouses.`)),
      )
    ).changes.map((c: { page: { id: string } }) => c.page.id)
    expect(indexed(w.api)).toBe(0) // built on the first search, not before
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'lighthouses')).body.count).toBe(40)
    expect(indexed(w.api)).toBe(40)
    await publish(
      w,
      w.space.id,
      [0, 17, 33].map((i) => update(ids[i], `Now about windmills ${i}.`)),
    )
    const found = await searchSpace(w, w.tokens.ada, w.space.id, 'windmills')
    expect(titles(found.body).sort()).toEqual(['Page 0', 'Page 17', 'Page 33'])
    expect(indexed(w.api)).toBe(43)
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'lighthouses')).body.count).toBe(37)
    // A search with nothing new indexes nothing; an edit of another space is indexed when that space is searched.
    const other = await w.api.fixtures.createSpace(w.org.id, { title: 'Other' })
    await publish(w, other.id, [page('Elsewhere', 'Windmills again.')])
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'windmills')).body.count).toBe(3)
    expect(indexed(w.api)).toBe(43)
    expect((await searchOrg(w, w.tokens.ada, w.org.id, 'windmills')).body.items.map((s: { title: string }) => s.title).sort()).toEqual(['Handbook', 'Other'])
    // A member's organization search reads the index of every live space, built on its first use (40 + 1 pages).
    expect(indexed(w.api)).toBe(84)
    // Then a merge of 3 pages is indexed once in each index holding the space, by the next search of it: 3 pages each.
    await publish(
      w,
      w.space.id,
      [1, 2, 3].map((i) => update(ids[i], `Now about watermills ${i}.`)),
    )
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'watermills')).body.count).toBe(3)
    expect(indexed(w.api)).toBe(90)
    expect((await searchOrg(w, w.tokens.ada, w.org.id, 'watermills')).body.items[0].pages).toHaveLength(3)
    expect(indexed(w.api)).toBe(90)
    await publish(
      w,
      w.space.id,
      [4, 5, 6].map((i) => update(ids[i], `Now about sawmills ${i}.`)),
    )
    expect((await searchOrg(w, w.tokens.ada, w.org.id, 'sawmills')).body.items[0].pages).toHaveLength(3)
    expect(indexed(w.api)).toBe(93) // the organization's index only: the space's own catches up at its next search
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'sawmills')).body.count).toBe(3)
    expect(indexed(w.api)).toBe(96)
  })

  it('keeps noIndex from insert_page, update_page and frontmatter, shows it on pages, and never indexes such a page', async () => {
    const w = await searchWorld()
    const changes = (
      await publish(w, w.space.id, [
        page('Secret', 'Internal tapestry notes.', { noIndex: true }),
        page('Listed', 'Public tapestry notes.'),
        { operation: 'insert_page', document: { markdown: '---\nnoIndex: true\n---\n# Draft\n\nTapestry drafts.' } },
      ])
    ).changes.map((c: { page: { id: string } }) => c.page.id)
    const [secret, listed, draft] = changes
    for (const [id, noIndex] of [
      [secret, true],
      [listed, undefined],
      [draft, true],
    ] as const) {
      const got = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/page/${id}`)
      expectOfficialResponse('getPageById', 200, got.body)
      expect(got.body.noIndex, got.body.title).toBe(noIndex)
    }
    expect(titles((await searchSpace(w, w.tokens.ada, w.space.id, 'tapestry')).body)).toEqual(['Listed'])
    await publish(w, w.space.id, [
      { operation: 'update_page', page: secret, noIndex: false },
      { operation: 'update_page', page: listed, noIndex: true },
    ])
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/page/${listed}`)).body.noIndex).toBe(true)
    expect(titles((await searchSpace(w, w.tokens.ada, w.space.id, 'tapestry')).body)).toEqual(['Secret'])
    expect((await searchOrg(w, w.tokens.ada, w.org.id, 'tapestry')).body.items[0].pages.map((p: { title: string }) => p.title)).toEqual(['Secret'])
  })

  it.skipIf(TEST_STORE === 'postgres')('follows the store wherever it goes: restore, a fork, a state document, a duplicate, a purge', async () => {
    const w = await searchWorld()
    const [alpha] = (await publish(w, w.space.id, [page('Alpha', 'Original parchment.')])).changes.map((c: { page: { id: string } }) => c.page.id)
    const before = w.api.snapshot()
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'parchment')).body.count).toBe(1)
    await publish(w, w.space.id, [update(alpha, 'Rewritten vellum.')])
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'vellum')).body.count).toBe(1)

    const fork = w.api.fork()
    w.api.restore(before)
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'parchment')).body.count).toBe(1)
    expect((await searchSpace(w, w.tokens.ada, w.space.id, 'vellum')).body.count).toBe(0)
    // The fork kept the state it was made from, with its own index.
    expect((await searchSpace({ ...w, api: fork }, w.tokens.ada, w.space.id, 'vellum')).body.count).toBe(1)
    expect((await searchSpace({ ...w, api: fork }, w.tokens.ada, w.space.id, 'parchment')).body.count).toBe(0)

    // A new API over a state document indexes what it loaded.
    const loaded = createDocsApi({ baseUrl: 'http://localhost:4000', seed: fork.dump() })
    expect((await searchSpace({ ...w, api: loaded }, w.tokens.ada, w.space.id, 'vellum')).body.count).toBe(1)

    // A duplicate is searched on its own; a purged space leaves the organization's search.
    const copy = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/duplicate`)).body
    expect(titles((await searchSpace(w, w.tokens.ada, copy.id, 'parchment')).body)).toEqual(['Alpha'])
    const spaces = async () => (await searchOrg(w, w.tokens.ada, w.org.id, 'parchment')).body.items.map((s: { id: string }) => s.id).sort()
    expect(await spaces()).toEqual([copy.id, w.space.id].sort())
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${copy.id}`)
    expect(await spaces()).toEqual([w.space.id])
    w.clock.advance(8 * 24 * 3600 * 1000)
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${copy.id}/restore`) // past the window: purged
    expect(w.api.store.read((tx) => tx.get('spaces', copy.id))).toBeUndefined()
    expect(await spaces()).toEqual([w.space.id])
  })

  it('follows a space transferred to another organization: searched there, gone from the first', async () => {
    const w = await searchWorld()
    await publish(w, w.space.id, [page('Alpha', 'Transferable quill.')])
    const globex = await w.api.fixtures.createOrganization({ title: 'Globex', members: [{ user: w.users.ada.id, role: 'admin' }] })
    const orgSpaces = async (org: string) => (await searchOrg(w, w.tokens.ada, org, 'quill')).body.items.map((s: { id: string }) => s.id)
    expect(await orgSpaces(w.org.id)).toEqual([w.space.id])
    expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/transfer`, { organization: globex.id })).status).toBe(200)
    expect(await orgSpaces(w.org.id)).toEqual([])
    expect(await orgSpaces(globex.id)).toEqual([w.space.id])
    expect(titles((await searchSpace(w, w.tokens.ada, w.space.id, 'quill')).body)).toEqual(['Alpha'])
    await publish(w, w.space.id, [page('Beta', 'Another quill.')])
    expect((await searchOrg(w, w.tokens.ada, globex.id, 'quill')).body.items[0].pages.map((p: { title: string }) => p.title).sort()).toEqual(['Alpha', 'Beta'])
  })
})
