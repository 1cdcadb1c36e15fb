import { describe, expect, it } from 'vitest'
import { call, createWorld, resolveUrl, siteToken, type World } from '../../helpers.js'

const DAY = 24 * 60 * 60 * 1000

const sitePath = (w: World, id: string) => `/v1/orgs/${w.org.id}/sites/${id}`
const publishedPath = (w: World, id: string, shareKey?: string) =>
  `${sitePath(w, id)}/published${shareKey !== undefined ? `?shareKey=${encodeURIComponent(shareKey)}` : ''}`
const baseUrl = (w: World, site: string) => `https://docs.localhost/${w.org.id}/${site}`

/** Spaces of Acme with these titles, created in order. */
async function spacesOf(w: World, titles: string[]) {
  const out = []
  for (const title of titles) out.push(await w.api.fixtures.createSpace(w.org.id, { title }))
  return out
}

/** Create a share link on a site (as ada) and return its id and key (the key is in its published URL). */
async function shareLink(w: World, site: string, name = 'Partners'): Promise<{ id: string; key: string }> {
  const res = await call(w.api, w.tokens.ada, 'POST', `${sitePath(w, site)}/share-links`, { name })
  expect(res.status).toBe(201)
  const key = decodeURIComponent(new URL(res.body.urls.published).pathname.split('/').pop()!)
  expect(key).toEqual(expect.any(String))
  return { id: res.body.id, key: key! }
}

const setActive = (w: World, site: string, link: string, active: boolean) =>
  call(w.api, w.tokens.ada, 'PATCH', `${sitePath(w, site)}/share-links/${link}`, { active })

type Item = { object: string; id: string; space?: { id: string }; siteSpaces?: Item[]; children?: Item[]; urls: { published?: string }; hidden?: boolean }
/** The structure as nested ids: site-spaces by space id, sections and groups by their ids. */
function shape(items: Item[]): unknown[] {
  return items.map((i) => {
    if (i.object === 'site-space') return i.space!.id
    if (i.object === 'site-section') return { section: i.id, siteSpaces: shape(i.siteSpaces ?? []) }
    return { group: i.id, children: shape(i.children ?? []) }
  })
}

describe('published content', () => {
  describe('GET /v1/orgs/{organizationId}/sites/{siteId}/published: who may read it', () => {
    const cases: Array<[string, boolean, boolean]> = [
      // visibility, published, open to non-members
      ['public', true, true],
      ['unlisted', true, true],
      ['share-link', true, false],
      ['visitor-auth', true, false],
      ['public', false, false],
      ['unlisted', false, false],
      ['share-link', false, false],
      ['visitor-auth', false, false],
    ]
    it.each(cases)(
      'a %s site (published: %s): members always; the site token of its URL only when open (%s); guests and outsiders 404, no token 401',
      async (visibility, published, open) => {
        const w = await createWorld()
        const [space] = await spacesOf(w, ['Handbook'])
        const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', visibility: visibility as 'public', spaces: [space!.id], published })
        for (const token of [w.tokens.ada, w.tokens.rita]) {
          const res = await call(w.api, token, 'GET', publishedPath(w, site.id))
          expect(res.status).toBe(200)
          expect(res.body.object).toBe('published-content-site')
          expect(res.body.site).toMatchObject({ id: site.id, visibility, published })
        }
        // A visitor reads it with the site token its URL resolves to; a closed site resolves to nothing.
        const resolved = await resolveUrl(w.api, baseUrl(w, site.id))
        if (open) {
          expect(resolved.status).toBe(200)
          const res = await call(w.api, resolved.body.apiToken, 'GET', publishedPath(w, site.id))
          expect(res.status).toBe(200)
          expect(res.body.site.id).toBe(site.id)
          // What a visitor may do on the site: see it, nothing more.
          expect(Object.entries(res.body.site.permissions).filter(([, v]) => v)).toEqual([['view', true]])
        } else if (visibility === 'visitor-auth' && published) {
          // Published behind visitor authentication: a visitor without a token, and no login to send him to (resolve.test.ts).
          expect(resolved.status).toBe(401)
        } else {
          expect(resolved.status).toBe(404)
          expect(resolved.body.error).toEqual({ code: 404, message: 'No content found for the URL' })
        }
        // Users who are no members see nothing of it with their own tokens, open or not.
        expect((await call(w.api, w.tokens.gina, 'GET', publishedPath(w, site.id))).body.error).toEqual({ code: 404, message: 'Site not found' })
        expect((await call(w.api, w.tokens.olga, 'GET', publishedPath(w, site.id))).body.error).toEqual({ code: 404, message: 'Organization not found' })
        expect((await call(w.api, undefined, 'GET', publishedPath(w, site.id))).status).toBe(401)
      },
    )

    it("is not found for an unknown site, a site of another organization under this path, or another site than the token's", async () => {
      const w = await createWorld()
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const theirSpace = await w.api.fixtures.createSpace(beta.id, { title: 'Theirs' })
      const [ourSpace] = await spacesOf(w, ['Ours'])
      const theirs = await w.api.fixtures.createSite(beta.id, { title: 'Theirs', spaces: [theirSpace.id], published: true })
      const ours = await w.api.fixtures.createSite(w.org.id, { title: 'Ours', spaces: [ourSpace!.id], published: true })
      const visitor = await siteToken(w.api, theirs.urls.published!)
      expect((await call(w.api, w.tokens.ada, 'GET', publishedPath(w, theirs.id))).status).toBe(404)
      expect((await call(w.api, visitor, 'GET', publishedPath(w, theirs.id))).status).toBe(404)
      expect((await call(w.api, visitor, 'GET', `/v1/orgs/${beta.id}/sites/${theirs.id}/published`)).status).toBe(200)
      // The token of one site reads no other, even in its own organization.
      const other = await w.api.fixtures.createSite(beta.id, { title: 'Other', published: true })
      expect((await call(w.api, visitor, 'GET', `/v1/orgs/${beta.id}/sites/${other.id}/published`)).body.error).toEqual({
        code: 404,
        message: 'Site not found',
      })
      expect((await call(w.api, await siteToken(w.api, ours.urls.published!), 'GET', publishedPath(w, ours.id))).status).toBe(200)
      expect((await call(w.api, w.tokens.ada, 'GET', publishedPath(w, 'missing'))).body.error).toEqual({ code: 404, message: 'Site not found' })
      // No token, or an invalid one: 401.
      expect((await call(w.api, undefined, 'GET', `/v1/orgs/${beta.id}/sites/${theirs.id}/published`)).status).toBe(401)
      expect((await call(w.api, 'gb_api_nope', 'GET', `/v1/orgs/${beta.id}/sites/${theirs.id}/published`)).status).toBe(401)
    })

    it('returns the site, the default customization and no scripts', async () => {
      const w = await createWorld()
      const [space] = await spacesOf(w, ['Handbook'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [space!.id], published: true })
      const res = await call(w.api, await siteToken(w.api, baseUrl(w, site.id)), 'GET', publishedPath(w, site.id))
      expect(res.status).toBe(200)
      expect(Object.keys(res.body).sort()).toEqual(['customizations', 'object', 'scripts', 'site', 'structure'])
      expect(res.body.site).toMatchObject({ object: 'site', id: site.id, title: 'Docs', siteSpaces: 1, urls: { published: baseUrl(w, site.id) } })
      expect(res.body.structure).toMatchObject({ type: 'siteSpaces', structure: [{ object: 'site-space', space: { id: space!.id } }] })
      const siteSpace = res.body.structure.structure[0].id
      expect(res.body.customizations.siteSpaces).toEqual({ [siteSpace]: res.body.customizations.site })
      expect(res.body.customizations.site).toMatchObject({ styling: { theme: 'clean' }, internationalization: { locale: 'en' } })
      expect(res.body.scripts).toEqual([])
      // A site without content has no URL a visitor could resolve; its members read its empty profile.
      const empty = await w.api.fixtures.createSite(w.org.id, { title: 'Empty', published: true })
      expect((await resolveUrl(w.api, baseUrl(w, empty.id))).status).toBe(404)
      const member = await call(w.api, w.tokens.rita, 'GET', publishedPath(w, empty.id))
      expect(member.body.site).toMatchObject({ id: empty.id, siteSpaces: 0, urls: { published: baseUrl(w, empty.id) } })
      expect(member.body.structure).toEqual({ type: 'siteSpaces', structure: [] })
    })
  })

  describe('share-link sites', () => {
    it('open to the token of a URL with the key of an active link; URLs then carry the key', async () => {
      const w = await createWorld()
      const [a, b] = await spacesOf(w, ['Alpha', 'Beta'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', visibility: 'share-link', spaces: [a!.id, b!.id], published: true })
      const link = await shareLink(w, site.id)
      // The key is a path segment of the site's URLs, or (as a link may be written) its `share` parameter.
      for (const url of [`${baseUrl(w, site.id)}/${link.key}`, `${baseUrl(w, site.id)}/${link.key}/beta`, `${baseUrl(w, site.id)}?share=${link.key}`]) {
        const visitor = await siteToken(w.api, url)
        const res = await call(w.api, visitor, 'GET', publishedPath(w, site.id))
        expect(res.status, url).toBe(200)
        expect(res.body.site.urls.published).toBe(`${baseUrl(w, site.id)}/${link.key}`)
        expect(res.body.structure.structure.map((s: Item) => s.urls.published)).toEqual([
          `${baseUrl(w, site.id)}/${link.key}`,
          `${baseUrl(w, site.id)}/${link.key}/beta`,
        ])
      }
      // Users who are no members get nothing with their own tokens, key or not; no token is a 401.
      for (const token of [w.tokens.olga, w.tokens.gina]) expect((await call(w.api, token, 'GET', publishedPath(w, site.id, link.key))).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', publishedPath(w, site.id, link.key))).status).toBe(401)
      // Members see it without a key, and their URLs carry none.
      const member = await call(w.api, w.tokens.rita, 'GET', publishedPath(w, site.id))
      expect(member.body.site.urls.published).toBe(baseUrl(w, site.id))
      const withKey = await call(w.api, w.tokens.rita, 'GET', publishedPath(w, site.id, link.key))
      expect(withKey.body.site.urls.published).toBe(`${baseUrl(w, site.id)}/${link.key}`)
      // The key shows in the site read through the API too, when the request carries it.
      const listed = await call(w.api, w.tokens.rita, 'GET', `${sitePath(w, site.id)}/site-spaces?shareKey=${link.key}`)
      expect(listed.body.items.map((s: Item) => s.urls.published)).toEqual([`${baseUrl(w, site.id)}/${link.key}`, `${baseUrl(w, site.id)}/${link.key}/beta`])
    })

    it('an inactive, deleted, unknown or foreign key, or no key, resolves to nothing; a token stops with its link', async () => {
      const w = await createWorld()
      const [a] = await spacesOf(w, ['Alpha'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', visibility: 'share-link', spaces: [a!.id], published: true })
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other', visibility: 'share-link', spaces: [a!.id], published: true })
      const link = await shareLink(w, site.id)
      const foreign = await shareLink(w, other.id)
      const status = async (key?: string) => (await resolveUrl(w.api, key === undefined ? baseUrl(w, site.id) : `${baseUrl(w, site.id)}/${key}`)).status
      const visitor = await siteToken(w.api, `${baseUrl(w, site.id)}/${link.key}`)
      const reads = async (token: string) => (await call(w.api, token, 'GET', publishedPath(w, site.id))).status
      expect(await status(link.key)).toBe(200)
      expect(await reads(visitor)).toBe(200)
      expect(await status()).toBe(404)
      expect(await status('unknown')).toBe(404)
      expect(await status(foreign.key)).toBe(404)
      expect(await status(link.id)).toBe(404)
      expect((await resolveUrl(w.api, `${baseUrl(w, site.id)}?share=unknown`)).status).toBe(404)
      expect((await setActive(w, site.id, link.id, false)).status).toBe(200)
      expect(await status(link.key)).toBe(404)
      expect((await resolveUrl(w.api, `${baseUrl(w, site.id)}?share=${link.key}`)).status).toBe(404)
      // The token it gave while active reads nothing more.
      expect(await reads(visitor)).toBe(404)
      // Members still read it, and the inactive key is not put in their URLs.
      const member = await call(w.api, w.tokens.rita, 'GET', publishedPath(w, site.id, link.key))
      expect(member.status).toBe(200)
      expect(member.body.site.urls.published).toBe(baseUrl(w, site.id))
      await setActive(w, site.id, link.id, true)
      expect(await status(link.key)).toBe(200)
      expect(await reads(visitor)).toBe(200)
      // A second link opens it as well; deleting the first one closes only the first.
      const second = await shareLink(w, site.id, 'Second')
      const secondVisitor = await siteToken(w.api, `${baseUrl(w, site.id)}/${second.key}`)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `${sitePath(w, site.id)}/share-links/${link.id}`)).status).toBe(204)
      expect(await status(link.key)).toBe(404)
      expect(await reads(visitor)).toBe(404)
      expect(await status(second.key)).toBe(200)
      expect(await reads(secondVisitor)).toBe(200)
    })

    it('a key opens nothing while the site is unpublished, or not share-link', async () => {
      const w = await createWorld()
      const [a] = await spacesOf(w, ['Alpha'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', visibility: 'share-link', spaces: [a!.id] })
      const link = await shareLink(w, site.id)
      const url = `${baseUrl(w, site.id)}/${link.key}`
      expect((await resolveUrl(w.api, url)).status).toBe(404)
      await w.api.fixtures.publishSite(w.org.id, site.id)
      const visitor = await siteToken(w.api, url)
      const reads = async () => call(w.api, visitor, 'GET', publishedPath(w, site.id))
      expect((await reads()).status).toBe(200)
      await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { visibility: 'visitor-auth' })
      // Behind visitor authentication the key opens nothing: a visitor token is asked for (401 without a login to send him to).
      expect((await resolveUrl(w.api, url)).status).toBe(401)
      expect((await reads()).status).toBe(404)
      // Public again: open to anyone, and the key is no longer put in URLs.
      await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { visibility: 'public' })
      const open = await reads()
      expect(open.status).toBe(200)
      expect(open.body.site.urls.published).toBe(baseUrl(w, site.id))
      const anyone = await siteToken(w.api, baseUrl(w, site.id))
      expect((await call(w.api, anyone, 'GET', publishedPath(w, site.id))).body.site.urls.published).toBe(baseUrl(w, site.id))
      await w.api.fixtures.publishSite(w.org.id, site.id, false)
      expect((await reads()).status).toBe(404)
      expect((await call(w.api, anyone, 'GET', publishedPath(w, site.id))).status).toBe(404)
      expect((await resolveUrl(w.api, baseUrl(w, site.id))).status).toBe(404)
    })
  })

  describe('the structure', () => {
    it('without sections: the root site-spaces in order, hidden ones and trashed spaces left out', async () => {
      const w = await createWorld()
      const [a, b, c, d] = await spacesOf(w, ['Alpha', 'Beta', 'Gamma', 'Delta'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [a!.id, b!.id, c!.id, d!.id], published: true })
      const base = sitePath(w, site.id)
      // A visitor of the site: the token its URL resolves to.
      const visitor = await siteToken(w.api, baseUrl(w, site.id))
      const ids = (await call(w.api, w.tokens.ada, 'GET', `${base}/site-spaces`)).body.items.map((s: Item) => s.id) as string[]
      await call(w.api, w.tokens.ada, 'PATCH', `${base}/site-spaces/${ids[1]}`, { hidden: true })
      await call(w.api, w.tokens.ada, 'POST', `${base}/site-spaces/${ids[3]}/move`, { position: { before: { type: 'site-space', siteSpace: ids[0] } } })
      await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${c!.id}`)
      const res = await call(w.api, visitor, 'GET', publishedPath(w, site.id))
      expect(res.body.structure.type).toBe('siteSpaces')
      expect(shape(res.body.structure.structure)).toEqual([d!.id, a!.id])
      expect(res.body.structure.structure.map((s: Item) => [s.urls.published, s.hidden])).toEqual([
        [`${baseUrl(w, site.id)}/delta`, false],
        [baseUrl(w, site.id), false],
      ])
      // Editors still list every site-space, hidden and trashed ones included.
      const listed = await call(w.api, w.tokens.ada, 'GET', `${base}/site-spaces`)
      expect(listed.body.items.map((s: Item) => [s.space!.id, s.hidden])).toEqual([
        [d!.id, false],
        [a!.id, false],
        [b!.id, true],
        [c!.id, false],
      ])
      // Members get the published view too: hidden ones left out.
      expect(shape((await call(w.api, w.tokens.ada, 'GET', publishedPath(w, site.id))).body.structure.structure)).toEqual([d!.id, a!.id])
      // Restored and shown again: back in the navigation, at their place.
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${c!.id}/restore`)
      await call(w.api, w.tokens.ada, 'PATCH', `${base}/site-spaces/${ids[1]}`, { hidden: false })
      expect(shape((await call(w.api, visitor, 'GET', publishedPath(w, site.id))).body.structure.structure)).toEqual([d!.id, a!.id, b!.id, c!.id])
      // Past the restore window the space is purged with its site-space.
      await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${a!.id}`)
      w.clock.advance(8 * DAY)
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${a!.id}/restore`)
      // (A token lasts a day: the visitor of a week later resolves the URL again.)
      expect((await call(w.api, visitor, 'GET', publishedPath(w, site.id))).status).toBe(401)
      const after = await call(w.api, await siteToken(w.api, baseUrl(w, site.id)), 'GET', publishedPath(w, site.id))
      expect(shape(after.body.structure.structure)).toEqual([d!.id, b!.id, c!.id])
      expect(after.body.site.siteSpaces).toBe(3)
    })

    it('with sections: sections and groups in order, each section with its visible site-spaces in order', async () => {
      const w = await createWorld()
      const [a, b, c, d, e] = await spacesOf(w, ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [a!.id, b!.id], published: true })
      const base = sitePath(w, site.id)
      // A visitor of the site: the token its URL resolves to.
      const visitor = await siteToken(w.api, baseUrl(w, site.id))
      const guides = (await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: c!.id, title: 'Guides' })).body
      const api = (await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: d!.id, title: 'API' })).body
      const more = (await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: e!.id, title: 'More' })).body
      const group = (await call(w.api, w.tokens.ada, 'POST', `${base}/section-groups`, { title: 'Reference', sections: [more.id] })).body
      // The first section took over the root site-spaces (a, b) and added c after them.
      const inGuides = guides.siteSpaces as Item[]
      expect(inGuides.map((s) => s.space!.id)).toEqual([a!.id, b!.id, c!.id])
      await call(w.api, w.tokens.ada, 'PATCH', `${base}/site-spaces/${inGuides[1]!.id}`, { hidden: true })
      // Put the group first, then API before Guides.
      const sorted = await call(w.api, w.tokens.ada, 'PATCH', `${base}/structure/sort`, {
        item: { type: 'site-section-group', id: group.id },
        position: { before: { type: 'site-section', id: guides.id } },
      })
      expect(sorted.status).toBe(200)
      await call(w.api, w.tokens.ada, 'PATCH', `${base}/structure/sort`, {
        item: { type: 'site-section', id: api.id },
        position: { before: { type: 'site-section', id: guides.id } },
      })
      const res = await call(w.api, visitor, 'GET', publishedPath(w, site.id))
      expect(res.status).toBe(200)
      expect(res.body.structure.type).toBe('sections')
      expect(shape(res.body.structure.structure)).toEqual([
        { group: group.id, children: [{ section: more.id, siteSpaces: [e!.id] }] },
        { section: api.id, siteSpaces: [d!.id] },
        { section: guides.id, siteSpaces: [a!.id, c!.id] },
      ])
      const [g, apiOut, guidesOut] = res.body.structure.structure
      expect(guidesOut.default).toBe(true)
      expect(apiOut.default).toBe(false)
      expect(g.object).toBe('site-section-group')
      // The default section sits at the site's URL, the others at their path; so do site-spaces in a section.
      expect(guidesOut.urls.published).toBe(baseUrl(w, site.id))
      expect(guidesOut.siteSpaces.map((s: Item) => s.urls.published)).toEqual([baseUrl(w, site.id), `${baseUrl(w, site.id)}/gamma`])
      expect(apiOut.urls.published).toBe(`${baseUrl(w, site.id)}/api`)
      expect(apiOut.siteSpaces[0].urls.published).toBe(`${baseUrl(w, site.id)}/api`)
      expect(g.children[0].urls.published).toBe(`${baseUrl(w, site.id)}/more`)
      // Editors list the hidden one.
      const sections = await call(w.api, w.tokens.ada, 'GET', `${base}/sections`)
      expect(sections.body.items.map((s: Item) => s.id)).toEqual([more.id, api.id, guides.id])
      expect(sections.body.items[2].siteSpaces.map((s: Item) => [s.space!.id, s.hidden])).toEqual([
        [a!.id, false],
        [b!.id, true],
        [c!.id, false],
      ])
    })

    it('keeps a total order through many moves: the published navigation follows every move', async () => {
      const w = await createWorld()
      const spaces = await spacesOf(w, ['S0', 'S1', 'S2', 'S3', 'S4', 'S5'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: spaces.map((s) => s.id), published: true })
      const base = sitePath(w, site.id)
      // A visitor of the site: the token its URL resolves to.
      const visitor = await siteToken(w.api, baseUrl(w, site.id))
      const listed = (await call(w.api, w.tokens.ada, 'GET', `${base}/site-spaces`)).body.items as Item[]
      const spaceOf = new Map(listed.map((s) => [s.id, s.space!.id]))
      let model = listed.map((s) => s.id)
      // A repeatable sequence of moves (a small linear congruential generator).
      let seed = 7
      const next = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31
        return seed % n
      }
      let conflicts = 0
      for (let step = 0; step < 80; step++) {
        const item = model[next(model.length)]!
        const others = model.filter((id) => id !== item)
        const sibling = others[next(others.length)]!
        const at = next(2) === 0 ? 'before' : 'after'
        const without = model.filter((id) => id !== item)
        const index = without.indexOf(sibling) + (at === 'after' ? 1 : 0)
        const expected = [...without.slice(0, index), item, ...without.slice(index)]
        const res =
          step % 2 === 0
            ? await call(w.api, w.tokens.ada, 'POST', `${base}/site-spaces/${item}/move`, { position: { [at]: { type: 'site-space', siteSpace: sibling } } })
            : await call(w.api, w.tokens.ada, 'PATCH', `${base}/structure/sort`, {
                item: { type: 'site-space', id: item },
                position: { [at]: { type: 'site-space', id: sibling } },
              })
        if (expected.join() === model.join()) {
          // A move that leaves the item where it is changes nothing: 409.
          expect(res.status, `step ${step}`).toBe(409)
          conflicts++
        } else {
          expect(res.status, `step ${step}: ${JSON.stringify(res.body)}`).toBe(200)
          model = expected
        }
      }
      expect(conflicts).toBeGreaterThan(0)
      const published = await call(w.api, visitor, 'GET', publishedPath(w, site.id))
      expect(shape(published.body.structure.structure)).toEqual(model.map((id) => spaceOf.get(id)))
      const after = (await call(w.api, w.tokens.ada, 'GET', `${base}/site-spaces`)).body.items as Item[]
      expect(after.map((s) => s.id)).toEqual(model)
      // Pages follow the same order.
      const first = await call(w.api, w.tokens.ada, 'GET', `${base}/site-spaces?limit=4`)
      const second = await call(w.api, w.tokens.ada, 'GET', `${base}/site-spaces?limit=4&page=${first.body.next.page}`)
      expect([...first.body.items, ...second.body.items].map((s: Item) => s.id)).toEqual(model)
      // The default did not move with the order: it is still the first site-space created.
      expect(after.find((s) => (s as Item & { default: boolean }).default)!.id).toBe(listed[0]!.id)
    })

    it('sorting sections keeps their order in the published navigation; a sibling in another container is a 400', async () => {
      const w = await createWorld()
      const spaces = await spacesOf(w, ['A', 'B', 'C', 'D', 'E'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', published: true })
      const base = sitePath(w, site.id)
      const sections: string[] = []
      for (const space of spaces)
        sections.push((await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: space.id, title: `Section ${space.title}` })).body.id)
      const sort = (id: string, at: 'before' | 'after', sibling: string) =>
        call(w.api, w.tokens.ada, 'PATCH', `${base}/structure/sort`, {
          item: { type: 'site-section', id },
          position: { [at]: { type: 'site-section', id: sibling } },
        })
      expect((await sort(sections[4]!, 'before', sections[0]!)).status).toBe(200)
      expect((await sort(sections[0]!, 'after', sections[2]!)).status).toBe(200)
      expect((await sort(sections[1]!, 'after', sections[3]!)).status).toBe(200)
      const order = [sections[4], sections[2], sections[0], sections[3], sections[1]]
      // A visitor of the site: the token its URL resolves to.
      const visitor = await siteToken(w.api, baseUrl(w, site.id))
      const res = await call(w.api, visitor, 'GET', publishedPath(w, site.id))
      expect(res.body.structure.structure.map((s: Item) => s.id)).toEqual(order)
      // The default section stays the first one created, wherever it sits.
      expect(res.body.structure.structure.map((s: { default: boolean }) => s.default)).toEqual([false, false, true, false, false])
      // A site-space moves only among the site-spaces of its own section.
      const [inA, inB] = [res.body.structure.structure[2].siteSpaces[0].id, res.body.structure.structure[4].siteSpaces[0].id]
      const before = w.api.store.read((tx) => tx.all('siteSpaces'))
      const across = await call(w.api, w.tokens.ada, 'POST', `${base}/site-spaces/${inA}/move`, {
        position: { before: { type: 'site-space', siteSpace: inB } },
      })
      expect(across.status).toBe(400)
      expect(across.body.error.message).toContain(`site-space ${inB} is not in the same section`)
      expect(w.api.store.read((tx) => tx.all('siteSpaces'))).toEqual(before)
      expect((await call(w.api, visitor, 'GET', publishedPath(w, site.id))).body.structure.structure.map((s: Item) => s.id)).toEqual(order)
    })

    it('a section whose site-spaces are all hidden stays, empty; deleting the default section promotes the next one', async () => {
      const w = await createWorld()
      const [a, b] = await spacesOf(w, ['Alpha', 'Beta'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', published: true })
      const base = sitePath(w, site.id)
      const first = (await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: a!.id, title: 'First' })).body
      const second = (await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: b!.id, title: 'Second' })).body
      // A visitor of the site: the token its URL resolves to.
      const visitor = await siteToken(w.api, baseUrl(w, site.id))
      await call(w.api, w.tokens.ada, 'PATCH', `${base}/site-spaces/${second.siteSpaces[0].id}`, { hidden: true })
      const res = await call(w.api, visitor, 'GET', publishedPath(w, site.id))
      expect(shape(res.body.structure.structure)).toEqual([
        { section: first.id, siteSpaces: [a!.id] },
        { section: second.id, siteSpaces: [] },
      ])
      await call(w.api, w.tokens.ada, 'DELETE', `${base}/sections/${first.id}`)
      const after = await call(w.api, visitor, 'GET', publishedPath(w, site.id))
      expect(after.body.structure.type).toBe('sections')
      expect(
        after.body.structure.structure.map((s: { id: string; default: boolean; urls: { published: string } }) => [s.id, s.default, s.urls.published]),
      ).toEqual([[second.id, true, baseUrl(w, site.id)]])
      // Without sections again, the structure is of site-spaces (none left at the root).
      await call(w.api, w.tokens.ada, 'DELETE', `${base}/sections/${second.id}`)
      expect((await call(w.api, visitor, 'GET', publishedPath(w, site.id))).body.structure).toEqual({ type: 'siteSpaces', structure: [] })
    })

    it('an unpublished site shows its structure to members, without published URLs', async () => {
      const w = await createWorld()
      const [a, b] = await spacesOf(w, ['Alpha', 'Beta'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [a!.id, b!.id] })
      const res = await call(w.api, w.tokens.rita, 'GET', publishedPath(w, site.id))
      expect(res.status).toBe(200)
      expect(res.body.site.published).toBe(false)
      expect(res.body.site.urls.published).toBeUndefined()
      expect(shape(res.body.structure.structure)).toEqual([a!.id, b!.id])
      expect(res.body.structure.structure.map((s: Item) => s.urls)).toEqual([{}, {}])
    })
  })

  describe('GET /v1/spaces/{spaceId}?shareKey=', () => {
    async function sharedSpace() {
      const w = await createWorld()
      const [secret, other, unlisted] = await spacesOf(w, ['Secret', 'Other', 'Elsewhere'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Partners', visibility: 'share-link', spaces: [secret!.id], published: true })
      const link = await shareLink(w, site.id)
      // `token: null` calls anonymously.
      const get = async (space: string, key?: string, token: string | null = w.tokens.olga) =>
        call(w.api, token ?? undefined, 'GET', `/v1/spaces/${space}${key !== undefined ? `?shareKey=${encodeURIComponent(key)}` : ''}`)
      return { w, secret: secret!, other: other!, unlisted: unlisted!, site, link, get }
    }

    it('opens a private space published in a published share-link site to the holder of an active key, read-only', async () => {
      const { w, secret, link, get } = await sharedSpace()
      expect(w.api.store.read((tx) => tx.get('spaces', secret.id))!.visibility).toBe('private')
      const res = await get(secret.id, link.key)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: secret.id, title: 'Secret', visibility: 'private' })
      expect(res.body.permissions).toMatchObject({ view: true, access: true, edit: false, comment: false, admin: false })
      expect((await get(secret.id, link.key, w.tokens.gina)).status).toBe(200)
      expect((await get(secret.id)).status).toBe(404)
      expect((await get(secret.id)).body.error).toEqual({ code: 404, message: 'Space not found' })
      // The key works on the requests that take it, for an authenticated caller.
      expect((await get(secret.id, link.key, null)).status).toBe(401)
      // Operations that do not declare `shareKey` ignore it: the space stays hidden (404, not 403).
      const patch = await call(w.api, w.tokens.olga, 'PATCH', `/v1/spaces/${secret.id}?shareKey=${link.key}`, { title: 'Mine' })
      expect(patch.status).toBe(404)
      const restore = await call(w.api, w.tokens.olga, 'POST', `/v1/spaces/${secret.id}/restore?shareKey=${link.key}`)
      expect(restore.status).toBe(404)
    })

    it('an inactive or unknown key, an unpublished or non-share-link site: 404', async () => {
      const { w, secret, site, link, get } = await sharedSpace()
      expect((await get(secret.id, 'unknown')).status).toBe(404)
      expect((await get(secret.id, link.id)).status).toBe(404)
      await setActive(w, site.id, link.id, false)
      expect((await get(secret.id, link.key)).status).toBe(404)
      await setActive(w, site.id, link.id, true)
      expect((await get(secret.id, link.key)).status).toBe(200)
      await w.api.fixtures.publishSite(w.org.id, site.id, false)
      expect((await get(secret.id, link.key)).status).toBe(404)
      await w.api.fixtures.publishSite(w.org.id, site.id, true)
      expect((await get(secret.id, link.key)).status).toBe(200)
      for (const visibility of ['public', 'unlisted', 'visitor-auth']) {
        await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { visibility })
        expect((await get(secret.id, link.key)).status, visibility).toBe(404)
      }
      await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { visibility: 'share-link' })
      expect((await get(secret.id, link.key)).status).toBe(200)
      await call(w.api, w.tokens.ada, 'DELETE', `${sitePath(w, site.id)}/share-links/${link.id}`)
      expect((await get(secret.id, link.key)).status).toBe(404)
    })

    it('does not open spaces the site does not publish, nor a space once it leaves the site or is trashed', async () => {
      const { w, secret, other, unlisted, site, link, get } = await sharedSpace()
      expect((await get(other.id, link.key)).status).toBe(404)
      // The key of one site does not open the spaces of another.
      const second = await w.api.fixtures.createSite(w.org.id, { title: 'Second', visibility: 'share-link', spaces: [unlisted.id], published: true })
      const secondLink = await shareLink(w, second.id)
      expect((await get(unlisted.id, link.key)).status).toBe(404)
      expect((await get(unlisted.id, secondLink.key)).status).toBe(200)
      expect((await get(secret.id, secondLink.key)).status).toBe(404)
      // A hidden site-space is only left out of navigation: its space stays reachable with the key.
      const siteSpaces = await call(w.api, w.tokens.ada, 'GET', `${sitePath(w, site.id)}/site-spaces`)
      const siteSpace = siteSpaces.body.items[0].id
      await call(w.api, w.tokens.ada, 'PATCH', `${sitePath(w, site.id)}/site-spaces/${siteSpace}`, { hidden: true })
      expect((await get(secret.id, link.key)).status).toBe(200)
      await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${secret.id}`)
      expect((await get(secret.id, link.key)).status).toBe(404)
      await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${secret.id}/restore`)
      expect((await get(secret.id, link.key)).status).toBe(200)
      await call(w.api, w.tokens.ada, 'DELETE', `${sitePath(w, site.id)}/site-spaces/${siteSpace}`)
      expect((await get(secret.id, link.key)).status).toBe(404)
    })
  })
})
