import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../../helpers.js'

/** Lists in position order come straight from the ordered index, page by page. */
describe('position order of lists', () => {
  it("pages a collection's spaces in position order after moves, with cursors", async () => {
    const w = await createWorld()
    const docs = await w.api.fixtures.createCollection(w.org.id, { title: 'Docs' })
    const ids: string[] = []
    for (let i = 0; i < 6; i++) ids.push((await w.api.fixtures.createSpace(w.org.id, { title: `S${i}`, parent: docs.id })).id)
    // S5 before S0, S2 after S4: S5 S0 S1 S3 S4 S2
    expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${ids[5]}/move`, { position: { before: { type: 'space', space: ids[0] } } })).status).toBe(200)
    expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${ids[2]}/move`, { position: { after: { type: 'space', space: ids[4] } } })).status).toBe(200)
    const titles: string[] = []
    let page: string | undefined
    do {
      const res = await call(w.api, w.tokens.ada, 'GET', `/v1/collections/${docs.id}/spaces?limit=4${page ? `&page=${page}` : ''}`)
      expect(res.status).toBe(200)
      expect(res.body.count).toBe(6)
      titles.push(...res.body.items.map((s: any) => s.title))
      page = res.body.next?.page
      // a move between pages of an item already served does not repeat or skip the others
      if (page && titles.length === 4) {
        await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${ids[5]}/move`, { position: { after: { type: 'space', space: ids[1] } } })
      }
    } while (page)
    expect(titles).toEqual(['S5', 'S0', 'S1', 'S3', 'S4', 'S2'])
  })

  it('lists root collections in position order with nested=false', async () => {
    const w = await createWorld()
    const a = await w.api.fixtures.createCollection(w.org.id, { title: 'A' })
    await w.api.fixtures.createCollection(w.org.id, { title: 'B' })
    const c = await w.api.fixtures.createCollection(w.org.id, { title: 'C' })
    await w.api.fixtures.createCollection(w.org.id, { title: 'A1', parent: a.id })
    await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${c.id}/move`, { position: { before: { type: 'collection', collection: a.id } } })
    const roots = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/collections?nested=false`)
    expect(roots.body.items.map((x: any) => x.title)).toEqual(['C', 'A', 'B'])
    const all = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/collections`)
    expect(all.body.items.map((x: any) => x.title)).toEqual(['A', 'B', 'C', 'A1'])
  })
})
