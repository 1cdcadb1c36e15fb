import { describe, expect, it } from 'vitest'
import { call, createWorld, type World, addEditor, siteSnapshot } from '../../helpers.js'

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR

const sitesPath = (w: World) => `/v1/orgs/${w.org.id}/sites`
const sitePath = (w: World, id: string) => `/v1/orgs/${w.org.id}/sites/${id}`
const siteRow = (w: World, id: string) => w.api.store.read((tx) => tx.get('sites', id))
/** The site-spaces at a site's root (or in a section), in order, as [space, default] pairs. */
const rootSiteSpaces = (w: World, site: string, section?: string) =>
  w.api.store.read((tx) => tx.scan('siteSpaces', 'byContainer', section ? `section:${section}` : `site:${site}`).map((e) => e.row))
const snapshot = siteSnapshot

/** Spaces of Acme with these titles, created in order. */
async function spacesOf(w: World, titles: string[]) {
  const out = []
  for (const title of titles) out.push(await w.api.fixtures.createSpace(w.org.id, { title }))
  return out
}

const ALL = { view: true, access: true, edit: true, create: true, admin: true, installIntegration: true, viewAdaptiveSchema: true, editAdaptiveSchema: true }
const READER = {
  view: true,
  access: true,
  edit: false,
  create: false,
  admin: false,
  installIntegration: false,
  viewAdaptiveSchema: true,
  editAdaptiveSchema: false,
}
const EDITOR = { ...ALL, installIntegration: false }

describe('sites', () => {
  describe('POST /v1/orgs/{organizationId}/sites', () => {
    it('creates an unpublished basic public site with the documented defaults', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'POST', sitesPath(w), {})
      expect(res.status).toBe(201)
      const id = res.body.id
      expect(res.body).toEqual({
        object: 'site',
        id,
        type: 'basic',
        appliedType: 'basic',
        title: 'Untitled site',
        visibility: 'public',
        defaultLevel: 'inherit',
        permissions: ALL,
        published: false,
        siteSpaces: 0,
        createdAt: '2026-03-01T10:00:00.000Z',
        agentsContext: 'included',
        features: [],
        urls: {
          location: `http://localhost:4000/v1/orgs/${w.org.id}/sites/${id}`,
          app: `http://localhost:4000/app/o/${w.org.id}/sites/${id}`,
          preview: `http://localhost:4000/app/o/${w.org.id}/sites/${id}/preview`,
        },
      })
      expect(res.headers.get('location')).toBe(res.body.urls.location)
      expect(siteRow(w, id)).toMatchObject({ organization: w.org.id, type: 'basic', visibility: 'public', published: false, agentsContext: 'included' })
    })

    it('takes type, title and visibility; appliedType follows the type', async () => {
      const w = await createWorld()
      const res = await call(w.api, w.tokens.ada, 'POST', sitesPath(w), { type: 'premium', title: 'Docs', visibility: 'share-link' })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({ type: 'premium', appliedType: 'premium', title: 'Docs', visibility: 'share-link', published: false })
      const ultimate = await call(w.api, w.tokens.ada, 'POST', sitesPath(w), { type: 'ultimate', title: 'xy' })
      expect(ultimate.body).toMatchObject({ type: 'ultimate', appliedType: 'ultimate', title: 'xy' })
      const long = await call(w.api, w.tokens.ada, 'POST', sitesPath(w), { title: 'x'.repeat(128) })
      expect(long.status).toBe(201)
    })

    it('turns `spaces` into root site-spaces in order, the first one the default', async () => {
      const w = await createWorld()
      const a = await w.api.fixtures.createSpace(w.org.id, { title: 'Alpha Guide' })
      const b = await w.api.fixtures.createSpace(w.org.id, { title: 'Beta' })
      const c = await w.api.fixtures.createSpace(w.org.id, { title: 'Gamma' })
      const res = await call(w.api, w.tokens.ada, 'POST', sitesPath(w), { title: 'Docs', spaces: [c.id, a.id, b.id] })
      expect(res.status).toBe(201)
      expect(res.body.siteSpaces).toBe(3)
      const rows = rootSiteSpaces(w, res.body.id)
      expect(rows.map((r) => [r.space, r.default, r.path, r.section, r.hidden])).toEqual([
        [c.id, true, 'gamma', undefined, false],
        [a.id, false, 'alpha-guide', undefined, false],
        [b.id, false, 'beta', undefined, false],
      ])
      const listed = await call(w.api, w.tokens.ada, 'GET', `${sitePath(w, res.body.id)}/site-spaces`)
      expect(listed.body.items.map((s: { space: { id: string } }) => s.space.id)).toEqual([c.id, a.id, b.id])
      // A space named twice is added once.
      const twice = await call(w.api, w.tokens.ada, 'POST', sitesPath(w), { spaces: [a.id, a.id] })
      expect(twice.body.siteSpaces).toBe(1)
    })

    it.each([
      [{ title: 'x' }, 'body field `title`: must be at least 2 characters'],
      [{ title: 'x'.repeat(129) }, 'body field `title`: must be at most 128 characters'],
      [{ type: 'gold' }, 'body field `type`'],
      [{ visibility: 'private' }, 'body field `visibility`'],
      [{ spaces: 'abc' }, 'body field `spaces`'],
      [{ spaces: Array.from({ length: 101 }, (_, i) => `space${i}`) }, 'body field `spaces`: must list at most 100 spaces'],
      // Schema errors name array items with a dot (as every body field does); domain errors below use `spaces[i]`.
      [{ spaces: [''] }, 'body field `spaces[0]`: must not be empty'],
      [{ title: 12 }, 'body field `title`'],
    ])('rejects %j and writes nothing', async (body, message) => {
      const w = await createWorld()
      const before = snapshot(w)
      const res = await call(w.api, w.tokens.ada, 'POST', sitesPath(w), body)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toContain(message)
      expect(snapshot(w)).toEqual(before)
    })

    it('rejects a space of another organization, or an unknown, deleted or invisible one, naming spaces[i], and writes nothing', async () => {
      const w = await createWorld()
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const gamma = await w.api.fixtures.createOrganization({ title: 'Gamma', members: [{ user: w.users.olga.id, role: 'admin' }] })
      const ok = await w.api.fixtures.createSpace(w.org.id, { title: 'Mine' })
      const other = await w.api.fixtures.createSpace(beta.id, { title: 'Theirs' })
      const hidden = await w.api.fixtures.createSpace(gamma.id, { title: 'Hidden' })
      const trashed = await w.api.fixtures.createSpace(w.org.id, { title: 'Trashed' })
      await w.api.fixtures.deleteSpace(trashed.id)
      const cases: Array<[string[], string]> = [
        [[ok.id, other.id], `body field \`spaces[1]\`: no space ${other.id} in this organization`],
        [['missing'], 'body field `spaces[0]`: no space missing in this organization'],
        [[ok.id, ok.id, trashed.id], `body field \`spaces[2]\`: no space ${trashed.id} in this organization`],
        [[hidden.id], `body field \`spaces[0]\`: no space ${hidden.id} in this organization`],
      ]
      for (const [spaces, message] of cases) {
        const before = snapshot(w)
        const res = await call(w.api, w.tokens.ada, 'POST', sitesPath(w), { title: 'Docs', spaces })
        expect(res.status, JSON.stringify(spaces)).toBe(400)
        expect(res.body.error).toEqual({ code: 400, message: `Invalid request: ${message}` })
        expect(snapshot(w)).toEqual(before)
      }
      expect(w.api.store.read((tx) => tx.count('sites', 'byOrganization', w.org.id))).toBe(0)
    })

    it('needs the edit role: editors create, readers and guests get 403, outsiders 404, no token 401', async () => {
      const w = await createWorld()
      const eddie = await addEditor(w)
      const created = await call(w.api, eddie, 'POST', sitesPath(w), { title: 'By Eddie' })
      expect(created.status).toBe(201)
      expect(created.body.permissions).toEqual(EDITOR)
      const before = snapshot(w)
      const reader = await call(w.api, w.tokens.rita, 'POST', sitesPath(w), { title: 'By Rita' })
      expect(reader.status).toBe(403)
      expect(reader.body.error.code).toBe(403)
      expect((await call(w.api, w.tokens.olga, 'POST', sitesPath(w), { title: 'By Olga' })).status).toBe(404)
      expect((await call(w.api, undefined, 'POST', sitesPath(w), { title: 'Anonymous' })).status).toBe(401)
      expect((await call(w.api, w.tokens.ada, 'POST', '/v1/orgs/missing/sites', {})).status).toBe(404)
      expect(snapshot(w)).toEqual(before)
      // A guest sees the organization but not its sites: 403 on the organization-level operation,
      // as for every organization action a guest lacks (sites themselves answer a guest 404).
      const guest = await call(w.api, w.tokens.gina, 'POST', sitesPath(w), { title: 'By Gina' })
      expect(guest.status).toBe(403)
      expect(snapshot(w)).toEqual(before)
    })
  })

  describe('GET /v1/orgs/{organizationId}/sites', () => {
    async function threeSites(w: World) {
      const handbook = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
      const api = await w.api.fixtures.createSpace(w.org.id, { title: 'API' })
      const docs = await w.api.fixtures.createSite(w.org.id, { title: 'Public Docs', spaces: [handbook.id], published: true })
      const ref = await w.api.fixtures.createSite(w.org.id, { title: 'API reference', spaces: [api.id, handbook.id] })
      const premium = (await call(w.api, w.tokens.ada, 'POST', sitesPath(w), { title: 'Partner DOCS', type: 'premium' })).body
      return { handbook, api, docs, ref, premium }
    }
    const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((s) => s.id)

    it('lists the sites of the organization in creation order, with their counts', async () => {
      const w = await createWorld()
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      await w.api.fixtures.createSite(beta.id, { title: 'Elsewhere' })
      const { docs, ref, premium } = await threeSites(w)
      const res = await call(w.api, w.tokens.ada, 'GET', sitesPath(w))
      expect(res.status).toBe(200)
      expect(res.body.count).toBe(3)
      expect(res.body.next).toBeUndefined()
      expect(ids(res)).toEqual([docs.id, ref.id, premium.id])
      expect(res.body.items.map((s: { siteSpaces: number; published: boolean }) => [s.siteSpaces, s.published])).toEqual([
        [1, true],
        [2, false],
        [0, false],
      ])
      expect(res.body.items[0]).toEqual((await call(w.api, w.tokens.ada, 'GET', sitePath(w, docs.id))).body)
    })

    it('filters by space, title (case-insensitive part), published and type', async () => {
      const w = await createWorld()
      const { handbook, api, docs, ref, premium } = await threeSites(w)
      const get = (query: string) => call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?${query}`)
      expect(ids(await get(`space=${handbook.id}`))).toEqual([docs.id, ref.id])
      expect(ids(await get(`space=${api.id}`))).toEqual([ref.id])
      expect(ids(await get('space=unknown'))).toEqual([])
      expect(ids(await get('title=docs'))).toEqual([docs.id, premium.id])
      expect(ids(await get('title=REFERENCE'))).toEqual([ref.id])
      expect(ids(await get('published=true'))).toEqual([docs.id])
      expect(ids(await get('published=false'))).toEqual([ref.id, premium.id])
      expect(ids(await get('type=premium'))).toEqual([premium.id])
      expect(ids(await get('type=basic&type=premium'))).toEqual([docs.id, ref.id, premium.id])
      expect(ids(await get('type[]=ultimate'))).toEqual([])
      const both = await get(`space=${handbook.id}&published=false&title=api`)
      expect(ids(both)).toEqual([ref.id])
      expect(both.body.count).toBe(1)
      // A space moved into a section is still found by the space filter.
      await call(w.api, w.tokens.ada, 'POST', `${sitePath(w, docs.id)}/sections`, { spaceId: api.id })
      expect(ids(await get(`space=${api.id}`))).toEqual([docs.id, ref.id])
    })

    it.each([
      ['published=yes', 'query parameter `published`: must be true or false'],
      // `type` is a list: the value at fault is named by its place.
      ['type=gold', 'query parameter `type[0]`: Invalid option: expected one of'],
      ['type=basic&type=gold', 'query parameter `type[1]`: Invalid option: expected one of'],
      ['limit=1001', 'query parameter `limit`: must be at most 1000'],
      ['limit=-1', 'query parameter `limit`: must be at least 0'],
      ['page=nonsense', 'Invalid query parameter `page`'],
    ])('rejects %s', async (query, message) => {
      const w = await createWorld()
      await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const res = await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?${query}`)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toContain(message)
    })

    it('pages with limit and the next.page cursor, also when filtered', async () => {
      const w = await createWorld()
      const made = []
      for (const title of ['Site one', 'Site two', 'Other', 'Site four', 'Site five']) made.push((await w.api.fixtures.createSite(w.org.id, { title })).id)
      const first = await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?limit=2`)
      expect(ids(first)).toEqual(made.slice(0, 2))
      expect(first.body.count).toBe(5)
      const second = await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?limit=2&page=${first.body.next.page}`)
      expect(ids(second)).toEqual(made.slice(2, 4))
      const third = await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?limit=2&page=${second.body.next.page}`)
      expect(ids(third)).toEqual(made.slice(4))
      expect(third.body.next).toBeUndefined()
      // A site deleted between pages does not shift the next page.
      const again = await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?limit=2`)
      await call(w.api, w.tokens.ada, 'DELETE', sitePath(w, made[1]!))
      const after = await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?limit=2&page=${again.body.next.page}`)
      expect(ids(after)).toEqual(made.slice(2, 4))
      const filtered = await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?title=site&limit=2`)
      expect(ids(filtered)).toEqual([made[0], made[3]])
      expect(filtered.body.count).toBe(3)
      const rest = await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?title=site&limit=2&page=${filtered.body.next.page}`)
      expect(ids(rest)).toEqual([made[4]])
      expect(rest.body.next).toBeUndefined()
      const none = await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?limit=0`)
      expect(none.body.items).toEqual([])
      expect(none.body.count).toBe(4)
    })

    it('shows sites to readers (with their permissions); guests get 403, outsiders 404, no token 401', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const reader = await call(w.api, w.tokens.rita, 'GET', sitesPath(w))
      expect(reader.status).toBe(200)
      expect(ids(reader)).toEqual([site.id])
      expect(reader.body.items[0].permissions).toEqual(READER)
      expect((await call(w.api, w.tokens.olga, 'GET', sitesPath(w))).status).toBe(404)
      expect((await call(w.api, undefined, 'GET', sitesPath(w))).status).toBe(401)
      expect((await call(w.api, w.tokens.ada, 'GET', '/v1/orgs/missing/sites')).status).toBe(404)
      // The guest sees the organization, so the list is a 403 (it needs the read role).
      const guest = await call(w.api, w.tokens.gina, 'GET', sitesPath(w))
      expect(guest.status).toBe(403)
      expect(guest.body.error.message).toContain('read role')
    })
  })

  describe('published addresses are unique', () => {
    it('a proxy origin used by another site, or a basename used by another site of the organization, is a 409', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const elsewhere = await w.api.fixtures.createSite(beta.id, { title: 'Elsewhere' })
      expect((await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { proxy: 'acme.test/docs', basename: 'docs' })).status).toBe(200)
      // Setting the same values again on the same site is no conflict.
      expect((await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { proxy: 'acme.test/docs', basename: 'docs' })).status).toBe(200)
      const before = snapshot(w)
      const proxy = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, other.id), { proxy: 'acme.test/docs' })
      expect(proxy.status).toBe(409)
      expect(proxy.body.error.message).toBe('The proxy acme.test/docs is already used by another site')
      const basename = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, other.id), { basename: 'docs', title: 'Renamed' })
      expect(basename.status).toBe(409)
      expect(basename.body.error.message).toBe('The basename docs is already used by another site of this organization')
      expect(snapshot(w)).toEqual(before)
      // Basenames are per organization: another organization's site may use it.
      const theirs = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${beta.id}/sites/${elsewhere.id}`, { basename: 'docs' })
      expect(theirs.status).toBe(200)
      // Removing the proxy frees it.
      await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { proxy: null })
      expect((await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, other.id), { proxy: 'acme.test/docs' })).status).toBe(200)
    })

    it('a proxy host differing only in case is the same proxy: it is stored with its host in lower case', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', published: true })
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
      const res = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { proxy: 'Docs.Acme.test/Guide' })
      expect(res.status).toBe(200)
      // Host names are case-insensitive; paths are not.
      expect(res.body.proxy.origin).toBe('docs.acme.test/Guide')
      expect(res.body.urls.published).toBe('https://docs.acme.test/Guide')
      expect(siteRow(w, site.id)!.proxy).toBe('docs.acme.test/Guide')
      const before = snapshot(w)
      const same = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, other.id), { proxy: 'DOCS.acme.test/Guide' })
      expect(same.status).toBe(409)
      expect(same.body.error.message).toBe('The proxy docs.acme.test/Guide is already used by another site')
      expect(snapshot(w)).toEqual(before)
      expect((await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, other.id), { proxy: 'docs.acme.test/guide' })).status).toBe(200)
    })

    it("no site takes the host of the API's published base (publishedUrl): its URLs are every organization's", async () => {
      for (const publishedUrl of [undefined, 'https://sites.acme.test/published']) {
        const w = await createWorld(publishedUrl === undefined ? {} : { publishedUrl })
        const host = publishedUrl === undefined ? 'docs.localhost' : 'sites.acme.test'
        const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.olga.id, role: 'admin' }] })
        const theirs = await w.api.fixtures.createSite(beta.id, { title: 'Theirs', published: true })
        const before = snapshot(w)
        // Another organization's proxy on that host would take over Acme's published URLs.
        for (const proxy of [`${host}/${w.org.id}`, `${host.toUpperCase()}/anything`]) {
          const res = await call(w.api, w.tokens.olga, 'PATCH', `/v1/orgs/${beta.id}/sites/${theirs.id}`, { proxy })
          expect(res.status, proxy).toBe(409)
          expect(res.body.error.message).toBe(
            `The proxy ${proxy.toLowerCase().replace(/\/.*/, '')}${proxy.slice(proxy.indexOf('/'))} is on ${host}, the host of the API's published sites`,
          )
        }
        if (publishedUrl !== undefined) {
          const res = await call(w.api, w.tokens.olga, 'PATCH', `/v1/orgs/${beta.id}/sites/${theirs.id}`, { hostname: host })
          expect(res.status).toBe(409)
          expect(res.body.error.message).toBe(`The hostname ${host} is the host of the API's published sites`)
        }
        expect(snapshot(w)).toEqual(before)
        // Other hosts under the same domain are anyone's.
        expect((await call(w.api, w.tokens.olga, 'PATCH', `/v1/orgs/${beta.id}/sites/${theirs.id}`, { proxy: `www.${host}/docs` })).status).toBe(200)
      }
    })
  })

  describe('GET /v1/orgs/{organizationId}/sites/{siteId}', () => {
    it('gets a site; a site of another organization under this path is not found', async () => {
      const w = await createWorld()
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const theirs = await w.api.fixtures.createSite(beta.id, { title: 'Theirs' })
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const res = await call(w.api, w.tokens.ada, 'GET', sitePath(w, site.id))
      expect(res.status).toBe(200)
      expect(res.body).toEqual(site)
      const wrong = await call(w.api, w.tokens.ada, 'GET', sitePath(w, theirs.id))
      expect(wrong.status).toBe(404)
      expect(wrong.body.error).toEqual({ code: 404, message: 'Site not found' })
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${beta.id}/sites/${theirs.id}`)).status).toBe(200)
      expect((await call(w.api, w.tokens.ada, 'GET', sitePath(w, 'missing'))).body.error).toEqual({ code: 404, message: 'Site not found' })
    })

    it('shows a site to readers; guests and outsiders get 404, no token 401', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', visibility: 'unlisted', published: true })
      const reader = await call(w.api, w.tokens.rita, 'GET', sitePath(w, site.id))
      expect(reader.status).toBe(200)
      expect(reader.body).toMatchObject({ id: site.id, permissions: READER })
      // A guest sees the organization, not its sites; an outsider sees neither.
      for (const [token, message] of [
        [w.tokens.gina, 'Site not found'],
        [w.tokens.olga, 'Organization not found'],
      ] as const) {
        const res = await call(w.api, token, 'GET', sitePath(w, site.id))
        expect(res.status).toBe(404)
        expect(res.body.error).toEqual({ code: 404, message })
      }
      expect((await call(w.api, undefined, 'GET', sitePath(w, site.id))).status).toBe(401)
    })
  })

  describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}', () => {
    it('updates title, visibility, basename, adaptiveContent and agentsContext', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      w.clock.advance(HOUR)
      const res = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), {
        title: 'Manuals',
        visibility: 'unlisted',
        basename: 'manuals',
        adaptiveContent: { enabled: true },
        agentsContext: 'excluded',
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({
        title: 'Manuals',
        visibility: 'unlisted',
        basename: 'manuals',
        adaptiveContent: { enabled: true },
        agentsContext: 'excluded',
      })
      expect(res.body.createdAt).toBe('2026-03-01T10:00:00.000Z')
      expect(siteRow(w, site.id)).toMatchObject({
        title: 'Manuals',
        visibility: 'unlisted',
        basename: 'manuals',
        adaptiveContent: { enabled: true },
        agentsContext: 'excluded',
      })
      // Omitted fields are kept.
      const again = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { agentsContext: 'included' })
      expect(again.body).toMatchObject({ title: 'Manuals', basename: 'manuals', agentsContext: 'included', adaptiveContent: { enabled: true } })
      const unchanged = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), {})
      expect(unchanged.status).toBe(200)
      expect(unchanged.body).toEqual(again.body)
    })

    it('sets a hostname (unique among sites; null removes it) and publishes under it', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', published: true })
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
      expect(site.urls.published).toBe(`https://docs.localhost/${w.org.id}/${site.id}`)
      const res = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { hostname: 'docs.acme.com', basename: 'guide' })
      expect(res.status).toBe(200)
      expect(res.body.hostname).toBe('docs.acme.com')
      expect(res.body.urls.published).toBe('https://docs.acme.com/guide')
      // Setting its own hostname again is no conflict.
      expect((await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { hostname: 'docs.acme.com' })).status).toBe(200)
      const before = snapshot(w)
      const taken = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, other.id), { hostname: 'docs.acme.com', title: 'Renamed' })
      expect(taken.status).toBe(409)
      expect(taken.body.error).toEqual({ code: 409, message: 'The hostname docs.acme.com is already used by another site' })
      expect(snapshot(w)).toEqual(before)
      const removed = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { hostname: null })
      expect(removed.status).toBe(200)
      expect(removed.body.hostname).toBeUndefined()
      expect(removed.body.urls.published).toBe(`https://docs.localhost/${w.org.id}/guide`)
      expect(siteRow(w, site.id)!.hostname).toBeUndefined()
      // Once freed, another site may take it.
      expect((await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, other.id), { hostname: 'docs.acme.com' })).body.hostname).toBe('docs.acme.com')
    })

    it('accepts a hostname of 512 characters, and no longer', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const longest = [...Array(8).fill('a'.repeat(62)), 'b'.repeat(8)].join('.')
      expect(longest).toHaveLength(512)
      const ok = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { hostname: longest })
      expect(ok.status).toBe(200)
      expect(ok.body.hostname).toBe(longest)
      const tooLong = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { hostname: `c${longest}` })
      expect(tooLong.status).toBe(400)
      expect(tooLong.body.error.message).toContain('body field `hostname`: must be at most 512 characters')
    })

    it('sets a proxy origin (host and path): proxy.target is the unproxied URL, urls.published the proxy once published; null removes it', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const res = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { proxy: 'company.com/docs' })
      expect(res.status).toBe(200)
      expect(res.body.proxy).toEqual({ origin: 'company.com/docs', target: `https://docs.localhost/${w.org.id}/${site.id}` })
      expect(res.body.urls.published).toBeUndefined()
      const published = await call(w.api, w.tokens.ada, 'POST', `${sitePath(w, site.id)}/publish`)
      expect(published.body.urls.published).toBe('https://company.com/docs')
      const longest = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { proxy: `company.com/${'d'.repeat(500)}` })
      expect(longest.status).toBe(200)
      expect(longest.body.proxy.origin).toHaveLength(512)
      const deeper = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { proxy: 'www.company.com/developer/docs', hostname: 'docs.company.com' })
      expect(deeper.body.proxy).toEqual({ origin: 'www.company.com/developer/docs', target: 'https://docs.company.com' })
      expect(deeper.body.urls.published).toBe('https://www.company.com/developer/docs')
      const removed = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { proxy: null })
      expect(removed.status).toBe(200)
      expect(removed.body.proxy).toBeUndefined()
      expect(removed.body.urls.published).toBe('https://docs.company.com')
      expect(siteRow(w, site.id)!.proxy).toBeUndefined()
    })

    it.each([
      [{ title: 'x' }, 'body field `title`: must be at least 2 characters'],
      [{ title: 'x'.repeat(129) }, 'body field `title`: must be at most 128 characters'],
      [{ visibility: 'private' }, 'body field `visibility`'],
      [{ basename: '' }, 'body field `basename`: must not be empty'],
      [{ basename: 'b'.repeat(101) }, 'body field `basename`: must be at most 100 characters'],
      [{ hostname: 'acme.com' }, 'body field `hostname`: must be a lower-case hostname of at least three labels'],
      [{ hostname: 'Docs.Acme.com' }, 'body field `hostname`: must be a lower-case hostname'],
      [{ hostname: 'docs..acme.com' }, 'body field `hostname`: must be a lower-case hostname'],
      [{ hostname: 'https://docs.acme.com' }, 'body field `hostname`: must be a lower-case hostname'],
      [{ proxy: 'company.com' }, 'body field `proxy`: must be a host followed by a path'],
      [{ proxy: 'http://x' }, 'body field `proxy`: must be a host followed by a path'],
      [{ proxy: 'https://company.com/docs' }, 'body field `proxy`: must be a host followed by a path'],
      [{ proxy: 'company.com/docs/' }, 'body field `proxy`: must be a host followed by a path'],
      [{ proxy: `company.com/${'d'.repeat(501)}` }, 'body field `proxy`: must be at most 512 characters'],
      [{ agentsContext: 'maybe' }, 'body field `agentsContext`'],
      [{ adaptiveContent: {} }, 'body field `adaptiveContent.enabled`'],
      [{ defaultSiteSpace: '' }, 'body field `defaultSiteSpace`: must not be empty'],
      [{ defaultSiteSection: '' }, 'body field `defaultSiteSection`: must not be empty'],
      [undefined, 'body is required'],
    ])('rejects %j and changes nothing', async (body, message) => {
      const w = await createWorld()
      const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [space.id] })
      const before = snapshot(w)
      const res = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), body)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(400)
      expect(res.body.error.message).toContain(message)
      expect(snapshot(w)).toEqual(before)
    })

    it('defaultSiteSpace picks the default at the root; a site-space elsewhere is a 400', async () => {
      const w = await createWorld()
      const [a, b, c] = await spacesOf(w, ['A', 'B', 'C'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [a!.id, b!.id] })
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other', spaces: [c!.id] })
      const [ssA, ssB] = rootSiteSpaces(w, site.id)
      const res = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { defaultSiteSpace: ssB!.id })
      expect(res.status).toBe(200)
      expect(rootSiteSpaces(w, site.id).map((r) => [r.id, r.default])).toEqual([
        [ssA!.id, false],
        [ssB!.id, true],
      ])
      const listed = await call(w.api, w.tokens.ada, 'GET', `${sitePath(w, site.id)}/site-spaces?default=true`)
      expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([ssB!.id])
      const foreign = rootSiteSpaces(w, other.id)[0]!
      const before = snapshot(w)
      const bad = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { title: 'Renamed', defaultSiteSpace: foreign.id })
      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toBe(`Invalid request: body field \`defaultSiteSpace\`: no site-space ${foreign.id} in this site`)
      expect(snapshot(w)).toEqual(before)
    })

    it('with sections, defaultSiteSpace must be in the default section; defaultSiteSection changes the default section', async () => {
      const w = await createWorld()
      const [a, b, c] = await spacesOf(w, ['Alpha', 'Beta', 'Gamma'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [a!.id] })
      const first = (await call(w.api, w.tokens.ada, 'POST', `${sitePath(w, site.id)}/sections`, { spaceId: b!.id, title: 'Guides' })).body
      const second = (await call(w.api, w.tokens.ada, 'POST', `${sitePath(w, site.id)}/sections`, { spaceId: c!.id, title: 'Reference' })).body
      // The first section took over the root site-space (a, the default) and got b after it.
      const inFirst = rootSiteSpaces(w, site.id, first.id)
      expect(inFirst.map((r) => [r.space, r.default])).toEqual([
        [a!.id, true],
        [b!.id, false],
      ])
      const inSecond = rootSiteSpaces(w, site.id, second.id)
      const wrong = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { defaultSiteSpace: inSecond[0]!.id })
      expect(wrong.status).toBe(400)
      expect(wrong.body.error.message).toBe(
        `Invalid request: body field \`defaultSiteSpace\`: site-space ${inSecond[0]!.id} is not in the default section (${first.id})`,
      )
      const ok = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { defaultSiteSpace: inFirst[1]!.id })
      expect(ok.status).toBe(200)
      expect(rootSiteSpaces(w, site.id, first.id).map((r) => r.default)).toEqual([false, true])
      // Both at once: the section changes first, then the site-space must be in the new default.
      const both = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { defaultSiteSection: second.id, defaultSiteSpace: inSecond[0]!.id })
      expect(both.status).toBe(200)
      const sections = w.api.store.read((tx) => tx.all('siteSections').map((s) => [s.id, s.default]))
      expect(sections).toEqual([
        [first.id, false],
        [second.id, true],
      ])
      const unknown = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { defaultSiteSection: 'nope' })
      expect(unknown.status).toBe(400)
      expect(unknown.body.error.message).toBe('Invalid request: body field `defaultSiteSection`: no section nope in this site')
      // A failed request changes nothing, also what it wrote before failing.
      await w.api.fixtures
        .createSite(w.org.id, { title: 'Taken' })
        .then((t) => call(w.api, w.tokens.ada, 'PATCH', sitePath(w, t.id), { hostname: 'taken.acme.com' }))
      const before = snapshot(w)
      const conflict = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { defaultSiteSection: first.id, hostname: 'taken.acme.com' })
      expect(conflict.status).toBe(409)
      expect(snapshot(w)).toEqual(before)
    })

    it('defaultSiteSection on a site without sections is a 400', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const res = await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { defaultSiteSection: 'nope', defaultSiteSpace: 'none' })
      expect(res.status).toBe(400)
      expect(res.body.error.message).toContain('body field `defaultSiteSection`')
    })

    it('needs the edit role: editors change sites, readers get 403, guests and outsiders 404, no token 401', async () => {
      const w = await createWorld()
      const eddie = await addEditor(w)
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const res = await call(w.api, eddie, 'PATCH', sitePath(w, site.id), { title: 'By Eddie' })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ title: 'By Eddie', permissions: EDITOR })
      const before = snapshot(w)
      const reader = await call(w.api, w.tokens.rita, 'PATCH', sitePath(w, site.id), { title: 'By Rita' })
      expect(reader.status).toBe(403)
      expect(reader.body.error).toEqual({ code: 403, message: 'You need the edit role on this site to do this' })
      expect((await call(w.api, w.tokens.gina, 'PATCH', sitePath(w, site.id), { title: 'By Gina' })).status).toBe(404)
      expect((await call(w.api, w.tokens.olga, 'PATCH', sitePath(w, site.id), { title: 'By Olga' })).status).toBe(404)
      expect((await call(w.api, undefined, 'PATCH', sitePath(w, site.id), { title: 'Anonymous' })).status).toBe(401)
      expect((await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, 'missing'), { title: 'Nothing' })).status).toBe(404)
      expect(snapshot(w)).toEqual(before)
    })
  })

  describe('publish and unpublish', () => {
    it('publishes and unpublishes (idempotent); urls.published exists only while published', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      w.clock.advance(HOUR)
      const res = await call(w.api, w.tokens.ada, 'POST', `${sitePath(w, site.id)}/publish`)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: site.id, published: true, urls: { published: `https://docs.localhost/${w.org.id}/${site.id}` } })
      const published = siteRow(w, site.id)
      expect(published).toMatchObject({ published: true })
      w.clock.advance(HOUR)
      const again = await call(w.api, w.tokens.ada, 'POST', `${sitePath(w, site.id)}/publish`)
      expect(again.status).toBe(200)
      expect(again.body).toEqual(res.body)
      // Publishing a published site changes nothing.
      expect(siteRow(w, site.id)).toBe(published)
      const listed = await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?published=true`)
      expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([site.id])
      const off = await call(w.api, w.tokens.ada, 'POST', `${sitePath(w, site.id)}/unpublish`)
      expect(off.status).toBe(200)
      expect(off.body.published).toBe(false)
      expect(off.body.urls.published).toBeUndefined()
      expect((await call(w.api, w.tokens.ada, 'POST', `${sitePath(w, site.id)}/unpublish`)).body.published).toBe(false)
      expect(siteRow(w, site.id)).toMatchObject({ published: false })
    })

    it('published URLs use the basename, and the organization hostname when it has one', async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', published: true })
      await call(w.api, w.tokens.ada, 'PATCH', sitePath(w, site.id), { basename: 'guide' })
      expect((await call(w.api, w.tokens.ada, 'GET', sitePath(w, site.id))).body.urls.published).toBe(`https://docs.localhost/${w.org.id}/guide`)
      const org = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { hostname: 'acme' })
      expect(org.status).toBe(200)
      expect((await call(w.api, w.tokens.ada, 'GET', sitePath(w, site.id))).body.urls.published).toBe('https://docs.localhost/acme/guide')
    })

    it('a basename is one path segment of every published URL, whatever characters it holds', async () => {
      const w = await createWorld()
      const [a, b] = await spacesOf(w, ['Alpha', 'Beta'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', visibility: 'share-link', spaces: [a!.id], published: true })
      const base = sitePath(w, site.id)
      await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: b!.id, path: 'api' })
      const link = (await call(w.api, w.tokens.ada, 'POST', `${base}/share-links`, { name: 'Partners' })).body
      /** Every `published` URL the API answers about the site. */
      const publishedUrls = async (): Promise<string[]> => {
        const key = decodeURIComponent(new URL(link.urls.published).pathname.split('/').pop()!)!
        const q = `?shareKey=${encodeURIComponent(key)}`
        const got = (await call(w.api, w.tokens.ada, 'GET', `${base}${q}`)).body
        const sections = (await call(w.api, w.tokens.ada, 'GET', `${base}/sections${q}`)).body.items
        const siteSpaces = (await call(w.api, w.tokens.ada, 'GET', `${base}/site-spaces${q}`)).body.items
        const links = (await call(w.api, w.tokens.ada, 'GET', `${base}/share-links`)).body.items
        return [got, ...sections, ...siteSpaces, ...links].map((r: any) => r.urls.published)
      }
      for (const [basename, segment] of [
        ['team docs', 'team%20docs'],
        ['a?b=c', 'a%3Fb%3Dc'],
        ['x#top', 'x%23top'],
        ['a/b', 'a%2Fb'],
        ['ünï', '%C3%BCn%C3%AF'],
      ] as const) {
        expect((await call(w.api, w.tokens.ada, 'PATCH', base, { basename })).status, basename).toBe(200)
        for (const hostname of [null, 'docs.acme.com']) {
          await call(w.api, w.tokens.ada, 'PATCH', base, { hostname })
          const root = hostname ? `https://${hostname}/${segment}` : `https://docs.localhost/${w.org.id}/${segment}`
          const urls = await publishedUrls()
          // the site, its section, the two site-spaces (the first section took the root's), the share link
          expect(urls.length, basename).toBe(5)
          for (const url of urls) {
            // A URI (as the official schema says), under the site's root: nothing of the basename leaks into the query, fragment or path.
            expect(url, basename).toMatch(/^[\x21-\x7e]+$/)
            expect(url.startsWith(`${root}/`) || url.startsWith(`${root}?`) || url === root, `${url} under ${root}`).toBe(true)
            const parsed = new URL(url)
            expect(parsed.hash).toBe('')
            expect(
              [...parsed.searchParams.keys()].every((k) => k === 'share'),
              url,
            ).toBe(true)
          }
        }
      }
      expect(siteRow(w, site.id)!.basename).toBe('ünï')
      // A lone surrogate has no URL encoding: a 400 naming the rule (it was a 500), and nothing stored.
      for (const [path, body] of [
        [base, { basename: 'a\udfff' }],
        [`${base}/site-spaces/${(await call(w.api, w.tokens.ada, 'GET', `${base}/site-spaces`)).body.items[0].id}`, { path: '\ud800x' }],
      ] as const) {
        const res = await call(w.api, w.tokens.ada, 'PATCH', path, body)
        expect(res.status, path).toBe(400)
        expect(res.body.error.message).toMatch(/body field `(basename|path)`: must be well-formed Unicode text \(no lone surrogate\)/)
      }
      expect(siteRow(w, site.id)!.basename).toBe('ünï')
    })

    it('needs the edit role: readers get 403, guests and outsiders 404, no token 401', async () => {
      const w = await createWorld()
      const eddie = await addEditor(w)
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      for (const action of ['publish', 'unpublish']) {
        expect((await call(w.api, w.tokens.rita, 'POST', `${sitePath(w, site.id)}/${action}`)).status).toBe(403)
        expect((await call(w.api, w.tokens.gina, 'POST', `${sitePath(w, site.id)}/${action}`)).status).toBe(404)
        expect((await call(w.api, w.tokens.olga, 'POST', `${sitePath(w, site.id)}/${action}`)).status).toBe(404)
        expect((await call(w.api, undefined, 'POST', `${sitePath(w, site.id)}/${action}`)).status).toBe(401)
        expect((await call(w.api, w.tokens.ada, 'POST', `${sitePath(w, 'missing')}/${action}`)).status).toBe(404)
      }
      expect(siteRow(w, site.id)!.published).toBe(false)
      expect((await call(w.api, eddie, 'POST', `${sitePath(w, site.id)}/publish`)).body.published).toBe(true)
    })
  })

  describe('DELETE /v1/orgs/{organizationId}/sites/{siteId}', () => {
    it('deletes the site with its sections, groups, site-spaces and share links, and nothing of other sites', async () => {
      const w = await createWorld()
      const [a, b, c] = await spacesOf(w, ['Alpha', 'Beta', 'Gamma'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', visibility: 'share-link', spaces: [a!.id], published: true })
      const kept = await w.api.fixtures.createSite(w.org.id, { title: 'Kept', spaces: [a!.id, c!.id] })
      const base = sitePath(w, site.id)
      const section = (await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: b!.id })).body
      await call(w.api, w.tokens.ada, 'POST', `${base}/section-groups`, { title: 'Group', sections: [section.id] })
      await call(w.api, w.tokens.ada, 'PATCH', base, { hostname: 'docs.acme.com' })
      const link = await call(w.api, w.tokens.ada, 'POST', `${base}/share-links`, { name: 'Partners' })
      expect(link.status).toBe(201)
      const key = decodeURIComponent(new URL(link.body.urls.published).pathname.split('/').pop()!)!
      expect(w.api.store.read((tx) => tx.scan('shareLinks', 'byKey', key).length)).toBe(1)
      const count = (name: 'siteSpaces' | 'siteSections' | 'siteSectionGroups' | 'shareLinks', id: string) =>
        w.api.store.read((tx) => tx.count(name, 'bySite', id))
      expect([count('siteSpaces', site.id), count('siteSections', site.id), count('siteSectionGroups', site.id), count('shareLinks', site.id)]).toEqual([
        2, 1, 1, 1,
      ])
      const keptBefore = w.api.store.read((tx) => tx.scan('siteSpaces', 'bySite', kept.id).map((e) => e.row))
      const res = await call(w.api, w.tokens.ada, 'DELETE', base)
      expect(res.status).toBe(204)
      expect(res.body).toBeUndefined()
      expect(siteRow(w, site.id)).toBeUndefined()
      expect(w.api.store.read((tx) => tx.scan('sites', 'byHostname', 'docs.acme.com').length)).toBe(0)
      expect([count('siteSpaces', site.id), count('siteSections', site.id), count('siteSectionGroups', site.id), count('shareLinks', site.id)]).toEqual([
        0, 0, 0, 0,
      ])
      expect(w.api.store.read((tx) => tx.scan('shareLinks', 'byKey', key).length)).toBe(0)
      expect(w.api.store.read((tx) => tx.scan('siteSpaces', 'bySite', kept.id).map((e) => e.row))).toEqual(keptBefore)
      expect((await call(w.api, w.tokens.ada, 'GET', base)).status).toBe(404)
      expect((await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?space=${a!.id}`)).body.items.map((s: { id: string }) => s.id)).toEqual([kept.id])
    })

    it('answers 204 when the site does not exist, or belongs to another organization (which keeps it)', async () => {
      const w = await createWorld()
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const theirs = await w.api.fixtures.createSite(beta.id, { title: 'Theirs' })
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      expect((await call(w.api, w.tokens.ada, 'DELETE', sitePath(w, site.id))).status).toBe(204)
      expect((await call(w.api, w.tokens.ada, 'DELETE', sitePath(w, site.id))).status).toBe(204)
      expect((await call(w.api, w.tokens.ada, 'DELETE', sitePath(w, 'missing'))).status).toBe(204)
      expect((await call(w.api, w.tokens.ada, 'DELETE', sitePath(w, theirs.id))).status).toBe(204)
      expect(siteRow(w, theirs.id)).toBeDefined()
    })

    it("clears the organization's defaultContent when it pointed at the site", async () => {
      const w = await createWorld()
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
      const set = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { defaultContent: { type: 'site', site: site.id } })
      expect(set.body.defaultContent).toEqual({ type: 'site', site: site.id })
      await call(w.api, w.tokens.ada, 'DELETE', sitePath(w, other.id))
      expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)).body.defaultContent).toEqual({ type: 'site', site: site.id })
      await call(w.api, w.tokens.ada, 'DELETE', sitePath(w, site.id))
      const org = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)
      expect(org.body.defaultContent).toBeUndefined()
      expect(w.api.store.read((tx) => tx.get('organizations', w.org.id))!.defaultContent).toBeUndefined()
    })

    it('needs the edit role: readers get 403; a guest gets a 204 that deletes nothing, an outsider 404 (the organization is hidden); no token 401', async () => {
      const w = await createWorld()
      const eddie = await addEditor(w)
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const before = snapshot(w)
      const reader = await call(w.api, w.tokens.rita, 'DELETE', sitePath(w, site.id))
      expect(reader.status).toBe(403)
      expect(reader.body.error.code).toBe(403)
      // The delete is idempotent and reveals nothing: a guest, who sees the organization but not
      // its sites, gets 204. A hidden or unknown parent is a 404 whatever the method.
      expect((await call(w.api, w.tokens.gina, 'DELETE', sitePath(w, site.id))).status).toBe(204)
      const outsider = await call(w.api, w.tokens.olga, 'DELETE', sitePath(w, site.id))
      expect(outsider.status).toBe(404)
      expect(outsider.body.error.message).toBe('Organization not found')
      expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/orgs/nope/sites/${site.id}`)).status).toBe(404)
      expect((await call(w.api, undefined, 'DELETE', sitePath(w, site.id))).status).toBe(401)
      expect(snapshot(w)).toEqual(before)
      expect((await call(w.api, eddie, 'DELETE', sitePath(w, site.id))).status).toBe(204)
      expect(siteRow(w, site.id)).toBeUndefined()
    })
  })

  describe('siteSpaces: what the site holds', () => {
    it('counts site-spaces as they are added and removed, at the root and in sections', async () => {
      const w = await createWorld()
      const [a, b, c] = await spacesOf(w, ['Alpha', 'Beta', 'Gamma'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
      const base = sitePath(w, site.id)
      const countOf = async () => (await call(w.api, w.tokens.ada, 'GET', base)).body.siteSpaces
      expect(await countOf()).toBe(0)
      const ssA = (await call(w.api, w.tokens.ada, 'POST', `${base}/site-spaces`, { spaceId: a!.id })).body
      expect(await countOf()).toBe(1)
      const section = (await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: b!.id })).body
      expect(await countOf()).toBe(2)
      const other = (await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: c!.id })).body
      await call(w.api, w.tokens.ada, 'POST', `${base}/site-spaces`, { spaceId: a!.id, sectionId: other.id })
      expect(await countOf()).toBe(4)
      expect((await call(w.api, w.tokens.ada, 'DELETE', `${base}/site-spaces/${ssA.id}`)).status).toBe(204)
      expect(await countOf()).toBe(3)
      await call(w.api, w.tokens.ada, 'DELETE', `${base}/sections/${other.id}`)
      expect(await countOf()).toBe(1)
      expect((await call(w.api, w.tokens.ada, 'GET', sitesPath(w))).body.items[0].siteSpaces).toBe(1)
      expect(section.siteSpaces).toHaveLength(2)
    })

    it('a space transferred to another organization leaves its sites, and another site-space becomes the default', async () => {
      const w = await createWorld()
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const [a, b, c] = await spacesOf(w, ['Alpha', 'Beta', 'Gamma'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [a!.id, b!.id, c!.id] })
      const moved = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${a!.id}/transfer`, { organization: beta.id })
      expect(moved.status).toBe(200)
      expect(rootSiteSpaces(w, site.id).map((r) => [r.space, r.default])).toEqual([
        [b!.id, true],
        [c!.id, false],
      ])
      expect((await call(w.api, w.tokens.ada, 'GET', sitePath(w, site.id))).body.siteSpaces).toBe(2)
      expect(w.api.store.read((tx) => tx.scan('siteSpaces', 'bySpace', a!.id).length)).toBe(0)
    })

    it('a collection transferred to another organization takes its spaces out of the sites', async () => {
      const w = await createWorld()
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const team = await w.api.fixtures.createCollection(w.org.id, { title: 'Team' })
      const inside = await w.api.fixtures.createSpace(w.org.id, { title: 'Inside', parent: team.id })
      const [outside] = await spacesOf(w, ['Outside'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [inside.id, outside!.id] })
      const res = await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${team.id}/transfer`, { organization: beta.id })
      expect(res.status).toBe(200)
      expect(rootSiteSpaces(w, site.id).map((r) => [r.space, r.default])).toEqual([[outside!.id, true]])
      expect((await call(w.api, w.tokens.ada, 'GET', sitePath(w, site.id))).body.siteSpaces).toBe(1)
    })

    it('a space past its restore window is purged from its sites by the next space write of its organization', async () => {
      const w = await createWorld()
      const [a, b] = await spacesOf(w, ['Alpha', 'Beta'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [a!.id, b!.id] })
      await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${a!.id}`)
      w.clock.advance(8 * DAY)
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 'New' })).status).toBe(201)
      expect(rootSiteSpaces(w, site.id).map((r) => [r.space, r.default])).toEqual([[b!.id, true]])
      expect((await call(w.api, w.tokens.ada, 'GET', sitePath(w, site.id))).body.siteSpaces).toBe(1)
      expect((await call(w.api, w.tokens.ada, 'GET', `${sitesPath(w)}?space=${a!.id}`)).body.items).toEqual([])
    })

    it('a trashed space stays in its sites until it is purged; then another site-space becomes the default', async () => {
      const w = await createWorld()
      const [a, b] = await spacesOf(w, ['Alpha', 'Beta'])
      const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [a!.id] })
      const section = (await call(w.api, w.tokens.ada, 'POST', `${sitePath(w, site.id)}/sections`, { spaceId: b!.id })).body
      expect(rootSiteSpaces(w, site.id, section.id).map((r) => [r.space, r.default])).toEqual([
        [a!.id, true],
        [b!.id, false],
      ])
      expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${a!.id}`)).status).toBe(204)
      expect((await call(w.api, w.tokens.ada, 'GET', sitePath(w, site.id))).body.siteSpaces).toBe(2)
      w.clock.advance(7 * DAY + 1)
      const restore = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${a!.id}/restore`)
      expect(restore.status).toBe(404)
      expect(rootSiteSpaces(w, site.id, section.id).map((r) => [r.space, r.default])).toEqual([[b!.id, true]])
      expect((await call(w.api, w.tokens.ada, 'GET', sitePath(w, site.id))).body.siteSpaces).toBe(1)
    })
  })
})
