import { describe, expect, it } from 'vitest'
import { createWorld } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

describe('conformance: share links through @gitbook/api', () => {
  it('createSiteShareLink, updateSiteShareLinkById', async () => {
    const w = await createWorld()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', visibility: 'share-link', published: true })
    const gb = w.client(w.tokens.ada).orgs
    const created = await gb.createSiteShareLink(w.org.id, site.id, { name: 'Reviewers' })
    expect(created.status).toBe(201)
    expect(created.data).toMatchObject({ object: 'share-link', name: 'Reviewers', active: true })
    expectOfficialResponse('createSiteShareLink', 201, created.data)
    const off = await gb.updateSiteShareLinkById(w.org.id, site.id, created.data.id, { active: false })
    expect(off.status).toBe(200)
    expect(off.data).toEqual({ ...created.data, active: false })
    expectOfficialResponse('updateSiteShareLinkById', 200, off.data)
    const renamed = await gb.updateSiteShareLinkById(w.org.id, site.id, created.data.id, { name: '' })
    expect(renamed.data.name).toBe('')
    expectOfficialResponse('updateSiteShareLinkById', 200, renamed.data)
  })

  it('listSiteShareLinks with a search and a cursor', async () => {
    const w = await createWorld()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    const admin = w.client(w.tokens.ada).orgs
    for (const name of ['Alpha', 'Beta', 'Alpha partners']) await admin.createSiteShareLink(w.org.id, site.id, { name })
    const gb = w.client(w.tokens.rita).orgs
    const first = await gb.listSiteShareLinks(w.org.id, site.id, { limit: 2 })
    expect(first.data.items.map((l) => l.name)).toEqual(['Alpha', 'Beta'])
    expectOfficialResponse('listSiteShareLinks', 200, first.data)
    const second = await gb.listSiteShareLinks(w.org.id, site.id, { limit: 2, page: first.data.next!.page })
    expect(second.data.items.map((l) => l.name)).toEqual(['Alpha partners'])
    expectOfficialResponse('listSiteShareLinks', 200, second.data)
    const found = await gb.listSiteShareLinks(w.org.id, site.id, { search: 'ALPHA' })
    expect(found.data.items.map((l) => l.name)).toEqual(['Alpha', 'Alpha partners'])
    expectOfficialResponse('listSiteShareLinks', 200, found.data)
  })

  it('deleteSiteShareLinkById answers 204 without a body', async () => {
    const w = await createWorld()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    const gb = w.client(w.tokens.ada).orgs
    const link = await gb.createSiteShareLink(w.org.id, site.id, { name: 'Reviewers' })
    const res = await gb.deleteSiteShareLinkById(w.org.id, site.id, link.data.id)
    // The official document answers 205 when a link was deleted and 204 when there was none;
    // the reference ("204, also when not existing") wins: 204 in both cases.
    expect(res.status).toBe(204)
    expectOfficialResponse('deleteSiteShareLinkById', 204, undefined)
    expect(w.api.store.read((tx) => tx.get('shareLinks', link.data.id))).toBeUndefined()
    expect((await gb.deleteSiteShareLinkById(w.org.id, site.id, link.data.id)).status).toBe(204)
  })

  it('the client surfaces validation and permission errors', async () => {
    const w = await createWorld()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    await expect(w.client(w.tokens.ada).orgs.createSiteShareLink(w.org.id, site.id, { name: 'x'.repeat(51) })).rejects.toThrow(
      'body field `name`: must be at most 50 characters',
    )
    await expect(w.client(w.tokens.ada).orgs.updateSiteShareLinkById(w.org.id, site.id, 'missing', { active: true })).rejects.toThrow('Share link not found')
    await expect(w.client(w.tokens.rita).orgs.createSiteShareLink(w.org.id, site.id, { name: 'Mine' })).rejects.toMatchObject({ code: 403 })
  })
})
