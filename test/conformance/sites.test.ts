import { GitBookAPI, SiteType, SiteVisibility } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { BASE, call, createWorld, siteToken, type World } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

/** A client without a token. */
const anonymous = (w: World) => new GitBookAPI({ endpoint: BASE, serviceBinding: { fetch: w.api.fetch } })
/** A client as a visitor of a published site uses it (GitBook's renderer): with the site token its URL resolves to. */
const visitorOf = async (w: World, url: string) => w.client(await siteToken(w.api, url))

async function spacesOf(w: World, titles: string[]) {
  const out = []
  for (const title of titles) out.push(await w.api.fixtures.createSpace(w.org.id, { title }))
  return out
}

describe('conformance: sites through @gitbook/api', () => {
  it('createSite, getSiteById, updateSiteById, listSites (with every filter)', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada)
    const [a, b] = await spacesOf(w, ['Alpha', 'Beta'])
    const created = await gb.orgs.createSite(w.org.id, { title: 'Docs', visibility: SiteVisibility.Unlisted, spaces: [a!.id, b!.id] })
    expect(created.status).toBe(201)
    expect(created.data).toMatchObject({ type: 'basic', appliedType: 'basic', visibility: 'unlisted', siteSpaces: 2, published: false })
    expectOfficialResponse('createSite', 201, created.data)
    const premium = await gb.orgs.createSite(w.org.id, { type: SiteType.Premium })
    expect(premium.data).toMatchObject({ type: 'premium', appliedType: 'premium', title: 'Untitled site', siteSpaces: 0 })
    expectOfficialResponse('createSite', 201, premium.data)
    const got = await gb.orgs.getSiteById(w.org.id, created.data.id)
    expect(got.data).toEqual(created.data)
    expectOfficialResponse('getSiteById', 200, got.data)
    const patched = await gb.orgs.updateSiteById(w.org.id, created.data.id, {
      title: 'Manuals',
      basename: 'manuals',
      adaptiveContent: { enabled: true },
      proxy: 'company.com/docs',
    })
    expect(patched.data).toMatchObject({ title: 'Manuals', basename: 'manuals', adaptiveContent: { enabled: true }, proxy: { origin: 'company.com/docs' } })
    expectOfficialResponse('updateSiteById', 200, patched.data)
    // Fields beyond the official request body (hostname, agentsContext) answer the official Site too.
    const hosted = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}/sites/${created.data.id}`, {
      hostname: 'docs.acme.com',
      agentsContext: 'excluded',
    })
    expect(hosted.body).toMatchObject({ hostname: 'docs.acme.com', agentsContext: 'excluded' })
    expectOfficialResponse('updateSiteById', 200, hosted.body)
    const removed = await gb.orgs.updateSiteById(w.org.id, created.data.id, { proxy: null })
    expect(removed.data.proxy).toBeUndefined()
    const all = await gb.orgs.listSites(w.org.id)
    expect(all.data.items.map((s) => s.id)).toEqual([created.data.id, premium.data.id])
    expectOfficialResponse('listSites', 200, all.data)
    const paged = await gb.orgs.listSites(w.org.id, { limit: 1 })
    expect(paged.data).toMatchObject({ count: 2, next: { page: expect.any(String) } })
    expectOfficialResponse('listSites', 200, paged.data)
    const next = await gb.orgs.listSites(w.org.id, { limit: 1, page: paged.data.next!.page })
    expect(next.data.items.map((s) => s.id)).toEqual([premium.data.id])
    const filtered = await gb.orgs.listSites(w.org.id, { space: b!.id, title: 'MAN', published: false, type: [SiteType.Basic, SiteType.Ultimate] })
    expect(filtered.data.items.map((s) => s.id)).toEqual([created.data.id])
    expectOfficialResponse('listSites', 200, filtered.data)
    const types = await gb.orgs.listSites(w.org.id, { type: [SiteType.Premium] })
    expect(types.data.items.map((s) => s.id)).toEqual([premium.data.id])
    const missing = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/sites/missing`)
    expect(missing.status).toBe(404)
    expectOfficialResponse('getSiteById', 404, missing.body)
    await expect(gb.orgs.updateSiteById(w.org.id, created.data.id, { proxy: 'company.com' })).rejects.toThrow('must be a host followed by a path')
  })

  it('publishSite, unpublishSite, deleteSiteById', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada)
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    const published = await gb.orgs.publishSite(w.org.id, site.id)
    expect(published.status).toBe(200)
    expect(published.data).toMatchObject({ id: site.id, published: true, urls: { published: `https://docs.localhost/${w.org.id}/${site.id}` } })
    expectOfficialResponse('publishSite', 200, published.data)
    const unpublished = await gb.orgs.unpublishSite(w.org.id, site.id)
    expect(unpublished.data.published).toBe(false)
    expect(unpublished.data.urls.published).toBeUndefined()
    expectOfficialResponse('unpublishSite', 200, unpublished.data)
    const del = await gb.orgs.deleteSiteById(w.org.id, site.id)
    // The official document answers 205 when a site is deleted and 204 when it did not exist;
    // the reference (which wins) answers 204 in both cases.
    expect(del.status).toBe(204)
    expectOfficialResponse('deleteSiteById', 204, undefined)
    expect((await gb.orgs.deleteSiteById(w.org.id, site.id)).status).toBe(204)
  })

  it('getPublishedContentSite: a site of site-spaces, and a site of sections and groups', async () => {
    const w = await createWorld()
    const [a, b, c] = await spacesOf(w, ['Alpha', 'Beta', 'Gamma'])
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [a!.id, b!.id], published: true })
    const base = `/v1/orgs/${w.org.id}/sites/${site.id}`
    const visitor = await visitorOf(w, site.urls.published!)
    const flat = await visitor.orgs.getPublishedContentSite(w.org.id, site.id)
    expect(flat.status).toBe(200)
    expect(flat.data.structure.type).toBe('siteSpaces')
    expect(flat.data.structure.structure.map((s) => s.id)).toHaveLength(2)
    expectOfficialResponse('getPublishedContentSite', 200, flat.data)
    const section = await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: c!.id, title: 'Reference' })
    await call(w.api, w.tokens.ada, 'POST', `${base}/section-groups`, { title: 'More', sections: [section.body.id] })
    await call(w.api, w.tokens.ada, 'PATCH', `${base}/site-spaces/${section.body.siteSpaces[1].id}`, { hidden: true, condition: 'visitor.claims.beta' })
    const sections = await visitor.orgs.getPublishedContentSite(w.org.id, site.id)
    expect(sections.data.structure.type).toBe('sections')
    expect(sections.data.structure.structure.map((s) => s.object)).toEqual(['site-section-group'])
    expectOfficialResponse('getPublishedContentSite', 200, sections.data)
    const member = await w.client(w.tokens.rita).orgs.getPublishedContentSite(w.org.id, site.id)
    expectOfficialResponse('getPublishedContentSite', 200, member.data)
    const unauthenticated = await call(w.api, undefined, 'GET', `${base}/published`)
    // (The official document declares no 401 for this operation: it is the API's error body all the same.)
    expect(unauthenticated.status).toBe(401)
    expect(unauthenticated.body.error.code).toBe(401)
    await expect(anonymous(w).orgs.getPublishedContentSite(w.org.id, site.id)).rejects.toThrow('Authentication required')
    const token = await siteToken(w.api, site.urls.published!)
    await w.api.fixtures.publishSite(w.org.id, site.id, false)
    const closed = await call(w.api, token, 'GET', `${base}/published`)
    expect(closed.status).toBe(404)
    expectOfficialResponse('getPublishedContentSite', 404, closed.body)
    await expect(visitor.orgs.getPublishedContentSite(w.org.id, site.id)).rejects.toThrow('Site not found')
  })

  it('share links: getPublishedContentSite and getSpaceById with a shareKey', async () => {
    const w = await createWorld()
    const [secret] = await spacesOf(w, ['Secret'])
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Partners', visibility: 'share-link', spaces: [secret!.id], published: true })
    const link = await w.client(w.tokens.ada).orgs.createSiteShareLink(w.org.id, site.id, { name: 'Partners' })
    const key = decodeURIComponent(new URL(link.data.urls.published!).pathname.split('/').pop()!)!
    const visitor = await visitorOf(w, link.data.urls.published!)
    const profile = await visitor.orgs.getPublishedContentSite(w.org.id, site.id)
    expect(profile.data.site.urls.published).toBe(`https://docs.localhost/${w.org.id}/${site.id}/${key}`)
    expectOfficialResponse('getPublishedContentSite', 200, profile.data)
    // A member passes the key as the `shareKey` parameter: the URLs then carry it.
    const member = await w.client(w.tokens.rita).orgs.getPublishedContentSite(w.org.id, site.id, { shareKey: key })
    expect(member.data.site.urls.published).toBe(`https://docs.localhost/${w.org.id}/${site.id}/${key}`)
    expectOfficialResponse('getPublishedContentSite', 200, member.data)
    const olga = w.client(w.tokens.olga)
    const space = await olga.spaces.getSpaceById(secret!.id, { shareKey: key })
    expect(space.data).toMatchObject({ id: secret!.id, visibility: 'private', permissions: { view: true, edit: false } })
    expectOfficialResponse('getSpaceById', 200, space.data)
    await w.client(w.tokens.ada).orgs.updateSiteShareLinkById(w.org.id, site.id, link.data.id, { active: false })
    await expect(olga.spaces.getSpaceById(secret!.id, { shareKey: key })).rejects.toThrow('Space not found')
    await expect(visitor.orgs.getPublishedContentSite(w.org.id, site.id)).rejects.toThrow('Site not found')
  })
})
