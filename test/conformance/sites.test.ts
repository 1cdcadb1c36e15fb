import { GitBookAPI, SiteType, SiteVisibility } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { DEFAULT_CUSTOMIZATION } from '../../src/domains/sites/customization.js'
import { BASE, addEditor, call, createWorld, expectError, siteToken, type World } from '../helpers.js'
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

describe('conformance: site customization and visitor authentication through @gitbook/api', () => {
  it('getSiteCustomizationById, updateSiteCustomizationById', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada)
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    const base = `/v1/orgs/${w.org.id}/sites/${site.id}`
    const initial = await gb.orgs.getSiteCustomizationById(w.org.id, site.id)
    expect(initial.status).toBe(200)
    expect(initial.data).toEqual(DEFAULT_CUSTOMIZATION)
    expectOfficialResponse('getSiteCustomizationById', 200, initial.data)
    const settings = {
      ...DEFAULT_CUSTOMIZATION,
      title: 'Acme Docs',
      styling: {
        ...DEFAULT_CUSTOMIZATION.styling,
        theme: 'bold',
        primaryColor: { light: '#ff0000', dark: '#00F' },
        font: 'Roboto',
        tint: { color: { light: '#111', dark: '#222' } },
      },
      header: { preset: 'default', links: [{ title: 'Home', to: { kind: 'url', url: 'https://acme.test' }, links: [] }] },
      announcement: { enabled: true, message: 'New release', style: 'info' },
      ai: { mode: 'assistant', instructions: 'Be brief.' },
    }
    const put = await gb.orgs.updateSiteCustomizationById(w.org.id, site.id, settings as any)
    expect(put.status).toBe(200)
    expect(put.data).toEqual({ ...settings, updatedAt: expect.any(String) })
    expectOfficialResponse('updateSiteCustomizationById', 200, put.data)
    const got = await gb.orgs.getSiteCustomizationById(w.org.id, site.id, { unmasked: true })
    expect(got.data).toEqual(put.data)
    expectOfficialResponse('getSiteCustomizationById', 200, got.data)
    // A whole replacement: what the body leaves out takes the default.
    const partial = await call(w.api, w.tokens.ada, 'PUT', `${base}/customization`, { styling: { theme: 'muted' } })
    expect(partial.body).toEqual({ ...DEFAULT_CUSTOMIZATION, styling: { ...DEFAULT_CUSTOMIZATION.styling, theme: 'muted' }, updatedAt: expect.any(String) })
    expectOfficialResponse('updateSiteCustomizationById', 200, partial.body)

    const before = await call(w.api, w.tokens.ada, 'GET', `${base}/customization`)
    const badTheme = await call(w.api, w.tokens.ada, 'PUT', `${base}/customization`, { styling: { theme: 'neon' } })
    expectError(badTheme, 400, 'body field `styling.theme`')
    expectOfficialResponse('updateSiteCustomizationById', 400, badTheme.body)
    expectError(
      await call(w.api, w.tokens.ada, 'PUT', `${base}/customization`, { styling: { primaryColor: { light: 'red', dark: '#000' } } }),
      400,
      '`styling.primaryColor.light`',
    )
    expectError(
      await call(w.api, w.tokens.ada, 'PUT', `${base}/customization`, { ai: { mode: 'none', suggestions: ['a', 'b', 'c', 'd', 'e', 'f'] } }),
      400,
      '`ai.suggestions`',
    )
    expectError(
      await call(w.api, w.tokens.ada, 'PUT', `${base}/customization`, { favicon: { icon: { light: 'javascript:alert(1)', dark: 'https://a.test/i.png' } } }),
      400,
      '`favicon.icon.light`',
    )
    expectError(await call(w.api, w.tokens.ada, 'GET', `${base}/customization?unmasked=maybe`), 400, 'query parameter `unmasked`')
    expectError(await call(w.api, w.tokens.ada, 'PUT', `${base}/customization`), 400, 'body')
    // A reader reads it and may not change it; an outsider does not see the site.
    expect((await call(w.api, w.tokens.rita, 'GET', `${base}/customization`)).status).toBe(200)
    const reader = await call(w.api, w.tokens.rita, 'PUT', `${base}/customization`, settings)
    expectError(reader, 403, 'You need the edit role on this site')
    expectError(await call(w.api, w.tokens.olga, 'GET', `${base}/customization`), 404, 'Organization not found')
    expectError(await call(w.api, w.tokens.olga, 'PUT', `${base}/customization`, settings), 404, 'Organization not found')
    expectError(await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/sites/nope/customization`), 404, 'Site not found')
    expect((await call(w.api, w.tokens.ada, 'GET', `${base}/customization`)).body).toEqual(before.body)
  })

  it('getSitePublishingAuthById, updateSitePublishingAuthById, regenerateSitePublishingAuthById', async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada)
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', visibility: SiteVisibility.VisitorAuth })
    const base = `/v1/orgs/${w.org.id}/sites/${site.id}/publishing/auth`
    const got = await gb.orgs.getSitePublishingAuthById(w.org.id, site.id)
    expect(got.status).toBe(200)
    expect(got.data).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expectOfficialResponse('getSitePublishingAuthById', 200, got.data)
    const patched = await gb.orgs.updateSitePublishingAuthById(w.org.id, site.id, {
      backend: 'custom',
      fallbackURL: 'https://acme.test/login',
      logoutURL: 'https://acme.test/logout',
    } as any)
    expect(patched.data).toEqual({ ...got.data, fallbackURL: 'https://acme.test/login', logoutURL: 'https://acme.test/logout' })
    expectOfficialResponse('updateSitePublishingAuthById', 200, patched.data)
    const unset = await gb.orgs.updateSitePublishingAuthById(w.org.id, site.id, { backend: 'custom', logoutURL: null } as any)
    expect(unset.data).toEqual({ ...got.data, fallbackURL: 'https://acme.test/login' })
    const regenerated = await gb.orgs.regenerateSitePublishingAuthById(w.org.id, site.id)
    expect(regenerated.status).toBe(200)
    expect(regenerated.data).toEqual({ ...unset.data, privateKey: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(regenerated.data.privateKey).not.toBe(got.data.privateKey)
    expectOfficialResponse('regenerateSitePublishingAuthById', 200, regenerated.data)

    const badBackend = await call(w.api, w.tokens.ada, 'PATCH', base, { backend: 'ldap' })
    expectError(badBackend, 400, 'body field `backend`')
    expectOfficialResponse('updateSitePublishingAuthById', 400, badBackend.body)
    expectError(
      await call(w.api, w.tokens.ada, 'PATCH', base, { fallbackURL: 'javascript:alert(1)' }),
      400,
      'body field `fallbackURL`: must be an http or https URL',
    )
    expectError(await call(w.api, w.tokens.ada, 'PATCH', base, { logoutURL: 'not a url' }), 400, 'body field `logoutURL`')
    // Only admins: the key signs visitor tokens. Readers and editors see the site and get 403; outsiders 404.
    const editor = await addEditor(w)
    for (const [method, path] of [
      ['GET', base],
      ['PATCH', base],
      ['POST', `${base}/regenerate`],
    ] as const) {
      const body = method === 'GET' ? undefined : {}
      for (const token of [w.tokens.rita, editor]) expectError(await call(w.api, token, method, path, body), 403, 'You need the admin role on this site')
      expectError(await call(w.api, w.tokens.olga, method, path, body), 404, 'Organization not found')
    }
    expect((await gb.orgs.getSitePublishingAuthById(w.org.id, site.id)).data).toEqual(regenerated.data)
  })
})
