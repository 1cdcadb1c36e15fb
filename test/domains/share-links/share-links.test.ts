import { describe, expect, it } from 'vitest'
import { call, createWorld, type World, addEditor, resolveUrl, siteToken } from '../../helpers.js'

const linkRows = (w: World) => w.api.store.read((tx) => tx.all('shareLinks'))
const keyOf = (w: World, id: string) => w.api.store.read((tx) => tx.get('shareLinks', id)!.key)

/** A world with a site publishing one space, an editor (eddie) and the site's share-links path. */
async function setup(visibility: 'public' | 'share-link' = 'share-link') {
  const w = await createWorld()
  const editor = await addEditor(w)
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', visibility, spaces: [space.id], published: true })
  const links = `/v1/orgs/${w.org.id}/sites/${site.id}/share-links`
  const create = async (name: string) => (await call(w.api, editor, 'POST', links, { name })).body
  return { w, editor, site, links, create }
}

/** The published URL of a site opened with a share key (the key is the path segment after the site's). */
const keyUrl = (w: World, site: string, key: string) => `https://docs.localhost/${w.org.id}/${site}/${key}`

describe('share links', () => {
  describe('POST .../sites/{siteId}/share-links', () => {
    it('creates an active link whose published URL carries its key', async () => {
      const { w, editor, site, links } = await setup()
      const res = await call(w.api, editor, 'POST', links, { name: 'Reviewers' })
      expect(res.status).toBe(201)
      const key = keyOf(w, res.body.id)
      expect(key).not.toBe(res.body.id)
      expect(res.body).toEqual({
        object: 'share-link',
        id: res.body.id,
        createdAt: '2026-03-01T10:00:00.000Z',
        name: 'Reviewers',
        active: true,
        urls: { published: `https://docs.localhost/${w.org.id}/${site.id}/${key}` },
      })
      expect(linkRows(w)).toEqual([
        { id: res.body.id, site: site.id, organization: w.org.id, key, name: 'Reviewers', active: true, createdAt: '2026-03-01T10:00:00.000Z' },
      ])
      // The key opens the published share-link site to anyone: its URL resolves to a site token that reads it.
      const visitor = await siteToken(w.api, res.body.urls.published)
      const published = await call(w.api, visitor, 'GET', `/v1/orgs/${w.org.id}/sites/${site.id}/published`)
      expect(published.status).toBe(200)
      expect(published.body.site.urls.published).toBe(res.body.urls.published)
    })

    it('works on a site of any visibility, and on an unpublished one (the URL is there all the same)', async () => {
      const { w, editor } = await setup('public')
      const draft = await w.api.fixtures.createSite(w.org.id, { title: 'Draft' })
      const res = await call(w.api, editor, 'POST', `/v1/orgs/${w.org.id}/sites/${draft.id}/share-links`, { name: '' })
      expect(res.status).toBe(201)
      expect(res.body.urls.published).toBe(`https://docs.localhost/${w.org.id}/${draft.id}/${keyOf(w, res.body.id)}`)
    })

    it.each([
      [{}, 'body field `name`: is required'],
      [{ name: 'x'.repeat(51) }, 'body field `name`: must be at most 50 characters'],
      [{ name: 5 }, 'body field `name`: Invalid input: expected string'],
      [undefined, 'body is required'],
    ])('rejects %j and writes nothing', async (body, message) => {
      const { w, editor, links } = await setup()
      const res = await call(w.api, editor, 'POST', links, body)
      expect(res.status).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining(message) })
      expect(linkRows(w)).toEqual([])
    })

    it('needs edit on the site: 403 for a reader, 404 for a guest, an outsider or another organization, 401 without a token', async () => {
      const { w, site, links } = await setup()
      expect((await call(w.api, w.tokens.rita, 'POST', links, { name: 'x' })).status).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'POST', links, { name: 'x' })).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'POST', links, { name: 'x' })).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', links, { name: 'x' })).status).toBe(401)
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/sites/missing/share-links`, { name: 'x' })).status).toBe(404)
      const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${other.id}/sites/${site.id}/share-links`, { name: 'x' })).status).toBe(404)
      expect(linkRows(w)).toEqual([])
    })
  })

  describe('GET .../sites/{siteId}/share-links', () => {
    it('lists the links of the site in creation order, with paging and a search', async () => {
      const { w, links, create } = await setup()
      const alpha = await create('Alpha reviewers')
      const beta = await create('Beta')
      const gamma = await create('gamma ALPHA')
      const otherSite = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
      await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/sites/${otherSite.id}/share-links`, { name: 'Alpha elsewhere' })
      const list = async (q = '') => (await call(w.api, w.tokens.rita, 'GET', `${links}${q}`)).body
      const all = await list()
      expect(all.count).toBe(3)
      expect(all.items.map((l: any) => l.id)).toEqual([alpha.id, beta.id, gamma.id])
      expect(all.items[1]).toEqual(beta)
      const first = await list('?limit=2')
      expect(first.items.map((l: any) => l.id)).toEqual([alpha.id, beta.id])
      expect((await list(`?limit=2&page=${first.next.page}`)).items.map((l: any) => l.id)).toEqual([gamma.id])
      expect((await list('?search=alpha')).items.map((l: any) => l.id)).toEqual([alpha.id, gamma.id])
      expect((await list('?search=alpha&limit=1')).next).toBeDefined()
      // A key finds its link only when given whole.
      const key = keyOf(w, beta.id)
      expect((await list(`?search=${key}`)).items.map((l: any) => l.id)).toEqual([beta.id])
      // A fragment of a key is a secret's part: it finds nothing.
      expect((await list(`?search=${key.slice(0, -1)}`)).items).toEqual([])
      expect(await list('?search=nothing')).toEqual({ items: [], count: 0 })
    })

    it('needs view on the site: 404 for a guest or an outsider, 403 for a site token, 400 for a bad limit, 401 without a token', async () => {
      const { w, site, links, create } = await setup()
      expect((await call(w.api, w.tokens.rita, 'GET', links)).body).toEqual({ items: [], count: 0 })
      // The visitor of the site, whose token reads its published content, reads none of its settings.
      const link = await create('Reviewers')
      const visitor = await siteToken(w.api, keyUrl(w, site.id, keyOf(w, link.id)))
      const denied = await call(w.api, visitor, 'GET', links)
      expect(denied.status).toBe(403)
      expect(denied.body.error.message).toBe('You need the read role on this site to do this')
      expect((await call(w.api, w.tokens.gina, 'GET', links)).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'GET', links)).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', links)).status).toBe(401)
      const bad = await call(w.api, w.tokens.ada, 'GET', `${links}?limit=2000`)
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toContain('query parameter `limit`: must be at most 1000')
    })
  })

  describe('PATCH .../share-links/{shareLinkId}', () => {
    it('renames a link and turns it off and on; a deactivated key no longer opens the site', async () => {
      const { w, editor, site, links, create } = await setup()
      const link = await create('Reviewers')
      const key = keyOf(w, link.id)
      const published = `/v1/orgs/${w.org.id}/sites/${site.id}/published`
      const visitor = await siteToken(w.api, keyUrl(w, site.id, key))
      const off = await call(w.api, editor, 'PATCH', `${links}/${link.id}`, { active: false })
      expect(off.status).toBe(200)
      expect(off.body).toEqual({ ...link, active: false })
      expect((await resolveUrl(w.api, keyUrl(w, site.id, key))).status).toBe(404)
      expect((await call(w.api, visitor, 'GET', published)).status).toBe(404)
      const renamed = await call(w.api, editor, 'PATCH', `${links}/${link.id}`, { name: 'Partners', active: true })
      expect(renamed.body).toEqual({ ...link, name: 'Partners', active: true })
      expect((await resolveUrl(w.api, keyUrl(w, site.id, key))).status).toBe(200)
      expect((await call(w.api, visitor, 'GET', published)).status).toBe(200)
      expect(linkRows(w)).toMatchObject([{ id: link.id, key, name: 'Partners', active: true }])
    })

    it.each([
      [{}, 'body: give `active` or `name`'],
      [{ name: 'x'.repeat(51) }, 'body field `name`: must be at most 50 characters'],
      [{ active: 'no' }, 'body field `active`: Invalid input: expected boolean'],
      [undefined, 'body is required'],
    ])('rejects %j and changes nothing', async (body, message) => {
      const { w, editor, links, create } = await setup()
      const link = await create('Reviewers')
      const before = linkRows(w)
      const res = await call(w.api, editor, 'PATCH', `${links}/${link.id}`, body)
      expect(res.status).toBe(400)
      expect(res.body.error).toEqual({ code: 400, message: expect.stringContaining(message) })
      expect(linkRows(w)).toEqual(before)
    })

    it('404 for a link that is not in this site; 403 for a reader; 404 for a guest; 401 without a token', async () => {
      const { w, editor, links, create } = await setup()
      const link = await create('Reviewers')
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
      const before = linkRows(w)
      const elsewhere = await call(w.api, editor, 'PATCH', `/v1/orgs/${w.org.id}/sites/${other.id}/share-links/${link.id}`, { active: false })
      expect(elsewhere.status).toBe(404)
      expect(elsewhere.body.error).toEqual({ code: 404, message: 'Share link not found' })
      expect((await call(w.api, editor, 'PATCH', `${links}/missing`, { active: false })).status).toBe(404)
      expect((await call(w.api, w.tokens.rita, 'PATCH', `${links}/${link.id}`, { active: false })).status).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'PATCH', `${links}/${link.id}`, { active: false })).status).toBe(404)
      expect((await call(w.api, undefined, 'PATCH', `${links}/${link.id}`, { active: false })).status).toBe(401)
      expect(linkRows(w)).toEqual(before)
    })
  })

  describe('DELETE .../share-links/{shareLinkId}', () => {
    it('deletes a link (its key stops opening the site); 204 again; a missing site is a 404', async () => {
      const { w, editor, site, links, create } = await setup()
      const link = await create('Reviewers')
      const keep = await create('Keep')
      const key = keyOf(w, link.id)
      const visitor = await siteToken(w.api, keyUrl(w, site.id, key))
      const del = await call(w.api, editor, 'DELETE', `${links}/${link.id}`)
      expect(del.status).toBe(204)
      expect(del.body).toBeUndefined()
      expect(linkRows(w).map((l) => l.id)).toEqual([keep.id])
      expect((await resolveUrl(w.api, keyUrl(w, site.id, key))).status).toBe(404)
      expect((await call(w.api, visitor, 'GET', `/v1/orgs/${w.org.id}/sites/${site.id}/published`)).status).toBe(404)
      expect((await call(w.api, editor, 'DELETE', `${links}/${link.id}`)).status).toBe(204)
      // The site is the link's parent: missing, it is a 404 (only the link itself answers 204 when gone).
      const missingSite = await call(w.api, editor, 'DELETE', `/v1/orgs/${w.org.id}/sites/missing/share-links/${keep.id}`)
      expect(missingSite.status).toBe(404)
      expect(missingSite.body.error.message).toBe('Site not found')
      expect(linkRows(w).map((l) => l.id)).toEqual([keep.id])
    })

    it('leaves a link of another site alone; 403 for a reader, 404 for a guest or an outsider (the site is hidden from them), 401 without a token', async () => {
      const { w, editor, links, create } = await setup()
      const link = await create('Reviewers')
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
      const before = linkRows(w)
      expect((await call(w.api, editor, 'DELETE', `/v1/orgs/${w.org.id}/sites/${other.id}/share-links/${link.id}`)).status).toBe(204)
      expect((await call(w.api, w.tokens.rita, 'DELETE', `${links}/${link.id}`)).status).toBe(403)
      expect((await call(w.api, w.tokens.gina, 'DELETE', `${links}/${link.id}`)).body.error).toEqual({ code: 404, message: 'Site not found' })
      expect((await call(w.api, w.tokens.olga, 'DELETE', `${links}/${link.id}`)).body.error).toEqual({ code: 404, message: 'Organization not found' })
      expect((await call(w.api, undefined, 'DELETE', `${links}/${link.id}`)).status).toBe(401)
      expect(linkRows(w)).toEqual(before)
    })
  })
})
