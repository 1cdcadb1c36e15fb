import { SignJWT, decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { call, createWorld, resolveUrl, type Called, type World } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'

/**
 * Resolution of published URLs (resolvePublishedContentByUrl, docs/behaviour/published.md): which
 * site, section, site-space and space a URL names, the page path it leaves, the base paths and the
 * canonical URL, for every form of URL a site is published at.
 */

const sitePath = (w: World, id: string) => `/v1/orgs/${w.org.id}/sites/${id}`

async function spacesOf(w: World, titles: string[]) {
  const out = []
  for (const title of titles) out.push(await w.api.fixtures.createSpace(w.org.id, { title }))
  return out
}

/** A request as ada that must succeed. */
async function ok(w: World, method: string, path: string, body?: unknown): Promise<any> {
  const res = await call(w.api, w.tokens.ada, method, path, body)
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
  return res.body
}

/** The answer for a URL, which must resolve (the token is checked in site-tokens.test.ts: left out here). */
async function resolved(w: World, url: string): Promise<Record<string, unknown>> {
  const res = await resolveUrl(w.api, url)
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200)
  expect(res.body.apiToken).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/)
  const { apiToken: _token, ...rest } = res.body
  return rest
}

/** A URL that must resolve to nothing: 404 with the official error body. */
async function expectNotFound(w: World, url: string): Promise<void> {
  const res = await resolveUrl(w.api, url)
  expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(404)
  expect(res.body).toEqual({ error: { code: 404, message: 'No content found for the URL' } })
  expectOfficialResponse('resolvePublishedContentByUrl', 404, res.body)
}

/** A published site of two spaces at its root (Alpha the default, Beta at `beta`). */
async function twoSpaceSite(w: World, options: { visibility?: 'public' | 'unlisted' | 'share-link' | 'visitor-auth'; published?: boolean } = {}) {
  const [alpha, beta] = await spacesOf(w, ['Alpha', 'Beta'])
  const site = await w.api.fixtures.createSite(w.org.id, {
    title: 'Docs',
    spaces: [alpha!.id, beta!.id],
    published: options.published ?? true,
    visibility: options.visibility ?? 'public',
  })
  const siteSpaces = (await ok(w, 'GET', `${sitePath(w, site.id)}/site-spaces`)).items as Array<{ id: string; path: string }>
  return { site, alpha: alpha!, beta: beta!, siteSpaces }
}

describe('resolvePublishedContentByUrl (POST /v1/urls/published)', () => {
  describe('the published base: /{organization hostname or id}/{site basename or id}', () => {
    it('names the organization by id, then by its hostname once it has one (either resolves; the canonical URL takes the hostname)', async () => {
      const w = await createWorld()
      const { site, alpha, beta, siteSpaces } = await twoSpaceSite(w)
      const root = `https://docs.localhost/${w.org.id}/${site.id}`
      expect(site.urls.published).toBe(root)
      expect(await resolved(w, root)).toEqual({
        site: site.id,
        siteSpace: siteSpaces[0]!.id,
        space: alpha.id,
        pathname: '',
        basePath: `/${w.org.id}/${site.id}/`,
        siteBasePath: `/${w.org.id}/${site.id}/`,
        organization: w.org.id,
        // The default site-space was taken where the URL could still name Beta.
        complete: false,
        canonicalUrl: root,
      })
      expect(await resolved(w, `${root}/beta/getting-started/install`)).toEqual({
        site: site.id,
        siteSpace: siteSpaces[1]!.id,
        space: beta.id,
        pathname: 'getting-started/install',
        basePath: `/${w.org.id}/${site.id}/beta/`,
        siteBasePath: `/${w.org.id}/${site.id}/`,
        organization: w.org.id,
        complete: true,
        canonicalUrl: `${root}/beta/getting-started/install`,
      })
      await ok(w, 'PATCH', `/v1/orgs/${w.org.id}`, { hostname: 'acme' })
      const byHostname = await resolved(w, `https://docs.localhost/acme/${site.id}/beta`)
      expect(byHostname).toMatchObject({
        site: site.id,
        space: beta.id,
        basePath: `/acme/${site.id}/beta/`,
        canonicalUrl: `https://docs.localhost/acme/${site.id}/beta`,
      })
      // The id still names the organization; the canonical URL is the one the API gives now.
      expect(await resolved(w, `${root}/beta`)).toMatchObject({
        basePath: `/${w.org.id}/${site.id}/beta/`,
        canonicalUrl: `https://docs.localhost/acme/${site.id}/beta`,
      })
    })

    it('names the site by id, or by its basename once it has one (then only by it)', async () => {
      const w = await createWorld()
      const { site, beta } = await twoSpaceSite(w)
      await ok(w, 'PATCH', sitePath(w, site.id), { basename: 'guide' })
      const root = `https://docs.localhost/${w.org.id}/guide`
      expect(await resolved(w, `${root}/beta/faq`)).toMatchObject({
        site: site.id,
        space: beta.id,
        pathname: 'faq',
        siteBasePath: `/${w.org.id}/guide/`,
        canonicalUrl: `${root}/beta/faq`,
      })
      await expectNotFound(w, `https://docs.localhost/${w.org.id}/${site.id}`)
      // Another site of the organization keeps its id in its URL.
      const [gamma] = await spacesOf(w, ['Gamma'])
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other', spaces: [gamma!.id], published: true })
      expect(await resolved(w, `https://docs.localhost/${w.org.id}/${other.id}`)).toMatchObject({ site: other.id, space: gamma!.id, complete: true })
    })

    it('an unknown organization or site, a site of another organization, a URL that stops before the site: 404', async () => {
      const w = await createWorld()
      const { site } = await twoSpaceSite(w)
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', hostname: 'beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const theirSpace = await w.api.fixtures.createSpace(beta.id, { title: 'Theirs' })
      const theirs = await w.api.fixtures.createSite(beta.id, { title: 'Theirs', spaces: [theirSpace.id], published: true })
      expect(await resolved(w, `https://docs.localhost/beta/${theirs.id}`)).toMatchObject({ site: theirs.id, organization: beta.id })
      for (const url of [
        `https://docs.localhost/${w.org.id}/${theirs.id}`,
        `https://docs.localhost/beta/${site.id}`,
        `https://docs.localhost/nobody/${site.id}`,
        `https://docs.localhost/${w.org.id}/missing`,
        `https://docs.localhost/${w.org.id}`,
        'https://docs.localhost/',
        // Another host, or the published base's host with a port it does not have.
        `https://elsewhere.example.com/${w.org.id}/${site.id}`,
        `https://docs.localhost:8443/${w.org.id}/${site.id}`,
        `http://unknown.localhost/${w.org.id}/${site.id}`,
      ])
        await expectNotFound(w, url)
    })

    it('follows the publishedUrl option: its host and path prefix', async () => {
      const w = await createWorld({ publishedUrl: 'https://sites.example.com/published/' })
      const { site, beta } = await twoSpaceSite(w)
      expect(site.urls.published).toBe(`https://sites.example.com/published/${w.org.id}/${site.id}`)
      expect(await resolved(w, `${site.urls.published}/beta/intro`)).toMatchObject({
        space: beta.id,
        pathname: 'intro',
        basePath: `/published/${w.org.id}/${site.id}/beta/`,
        siteBasePath: `/published/${w.org.id}/${site.id}/`,
        canonicalUrl: `${site.urls.published}/beta/intro`,
      })
      await expectNotFound(w, `https://sites.example.com/${w.org.id}/${site.id}`)
      await expectNotFound(w, `https://docs.localhost/${w.org.id}/${site.id}`)
    })
  })

  describe('a custom hostname', () => {
    it('without a basename: the site at the root of the host', async () => {
      const w = await createWorld()
      const { site, alpha, beta } = await twoSpaceSite(w)
      await ok(w, 'PATCH', sitePath(w, site.id), { hostname: 'docs.acme.com' })
      expect(await resolved(w, 'https://docs.acme.com/')).toMatchObject({
        site: site.id,
        space: alpha.id,
        pathname: '',
        basePath: '/',
        siteBasePath: '/',
        complete: false,
        canonicalUrl: 'https://docs.acme.com',
      })
      expect(await resolved(w, 'https://docs.acme.com/beta/intro')).toMatchObject({
        space: beta.id,
        pathname: 'intro',
        basePath: '/beta/',
        siteBasePath: '/',
        complete: true,
        canonicalUrl: 'https://docs.acme.com/beta/intro',
      })
      // A page path under the default site-space.
      expect(await resolved(w, 'https://docs.acme.com/intro/setup')).toMatchObject({
        space: alpha.id,
        pathname: 'intro/setup',
        basePath: '/',
        complete: true,
        canonicalUrl: 'https://docs.acme.com/intro/setup',
      })
      // Host names are case-insensitive.
      expect(await resolved(w, 'https://DOCS.Acme.com/beta')).toMatchObject({ space: beta.id, basePath: '/beta/' })
      // The site is still reached on the published base; its canonical URL is on its hostname.
      expect(await resolved(w, `https://docs.localhost/${w.org.id}/${site.id}/beta`)).toMatchObject({
        space: beta.id,
        canonicalUrl: 'https://docs.acme.com/beta',
      })
      await expectNotFound(w, 'https://other.acme.com/beta')
    })

    it('with a basename: the site under its basename on the host, nowhere else on it', async () => {
      const w = await createWorld()
      const { site, beta } = await twoSpaceSite(w)
      await ok(w, 'PATCH', sitePath(w, site.id), { hostname: 'docs.acme.com', basename: 'guide' })
      expect(await resolved(w, 'https://docs.acme.com/guide/beta/intro')).toMatchObject({
        space: beta.id,
        pathname: 'intro',
        basePath: '/guide/beta/',
        siteBasePath: '/guide/',
        canonicalUrl: 'https://docs.acme.com/guide/beta/intro',
      })
      await expectNotFound(w, 'https://docs.acme.com/beta')
      await expectNotFound(w, 'https://docs.acme.com/')
    })
  })

  describe('a proxy origin', () => {
    it('the host and path a proxy serves the site from; the longest origin wins', async () => {
      const w = await createWorld()
      const { site, alpha, beta } = await twoSpaceSite(w)
      await ok(w, 'PATCH', sitePath(w, site.id), { proxy: 'company.com/docs' })
      expect(await resolved(w, 'https://company.com/docs')).toMatchObject({
        site: site.id,
        space: alpha.id,
        basePath: '/docs/',
        siteBasePath: '/docs/',
        canonicalUrl: 'https://company.com/docs',
      })
      expect(await resolved(w, 'https://company.com/docs/beta/api/auth')).toMatchObject({
        space: beta.id,
        pathname: 'api/auth',
        basePath: '/docs/beta/',
        siteBasePath: '/docs/',
        canonicalUrl: 'https://company.com/docs/beta/api/auth',
      })
      // A second site under a longer origin on the same host takes the URLs under it.
      const [gamma] = await spacesOf(w, ['Gamma'])
      const nested = await w.api.fixtures.createSite(w.org.id, { title: 'Nested', spaces: [gamma!.id], published: true })
      await ok(w, 'PATCH', sitePath(w, nested.id), { proxy: 'company.com/docs/v2' })
      expect(await resolved(w, 'https://company.com/docs/v2/start')).toMatchObject({
        site: nested.id,
        space: gamma!.id,
        pathname: 'start',
        siteBasePath: '/docs/v2/',
      })
      expect(await resolved(w, 'https://company.com/docs/v3/start')).toMatchObject({ site: site.id, space: alpha.id, pathname: 'v3/start' })
      await expectNotFound(w, 'https://company.com/')
      await expectNotFound(w, 'https://company.com/other/docs')
      // A proxy host given in capitals is the same host (URLs give hosts in lower case); its path keeps its case.
      await ok(w, 'PATCH', sitePath(w, nested.id), { proxy: 'Help.Company.com/Docs' })
      expect(await resolved(w, 'https://help.company.com/Docs/start')).toMatchObject({
        site: nested.id,
        pathname: 'start',
        canonicalUrl: 'https://help.company.com/Docs/start',
      })
      await expectNotFound(w, 'https://help.company.com/docs/start')
      // The proxied site is no longer at its published-base URL's canonical form: its canonical URL is the proxy's.
      expect(await resolved(w, `https://docs.localhost/${w.org.id}/${site.id}/beta`)).toMatchObject({
        space: beta.id,
        canonicalUrl: 'https://company.com/docs/beta',
      })
    })
  })

  describe('sections and site-spaces', () => {
    /** A site of two sections: Guides (the default: Alpha, the default site-space, and Beta) and API (Gamma alone). */
    async function sectionSite(w: World) {
      const [alpha, beta, gamma] = await spacesOf(w, ['Alpha', 'Beta', 'Gamma'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', published: true })
      const base = sitePath(w, site.id)
      const guides = await ok(w, 'POST', `${base}/sections`, { spaceId: alpha!.id, title: 'Guides' })
      const betaSiteSpace = await ok(w, 'POST', `${base}/site-spaces`, { spaceId: beta!.id, sectionId: guides.id })
      const api = await ok(w, 'POST', `${base}/sections`, { spaceId: gamma!.id, title: 'API' })
      return {
        site,
        base,
        root: `https://docs.localhost/${w.org.id}/${site.id}`,
        alpha: alpha!,
        beta: beta!,
        gamma: gamma!,
        guides,
        api,
        alphaSiteSpace: guides.siteSpaces[0],
        betaSiteSpace,
      }
    }

    it('a section by its path, else the default one; a site-space by its path, else the default of its section', async () => {
      const w = await createWorld()
      const s = await sectionSite(w)
      expect([s.guides.path, s.betaSiteSpace.path, s.api.path]).toEqual(['guides', 'beta', 'api'])
      expect(await resolved(w, s.root)).toEqual({
        site: s.site.id,
        siteSection: s.guides.id,
        siteSpace: s.alphaSiteSpace.id,
        space: s.alpha.id,
        pathname: '',
        basePath: `/${w.org.id}/${s.site.id}/`,
        siteBasePath: `/${w.org.id}/${s.site.id}/`,
        organization: w.org.id,
        complete: false,
        canonicalUrl: s.root,
      })
      expect(await resolved(w, `${s.root}/api/reference/users`)).toMatchObject({
        siteSection: s.api.id,
        siteSpace: s.api.siteSpaces[0].id,
        space: s.gamma.id,
        pathname: 'reference/users',
        basePath: `/${w.org.id}/${s.site.id}/api/`,
        complete: true,
        canonicalUrl: `${s.root}/api/reference/users`,
      })
      // A site-space of the default section, by its path right after the site's.
      expect(await resolved(w, `${s.root}/beta/intro`)).toMatchObject({
        siteSection: s.guides.id,
        siteSpace: s.betaSiteSpace.id,
        space: s.beta.id,
        pathname: 'intro',
        basePath: `/${w.org.id}/${s.site.id}/beta/`,
        canonicalUrl: `${s.root}/beta/intro`,
      })
      // Defaults named by their paths resolve too; the canonical URL leaves them out.
      expect(await resolved(w, `${s.root}/guides/alpha/intro`)).toMatchObject({
        siteSection: s.guides.id,
        siteSpace: s.alphaSiteSpace.id,
        pathname: 'intro',
        basePath: `/${w.org.id}/${s.site.id}/guides/alpha/`,
        canonicalUrl: `${s.root}/intro`,
      })
      // Anything else is a page path under the defaults.
      expect(await resolved(w, `${s.root}/intro/setup`)).toMatchObject({
        siteSpace: s.alphaSiteSpace.id,
        pathname: 'intro/setup',
        basePath: `/${w.org.id}/${s.site.id}/`,
      })
    })

    it('complete is false only for a URL that stops where a default was taken among siblings', async () => {
      const w = await createWorld()
      const s = await sectionSite(w)
      const complete = async (url: string) => (await resolved(w, url)).complete
      // The root: the default section among two, its default site-space among two.
      expect(await complete(s.root)).toBe(false)
      expect(await complete(`${s.root}/`)).toBe(false)
      // A section named, its default site-space taken among two: more site path may follow.
      expect(await complete(`${s.root}/guides`)).toBe(false)
      // A section of one site-space, named: nothing more of the site may follow.
      expect(await complete(`${s.root}/api`)).toBe(true)
      // A site-space named, or a page path after a default: the URL went past the site's part.
      expect(await complete(`${s.root}/beta`)).toBe(true)
      expect(await complete(`${s.root}/guides/beta`)).toBe(true)
      expect(await complete(`${s.root}/intro`)).toBe(true)
      // A site without sections, of one site-space: complete at its root; of two: not.
      const [solo] = await spacesOf(w, ['Solo'])
      const single = await w.api.fixtures.createSite(w.org.id, { title: 'Single', spaces: [solo!.id], published: true })
      expect(await complete(`https://docs.localhost/${w.org.id}/${single.id}`)).toBe(true)
      const { site: pair } = await twoSpaceSite(w)
      expect(await complete(`https://docs.localhost/${w.org.id}/${pair.id}`)).toBe(false)
      expect(await complete(`https://docs.localhost/${w.org.id}/${pair.id}/beta`)).toBe(true)
    })

    it('hidden site-spaces open by their path, never as a default; a trashed space opens by none', async () => {
      const w = await createWorld()
      const s = await sectionSite(w)
      await ok(w, 'PATCH', `${s.base}/site-spaces/${s.betaSiteSpace.id}`, { hidden: true })
      expect(await resolved(w, `${s.root}/beta/intro`)).toMatchObject({ siteSpace: s.betaSiteSpace.id, space: s.beta.id, pathname: 'intro' })
      expect(await resolved(w, s.root)).toMatchObject({ siteSpace: s.alphaSiteSpace.id })
      // Hidden, the default of the API section still opens by the section's path.
      await ok(w, 'PATCH', `${s.base}/site-spaces/${s.api.siteSpaces[0].id}`, { hidden: true })
      expect(await resolved(w, `${s.root}/api`)).toMatchObject({ siteSpace: s.api.siteSpaces[0].id, space: s.gamma.id })
      // A trashed space: its path is then a page path under the default site-space.
      await ok(w, 'DELETE', `/v1/spaces/${s.beta.id}`)
      expect(await resolved(w, `${s.root}/beta/intro`)).toMatchObject({ siteSpace: s.alphaSiteSpace.id, space: s.alpha.id, pathname: 'beta/intro' })
      await ok(w, 'POST', `/v1/spaces/${s.beta.id}/restore`)
      expect(await resolved(w, `${s.root}/beta/intro`)).toMatchObject({ siteSpace: s.betaSiteSpace.id })
    })

    it('base paths keep their leading and trailing slash and are percent-encoded; empty segments are skipped', async () => {
      const w = await createWorld()
      const s = await sectionSite(w)
      await ok(w, 'PATCH', sitePath(w, s.site.id), { basename: 'team docs' })
      await ok(w, 'PATCH', `${s.base}/sections/${s.api.id}`, { path: 'api & sdk' })
      const root = `https://docs.localhost/${w.org.id}/team%20docs`
      expect(await resolved(w, `${root}/api%20%26%20sdk/auth`)).toMatchObject({
        siteSection: s.api.id,
        pathname: 'auth',
        basePath: `/${w.org.id}/team%20docs/api%20%26%20sdk/`,
        siteBasePath: `/${w.org.id}/team%20docs/`,
        canonicalUrl: `${root}/api%20%26%20sdk/auth`,
      })
      expect(await resolved(w, `${root}//beta//intro/`)).toMatchObject({
        siteSpace: s.betaSiteSpace.id,
        pathname: 'intro',
        basePath: `/${w.org.id}/team%20docs/beta/`,
      })
      // A path that does not decode names nothing.
      await expectNotFound(w, `${root}/%E0%A4%A`)
    })
  })

  describe('share-link sites', () => {
    async function shareLinkSite(w: World) {
      const s = await twoSpaceSite(w, { visibility: 'share-link' })
      const link = await ok(w, 'POST', `${sitePath(w, s.site.id)}/share-links`, { name: 'Partners' })
      const key = w.api.store.read((tx) => tx.get('shareLinks', link.id)!.key)
      return { ...s, link, key, root: `https://docs.localhost/${w.org.id}/${s.site.id}` }
    }

    it('the key as a path segment right after the site, or as the `share` parameter', async () => {
      const w = await createWorld()
      const s = await shareLinkSite(w)
      expect(s.link.urls.published).toBe(`${s.root}/${s.key}`)
      expect(await resolved(w, `${s.root}/${s.key}`)).toMatchObject({
        site: s.site.id,
        space: s.alpha.id,
        shareKey: s.key,
        pathname: '',
        basePath: `/${w.org.id}/${s.site.id}/${s.key}/`,
        siteBasePath: `/${w.org.id}/${s.site.id}/${s.key}/`,
        complete: false,
        canonicalUrl: `${s.root}/${s.key}`,
      })
      expect(await resolved(w, `${s.root}/${s.key}/beta/intro`)).toMatchObject({
        space: s.beta.id,
        shareKey: s.key,
        pathname: 'intro',
        basePath: `/${w.org.id}/${s.site.id}/${s.key}/beta/`,
        canonicalUrl: `${s.root}/${s.key}/beta/intro`,
      })
      // In the query the key is no part of the base paths; the canonical URL puts it in the path.
      expect(await resolved(w, `${s.root}/beta/intro?share=${s.key}`)).toMatchObject({
        space: s.beta.id,
        shareKey: s.key,
        basePath: `/${w.org.id}/${s.site.id}/beta/`,
        siteBasePath: `/${w.org.id}/${s.site.id}/`,
        canonicalUrl: `${s.root}/${s.key}/beta/intro`,
      })
    })

    it('no key, an unknown, inactive or deleted key, or the key of another site: 404', async () => {
      const w = await createWorld()
      const s = await shareLinkSite(w)
      const [other] = await spacesOf(w, ['Other'])
      const otherSite = await w.api.fixtures.createSite(w.org.id, { title: 'Other', visibility: 'share-link', spaces: [other!.id], published: true })
      const foreign = await ok(w, 'POST', `${sitePath(w, otherSite.id)}/share-links`, { name: 'Theirs' })
      const foreignKey = w.api.store.read((tx) => tx.get('shareLinks', foreign.id)!.key)
      expect(await resolved(w, `https://docs.localhost/${w.org.id}/${otherSite.id}/${foreignKey}`)).toMatchObject({ site: otherSite.id, shareKey: foreignKey })
      for (const url of [
        s.root,
        `${s.root}/beta`,
        `${s.root}/unknown`,
        `${s.root}/${foreignKey}`,
        `${s.root}/${s.link.id}`,
        `${s.root}?share=unknown`,
        `${s.root}/beta?share=${foreignKey}`,
      ])
        await expectNotFound(w, url)
      await ok(w, 'PATCH', `${sitePath(w, s.site.id)}/share-links/${s.link.id}`, { active: false })
      await expectNotFound(w, `${s.root}/${s.key}`)
      await expectNotFound(w, `${s.root}?share=${s.key}`)
      await ok(w, 'PATCH', `${sitePath(w, s.site.id)}/share-links/${s.link.id}`, { active: true })
      expect(await resolved(w, `${s.root}/${s.key}`)).toMatchObject({ shareKey: s.key })
      await ok(w, 'DELETE', `${sitePath(w, s.site.id)}/share-links/${s.link.id}`)
      await expectNotFound(w, `${s.root}/${s.key}`)
    })

    it('on a public site a key is no key: the segment is a site-space or page path', async () => {
      const w = await createWorld()
      const s = await shareLinkSite(w)
      await ok(w, 'PATCH', sitePath(w, s.site.id), { visibility: 'public' })
      const answer = await resolved(w, `${s.root}/${s.key}`)
      expect(answer).toMatchObject({ space: s.alpha.id, pathname: s.key, canonicalUrl: `${s.root}/${s.key}` })
      expect(answer.shareKey).toBeUndefined()
    })
  })

  describe('sites that do not open to a visitor', () => {
    it('an unpublished site: 404, until it is published', async () => {
      const w = await createWorld()
      const { site } = await twoSpaceSite(w, { published: false })
      const root = `https://docs.localhost/${w.org.id}/${site.id}`
      await expectNotFound(w, root)
      await expectNotFound(w, `${root}/beta`)
      await w.api.fixtures.publishSite(w.org.id, site.id)
      expect(await resolved(w, root)).toMatchObject({ site: site.id })
      await w.api.fixtures.publishSite(w.org.id, site.id, false)
      await expectNotFound(w, root)
    })

    it('a visitor-auth site: opens only with a visitor token signed with its key; else its login, or a 401', async () => {
      const w = await createWorld()
      const { site } = await twoSpaceSite(w, { visibility: 'visitor-auth' })
      const url = `${site.urls.published!}/beta/some/page`
      const auth = await ok(w, 'GET', `${sitePath(w, site.id)}/publishing/auth`)
      // Signed at the world's time (its clock is fixed): `hours` from it until expiry.
      const sign = (key: string, claims: Record<string, unknown> = { plan: 'pro' }, hours = 1) =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS256' })
          .setExpirationTime(Math.floor(w.clock.now().getTime() / 1000) + hours * 3600)
          .sign(new TextEncoder().encode(key))
      // No login to send the visitor to: a 401 naming what is missing.
      const none = await resolveUrl(w.api, url)
      expect(none.status).toBe(401)
      expect(none.body.error.message).toContain('needs a visitor token')
      await ok(w, 'PATCH', `${sitePath(w, site.id)}/publishing/auth`, { fallbackURL: 'https://login.acme.test/start' })
      // Without a token: the official external redirect to the login, with the path asked for.
      const login = { target: 'external', site: site.id, redirect: 'https://login.acme.test/start?location=%2Fbeta%2Fsome%2Fpage' }
      const redirect = await resolveUrl(w.api, url)
      expect(redirect.status).toBe(200)
      expect(redirect.body).toEqual(login)
      expectOfficialResponse('resolvePublishedContentByUrl', 200, redirect.body)
      // A valid token opens it; its claims are the visitor's, and the site token reads the site.
      const good = await resolveUrl(w.api, url, { visitor: { jwtToken: await sign(auth.privateKey) } })
      expect(good.status).toBe(200)
      expect(good.body).toMatchObject({ site: site.id, pathname: 'some/page' })
      expect(decodeJwt(good.body.apiToken)).toMatchObject({ claims: { plan: 'pro', unsigned: {} }, authenticated: true })
      expect((await call(w.api, good.body.apiToken, 'GET', `${sitePath(w, site.id)}/published`)).status).toBe(200)
      // A token of another key, an expired one, `alg: none`, not a JWT: 401, or the login with redirectOnError.
      for (const jwtToken of [await sign('k'.repeat(64)), await sign(auth.privateKey, {}, -1), 'eyJhbGciOiJub25lIn0.eyJwbGFuIjoicHJvIn0.', 'not-a-jwt']) {
        expect((await resolveUrl(w.api, url, { visitor: { jwtToken } })).status, jwtToken).toBe(401)
        expect((await resolveUrl(w.api, url, { visitor: { jwtToken }, redirectOnError: true })).body, jwtToken).toEqual(login)
      }
      // The GET form takes the token as visitorAuthToken.
      const get = await call(w.api, undefined, 'GET', `/v1/urls/published?url=${encodeURIComponent(url)}&visitorAuthToken=${await sign(auth.privateKey)}`)
      expect(get.body).toMatchObject({ site: site.id })
      // Regenerating the key ends the tokens signed with the old one.
      await ok(w, 'POST', `${sitePath(w, site.id)}/publishing/auth/regenerate`)
      expect((await resolveUrl(w.api, url, { visitor: { jwtToken: await sign(auth.privateKey) } })).status).toBe(401)
      // Unlisted sites open like public ones.
      await ok(w, 'PATCH', sitePath(w, site.id), { visibility: 'unlisted' })
      expect(await resolved(w, site.urls.published!)).toMatchObject({ site: site.id })
    })

    it('a site without any site-space that opens: 404', async () => {
      const w = await createWorld()
      const empty = await w.api.fixtures.createSite(w.org.id, { title: 'Empty', published: true })
      await expectNotFound(w, empty.urls.published!)
      const [only] = await spacesOf(w, ['Only'])
      await ok(w, 'POST', `${sitePath(w, empty.id)}/site-spaces`, { spaceId: only!.id })
      expect(await resolved(w, empty.urls.published!)).toMatchObject({ space: only!.id })
      await ok(w, 'DELETE', `/v1/spaces/${only!.id}`)
      await expectNotFound(w, empty.urls.published!)
    })
  })

  describe('the request', () => {
    it('a URL that is not http(s) names nothing (404); a text that is no URL, or one too long, is a 400 naming `url`', async () => {
      const w = await createWorld()
      const { site } = await twoSpaceSite(w)
      const path = new URL(site.urls.published!).pathname
      for (const url of [`ftp://docs.localhost${path}`, `ws://docs.localhost${path}`, 'mailto:ada@acme.test', 'javascript:alert(1)', `file://${path}`])
        await expectNotFound(w, url)
      const bad = async (body: unknown, message: string) => {
        const before = w.api.store.read((tx) => tx.all('sites'))
        const res: Called = await call(w.api, undefined, 'POST', '/v1/urls/published', body)
        expect(res.status, JSON.stringify(res.body)).toBe(400)
        expect(res.body.error.message).toContain(message)
        expect(w.api.store.read((tx) => tx.all('sites'))).toEqual(before)
      }
      await bad({ url: 'docs.localhost/acme' }, 'body field `url`: must be a URL')
      await bad({ url: `${site.urls.published}/${'a'.repeat(2048)}` }, 'body field `url`: must be at most 2048 characters')
      await bad({}, 'body field `url`')
      await bad({ url: 5 }, 'body field `url`')
      await bad({ url: site.urls.published, visitor: { type: 'robot' } }, 'body field `visitor.type`')
      await bad(undefined, 'body is required')
      // Just below the bound, a long URL resolves (to a long page path).
      const long = `${site.urls.published}/${'a'.repeat(2047 - site.urls.published!.length)}`
      expect(long.length).toBe(2048)
      expect(await resolved(w, long)).toMatchObject({ pathname: 'a'.repeat(2047 - site.urls.published!.length) })
    })

    it("ignores unknown body fields (GitBook's renderer sends a `cacheBust`): the same answer and token", async () => {
      const w = await createWorld()
      const { site } = await twoSpaceSite(w)
      const plain = await resolveUrl(w.api, `${site.urls.published}/beta`)
      const busted = await resolveUrl(w.api, `${site.urls.published}/beta`, { cacheBust: 'k3j2h', redirectOnError: false })
      expect(busted.status).toBe(200)
      expect(busted.body).toEqual(plain.body)
    })

    it("needs no token; a member's token changes only the site token (it names the member: a preview, published.md); an invalid token is a 401", async () => {
      const w = await createWorld()
      const { site } = await twoSpaceSite(w)
      const anonymous = await resolveUrl(w.api, site.urls.published!)
      const member = await call(w.api, w.tokens.ada, 'POST', '/v1/urls/published', { url: site.urls.published })
      expect(member.status).toBe(200)
      expect({ ...member.body, apiToken: '' }).toEqual({ ...anonymous.body, apiToken: '' })
      expect(decodeJwt(anonymous.body.apiToken).member).toBeUndefined()
      expect(decodeJwt(member.body.apiToken).member).toBe(w.users.ada.id)
      // An outsider's token is a visitor's.
      const outsider = await call(w.api, w.tokens.olga, 'POST', '/v1/urls/published', { url: site.urls.published })
      expect(decodeJwt(outsider.body.apiToken).member).toBeUndefined()
      expect((await call(w.api, 'gb_api_nope', 'POST', '/v1/urls/published', { url: site.urls.published })).status).toBe(401)
    })

    it('GET /v1/urls/published?url= (getPublishedContentByUrl) answers as the POST does', async () => {
      const w = await createWorld()
      const { site } = await twoSpaceSite(w)
      for (const url of [site.urls.published!, `${site.urls.published}/beta/intro`]) {
        const got = await call(w.api, undefined, 'GET', `/v1/urls/published?url=${encodeURIComponent(url)}`)
        expect(got.status).toBe(200)
        expect(got.body).toEqual((await resolveUrl(w.api, url)).body)
      }
      const missing = await call(w.api, undefined, 'GET', `/v1/urls/published?url=${encodeURIComponent('https://docs.localhost/nobody/nothing')}`)
      expect(missing.status).toBe(404)
      expect(missing.body).toEqual({ error: { code: 404, message: 'No content found for the URL' } })
      const noUrl = await call(w.api, undefined, 'GET', '/v1/urls/published')
      expect(noUrl.status).toBe(400)
      expect(noUrl.body.error.message).toContain('query parameter `url`')
      const notUrl = await call(w.api, undefined, 'GET', '/v1/urls/published?url=nope')
      expect(notUrl.status).toBe(400)
      expect(notUrl.body.error.message).toContain('query parameter `url`: must be a URL')
    })
  })
})
