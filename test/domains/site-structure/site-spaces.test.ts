import { describe, expect, it } from 'vitest'
import { call, createWorld, type Called, addEditor, expectError, siteSnapshot, expectSiteAccessMatrix } from '../../helpers.js'

/**
 * Site-spaces through `api.fetch`: the spaces a site publishes, at its root (a site without
 * sections) or in its sections. Readers list them; editors add, change, move and remove them.
 */

async function setup(options: { rootSpaces?: boolean } = {}) {
  const w = await createWorld()
  const editor = await addEditor(w)
  const guide = await w.api.fixtures.createSpace(w.org.id, { title: 'Guide' })
  const reference = await w.api.fixtures.createSpace(w.org.id, { title: 'API Reference' })
  const changelog = await w.api.fixtures.createSpace(w.org.id, { title: 'Changelog' })
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', ...(options.rootSpaces && { spaces: [guide.id, reference.id] }) })
  const base = `/v1/orgs/${w.org.id}/sites/${site.id}`
  const section = async (spaceId: string, body: Record<string, unknown> = {}) => {
    const res = await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId, ...body })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body
  }
  const add = async (spaceId: string, body: Record<string, unknown> = {}) => {
    const res = await call(w.api, w.tokens.ada, 'POST', `${base}/site-spaces`, { spaceId, ...body })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body
  }
  return { ...w, editor, spaces: { guide, reference, changelog }, site, base, section, add }
}

type Setup = Awaited<ReturnType<typeof setup>>

const snapshot = siteSnapshot

const ids = (res: Called) => res.body.items.map((i: { id: string }) => i.id)
const listed = async (w: Setup, query = '') => ids(await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces${query}`))
const siteSpaceRow = (w: Setup, id: string) => w.api.store.read((tx) => tx.get('siteSpaces', id))
const rootSiteSpaces = (w: Setup) => w.api.store.read((tx) => tx.scan('siteSpaces', 'byContainer', `site:${w.site.id}`).map((e) => e.row))

describe('site-spaces', () => {
  describe('GET .../site-spaces (listSiteSpaces)', () => {
    it("lists a site's root site-spaces in order, the first being the default", async () => {
      const w = await setup({ rootSpaces: true })
      const res = await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces`)
      expect(res.status).toBe(200)
      expect(res.body.count).toBe(2)
      expect(res.body.items.map((s: any) => [s.space.id, s.path, s.default, s.title])).toEqual([
        [w.spaces.guide.id, 'guide', true, 'Guide'],
        [w.spaces.reference.id, 'api-reference', false, 'API Reference'],
      ])
      expect(res.body.items[0]).toMatchObject({ object: 'site-space', draft: false, hidden: false, urls: {} })
      expect(res.body.items[0]).not.toHaveProperty('section')
      expect(res.body.items[0]).not.toHaveProperty('condition')
    })

    it('lists site-spaces of sections in structure order (through groups), filtered by default, in pages', async () => {
      const w = await setup()
      const s1 = await w.section(w.spaces.guide.id)
      const g = await call(w.api, w.tokens.ada, 'POST', `${w.base}/section-groups`, { title: 'Group' })
      const s2 = await w.section(w.spaces.reference.id, { siteSectionGroupId: g.body.id })
      const s3 = await w.section(w.spaces.changelog.id)
      const extra1 = await w.add(w.spaces.changelog.id, { sectionId: s1.id })
      const extra2 = await w.add(w.spaces.guide.id, { sectionId: s2.id })
      const order = [s1.siteSpaces[0].id, extra1.id, s2.siteSpaces[0].id, extra2.id, s3.siteSpaces[0].id]
      expect(await listed(w)).toEqual(order)
      expect(await listed(w, '?default=true')).toEqual([s1.siteSpaces[0].id])
      expect(await listed(w, '?default=false')).toEqual(order.slice(1))
      // Moving the section moves its site-spaces in the list.
      await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections/${s3.id}/move`, { position: { before: { type: 'site-section', siteSection: s1.id } } })
      expect(await listed(w)).toEqual([s3.siteSpaces[0].id, ...order.slice(0, 4)])
      const pages: string[] = []
      let page: string | undefined
      let calls = 0
      do {
        const res = await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces?default=false&limit=2${page ? `&page=${page}` : ''}`)
        expect(res.body.count).toBe(4)
        pages.push(...ids(res))
        page = res.body.next?.page
        calls++
      } while (page)
      expect(calls).toBe(2)
      expect(pages).toEqual([s3.siteSpaces[0].id, extra1.id, s2.siteSpaces[0].id, extra2.id])
    })

    it('gives published URLs once the site is published: defaults sit at their parent URL', async () => {
      const w = await setup()
      const s1 = await w.section(w.spaces.guide.id)
      const s2 = await w.section(w.spaces.reference.id, { title: 'Reference' })
      const extra = await w.add(w.spaces.changelog.id, { sectionId: s2.id })
      const site = await w.api.fixtures.publishSite(w.org.id, w.site.id)
      const root = site.urls.published!
      expect(root).toBe(`https://docs.localhost/${w.org.id}/${w.site.id}`)
      const res = await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces`)
      expect(res.body.items.map((s: any) => s.urls.published)).toEqual([root, `${root}/reference`, `${root}/reference/changelog`])
      const sections = await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections`)
      expect(sections.body.items.map((s: any) => s.urls.published)).toEqual([root, `${root}/reference`])
      expect(ids(sections)).toEqual([s1.id, s2.id])
      expect(extra.urls).toEqual({})
    })

    it('puts the share key in the URLs of a share-link site when the request holds the key of an active link', async () => {
      const w = await setup({ rootSpaces: true })
      await call(w.api, w.tokens.ada, 'PATCH', w.base, { visibility: 'share-link' })
      await w.api.fixtures.publishSite(w.org.id, w.site.id)
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other', visibility: 'share-link', published: true })
      /** Create a share link through the API; its key is the last segment of its URL. */
      const link = async (siteId: string, name: string) => {
        const res = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/sites/${siteId}/share-links`, { name })
        expect(res.status).toBe(201)
        return { id: res.body.id as string, key: decodeURIComponent(new URL(res.body.urls.published).pathname.split('/').pop()!)! }
      }
      const active = await link(w.site.id, 'Active')
      const inactive = await link(w.site.id, 'Inactive')
      const foreign = await link(other.id, 'Other')
      expect((await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/share-links/${inactive.id}`, { active: false })).status).toBe(200)
      const root = `https://docs.localhost/${w.org.id}/${w.site.id}`
      const urls = async (query: string) =>
        (await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces${query}`)).body.items.map((s: any) => s.urls.published)
      const q = (key: string) => `?shareKey=${encodeURIComponent(key)}`
      const withKey = `/${encodeURIComponent(active.key)}`
      expect(await urls(q(active.key))).toEqual([`${root}${withKey}`, `${root}${withKey}/api-reference`])
      expect(await urls(q(inactive.key))).toEqual([root, `${root}/api-reference`])
      expect(await urls(q(foreign.key))).toEqual([root, `${root}/api-reference`])
      expect(await urls('?shareKey=unknown')).toEqual([root, `${root}/api-reference`])
      expect(await urls('')).toEqual([root, `${root}/api-reference`])
      const section = await w.section(w.spaces.changelog.id)
      const sections = await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections${q(active.key)}`)
      expect(sections.body.items[0]).toMatchObject({ id: section.id, urls: { published: `${root}${withKey}` } })
      expect(sections.body.items[0].siteSpaces[1].urls.published).toBe(`${root}${withKey}/api-reference`)
    })

    it('validates the query: default, limit, page', async () => {
      const w = await setup({ rootSpaces: true })
      expectError(await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces?default=maybe`), 400, 'query parameter `default`: must be true or false')
      expectError(await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces?limit=-1`), 400, 'query parameter `limit`: must be at least 0')
      expectError(await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces?page=%25%25`), 400, '`page`')
      expectError(await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/sites/nope/site-spaces`), 404, 'Site not found')
      expect(await listed(w, '?default=true')).toHaveLength(1)
    })
  })

  describe('POST .../site-spaces (addSpaceToSite)', () => {
    it('adds to the root of a site without sections: the first is the default; paths come from titles and are unique', async () => {
      const w = await setup()
      const res = await call(w.api, w.editor, 'POST', `${w.base}/site-spaces`, { spaceId: w.spaces.guide.id })
      expect(res.status).toBe(201)
      expect(res.headers.get('location')).toBeNull()
      expect(res.body).toMatchObject({ object: 'site-space', path: 'guide', default: true, hidden: false, title: 'Guide', space: { id: w.spaces.guide.id } })
      expect(res.body).not.toHaveProperty('section')
      const twin = await w.api.fixtures.createSpace(w.org.id, { title: 'Guide' })
      expect((await w.add(twin.id)).path).toBe('guide-2')
      const titled = await w.add(w.spaces.reference.id, { title: 'Guide' })
      expect(titled).toMatchObject({ path: 'guide-3', title: 'Guide', default: false })
      expect(siteSpaceRow(w, titled.id)).toMatchObject({ title: 'Guide', site: w.site.id, organization: w.org.id })
      expect(rootSiteSpaces(w).map((r) => r.id)).toEqual([res.body.id, expect.any(String), titled.id])
      expect((await call(w.api, w.tokens.rita, 'GET', w.base)).body.siteSpaces).toBe(3)
    })

    it('adds to the default section, or to the section named by sectionId', async () => {
      const w = await setup()
      const s1 = await w.section(w.spaces.guide.id)
      const s2 = await w.section(w.spaces.reference.id)
      const toDefault = await w.add(w.spaces.changelog.id)
      expect(toDefault).toMatchObject({ section: s1.id, default: false, path: 'changelog' })
      const toS2 = await w.add(w.spaces.changelog.id, { sectionId: s2.id })
      expect(toS2).toMatchObject({ section: s2.id, default: false })
      // The default section moves: so does where a space lands without sectionId.
      await call(w.api, w.tokens.ada, 'PATCH', w.base, { defaultSiteSection: s2.id })
      expect((await w.add(w.spaces.guide.id)).section).toBe(s2.id)
    })

    it('creates a new space with spaceId null, titled after `title` (needs the create role)', async () => {
      const w = await setup()
      const res = await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces`, { spaceId: null, title: 'Release notes' })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({ title: 'Release notes', path: 'release-notes', default: true, space: { title: 'Release notes' } })
      const before = snapshot(w)
      expectError(await call(w.api, w.editor, 'POST', `${w.base}/site-spaces`, { spaceId: null }), 403, 'You need the create role on this organization')
      expect(snapshot(w)).toEqual(before)
    })

    it.each([
      [{}, 400, 'body field `spaceId`: is required'],
      [{ spaceId: '' }, 400, 'body field `spaceId`: must not be empty'],
      [{ spaceId: 'nope' }, 400, 'body field `spaceId`: no space nope in this organization'],
      [{ spaceId: 'CHANGELOG', sectionId: 'nope' }, 400, 'body field `sectionId`: no section nope in this site'],
      [{ spaceId: 'CHANGELOG', sectionId: '' }, 400, 'body field `sectionId`: must not be empty'],
      [{ spaceId: 'CHANGELOG', title: 'x' }, 400, 'body field `title`: must be at least 2 characters'],
      [{ spaceId: 'CHANGELOG', title: 'x'.repeat(129) }, 400, 'body field `title`: must be at most 128 characters'],
      [{ spaceId: 'GUIDE' }, 409, 'is already in this section'],
      [undefined, 400, 'body is required'],
    ])('answers $1 ($2), changing nothing', async (body, status, message) => {
      const w = await setup()
      await w.section(w.spaces.guide.id)
      const json = body && JSON.parse(JSON.stringify(body).replace('CHANGELOG', w.spaces.changelog.id).replace('GUIDE', w.spaces.guide.id))
      const before = snapshot(w)
      expectError(await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces`, json), status, message)
      expect(snapshot(w)).toEqual(before)
    })

    it('refuses a space twice at the root, a space of another organization, a trashed space, a section of another site', async () => {
      const w = await setup({ rootSpaces: true })
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const foreign = await w.api.fixtures.createSpace(beta.id, { title: 'Foreign' })
      const trashed = await w.api.fixtures.createSpace(w.org.id, { title: 'Trashed' })
      await w.api.fixtures.deleteSpace(trashed.id)
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
      const otherSection = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/sites/${other.id}/sections`, { spaceId: w.spaces.guide.id })
      const before = snapshot(w)
      const post = (body: unknown) => call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces`, body)
      expectError(await post({ spaceId: w.spaces.guide.id }), 409, `The space ${w.spaces.guide.id} is already in this site`)
      expectError(await post({ spaceId: foreign.id }), 400, `body field \`spaceId\`: no space ${foreign.id} in this organization`)
      expectError(await post({ spaceId: trashed.id }), 400, `body field \`spaceId\`: no space ${trashed.id} in this organization`)
      expectError(
        await post({ spaceId: w.spaces.changelog.id, sectionId: otherSection.body.id }),
        400,
        `body field \`sectionId\`: no section ${otherSection.body.id} in this site`,
      )
      expect(snapshot(w)).toEqual(before)
    })

    it('answers 204 without a body with Prefer: return=minimal, the site-space being added', async () => {
      const w = await setup()
      const res = await call(w.api, w.editor, 'POST', `${w.base}/site-spaces`, { spaceId: w.spaces.guide.id }, { prefer: 'return=minimal' })
      expect(res.status).toBe(204)
      expect(res.body).toBeUndefined()
      expect(rootSiteSpaces(w).map((r) => r.space)).toEqual([w.spaces.guide.id])
    })
  })

  describe('PATCH .../site-spaces/{siteSpaceId} (updateSiteSpaceById)', () => {
    it('updates path, condition, hidden and the space; omitted keeps, null removes the condition', async () => {
      const w = await setup({ rootSpaces: true })
      const [first] = rootSiteSpaces(w)
      const res = await call(w.api, w.editor, 'PATCH', `${w.base}/site-spaces/${first!.id}`, { path: 'start', condition: 'visitor.claims.beta', hidden: true })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: first!.id, path: 'start', condition: 'visitor.claims.beta', hidden: true, default: true })
      const kept = await call(w.api, w.editor, 'PATCH', `${w.base}/site-spaces/${first!.id}`, { spaceId: w.spaces.changelog.id })
      expect(kept.body).toMatchObject({
        path: 'start',
        condition: 'visitor.claims.beta',
        hidden: true,
        space: { id: w.spaces.changelog.id },
        title: 'Changelog',
      })
      const cleared = await call(w.api, w.editor, 'PATCH', `${w.base}/site-spaces/${first!.id}`, { condition: null, hidden: false })
      expect(cleared.body).toMatchObject({ hidden: false, path: 'start' })
      expect(cleared.body).not.toHaveProperty('condition')
      expect(siteSpaceRow(w, first!.id)).not.toHaveProperty('condition')
      // Its own path again, or its own space again, is no conflict and writes nothing.
      const same = siteSnapshot(w)
      expect((await call(w.api, w.editor, 'PATCH', `${w.base}/site-spaces/${first!.id}`, { path: 'start' })).status).toBe(200)
      expect((await call(w.api, w.editor, 'PATCH', `${w.base}/site-spaces/${first!.id}`, { spaceId: w.spaces.changelog.id })).status).toBe(200)
      expect(siteSnapshot(w)).toEqual(same)
      // The same path in another container is free.
      const s = await w.section(w.spaces.guide.id)
      expect(s.siteSpaces.map((x: any) => x.path)).toEqual(['start', 'api-reference', 'guide'])
    })

    it('accepts a path of 100 characters and a condition of 1024', async () => {
      const w = await setup({ rootSpaces: true })
      const [first] = rootSiteSpaces(w)
      const limits = { path: 'p'.repeat(100), condition: 'c'.repeat(1024) }
      const res = await call(w.api, w.editor, 'PATCH', `${w.base}/site-spaces/${first!.id}`, limits)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject(limits)
    })

    it.each([
      [{ path: '' }, 400, 'body field `path`: must not be empty'],
      [{ path: 'x'.repeat(101) }, 400, 'body field `path`: must be at most 100 characters'],
      [{ condition: 'x'.repeat(1025) }, 400, 'body field `condition`: must be at most 1024 characters'],
      // A condition must parse (docs/behaviour/share-links-and-adaptive-content.md).
      [{ condition: 'visitor.claims.roles.includes("admin"' }, 400, 'body field `condition`: must be a valid expression: Expected '],
      [
        { hidden: true, condition: 'visitor.claims.roles.push("admin")' },
        400,
        'body field `condition`: must be a valid expression: `push` is not a supported method',
      ],
      [{ hidden: 'yes' }, 400, 'body field `hidden`'],
      [{ spaceId: '' }, 400, 'body field `spaceId`: must not be empty'],
      [{ spaceId: 'nope' }, 400, 'body field `spaceId`: no space nope in this organization'],
      [{ path: 'api-reference' }, 409, 'The path `api-reference` is already used by another site-space here'],
      [{ spaceId: 'REFERENCE' }, 409, 'is already in this site'],
      [{ hidden: true, spaceId: 'REFERENCE' }, 409, 'is already in this site'],
      [undefined, 400, 'body is required'],
    ])('answers $1 ($2), changing nothing', async (body, status, message) => {
      const w = await setup({ rootSpaces: true })
      const [first] = rootSiteSpaces(w)
      const json = body && JSON.parse(JSON.stringify(body).replace('REFERENCE', w.spaces.reference.id))
      const before = snapshot(w)
      expectError(await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/site-spaces/${first!.id}`, json), status, message)
      expect(snapshot(w)).toEqual(before)
    })

    it('answers 404 for a site-space not in the site, and 204 with Prefer: return=minimal', async () => {
      const w = await setup({ rootSpaces: true })
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other', spaces: [w.spaces.guide.id] })
      const foreign = w.api.store.read((tx) => tx.scan('siteSpaces', 'bySite', other.id)[0]!.row)
      expectError(await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/site-spaces/nope`, { hidden: true }), 404, 'Site space not found')
      expectError(await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/site-spaces/${foreign.id}`, { hidden: true }), 404, 'Site space not found')
      const [first] = rootSiteSpaces(w)
      const minimal = await call(w.api, w.editor, 'PATCH', `${w.base}/site-spaces/${first!.id}`, { hidden: true }, { prefer: 'return=minimal' })
      expect(minimal.status).toBe(204)
      expect(minimal.body).toBeUndefined()
      expect(siteSpaceRow(w, first!.id)!.hidden).toBe(true)
    })
  })

  describe('DELETE .../site-spaces/{siteSpaceId} (deleteSiteSpaceById)', () => {
    it('removes the site-space (not the space), answers 204 again when it is gone', async () => {
      const w = await setup({ rootSpaces: true })
      const [first, second] = rootSiteSpaces(w)
      const res = await call(w.api, w.editor, 'DELETE', `${w.base}/site-spaces/${second!.id}`)
      expect(res.status).toBe(204)
      expect(res.body).toBeUndefined()
      expect(siteSpaceRow(w, second!.id)).toBeUndefined()
      expect(w.api.store.read((tx) => tx.get('spaces', w.spaces.reference.id))!.deletedAt).toBeUndefined()
      expect(rootSiteSpaces(w).map((r) => [r.id, r.default])).toEqual([[first!.id, true]])
      expect((await call(w.api, w.tokens.rita, 'GET', w.base)).body.siteSpaces).toBe(1)
      expect((await call(w.api, w.editor, 'DELETE', `${w.base}/site-spaces/${second!.id}`)).status).toBe(204)
      // The site is the site-space's parent: missing, it is a 404 (only the site-space itself answers 204 when gone).
      expectError(await call(w.api, w.editor, 'DELETE', `/v1/orgs/${w.org.id}/sites/nope/site-spaces/${first!.id}`), 404, 'Site not found')
      expect(siteSpaceRow(w, first!.id)).toBeDefined()
    })

    it('deletes the default: the next site-space of its container becomes the default', async () => {
      const w = await setup({ rootSpaces: true })
      const [first, second] = rootSiteSpaces(w)
      expect((await call(w.api, w.editor, 'DELETE', `${w.base}/site-spaces/${first!.id}`)).status).toBe(204)
      expect(siteSpaceRow(w, second!.id)!.default).toBe(true)
      expect((await call(w.api, w.editor, 'DELETE', `${w.base}/site-spaces/${second!.id}`)).status).toBe(204)
      expect(rootSiteSpaces(w)).toEqual([])
    })
  })

  describe('POST .../site-spaces/{siteSpaceId}/move (moveSiteSpace)', () => {
    it('moves before or after another site-space of its container, or to its end', async () => {
      const w = await setup({ rootSpaces: true })
      const [a, b] = rootSiteSpaces(w)
      const c = await w.add(w.spaces.changelog.id)
      const res = await call(w.api, w.editor, 'POST', `${w.base}/site-spaces/${c.id}/move`, { position: { before: { type: 'site-space', siteSpace: a!.id } } })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ object: 'site-space', id: c.id, default: false })
      expect(await listed(w)).toEqual([c.id, a!.id, b!.id])
      await call(w.api, w.editor, 'POST', `${w.base}/site-spaces/${a!.id}/move`, { position: { after: { type: 'site-space', siteSpace: b!.id } } })
      expect(await listed(w)).toEqual([c.id, b!.id, a!.id])
      expect((await call(w.api, w.editor, 'POST', `${w.base}/site-spaces/${c.id}/move`, {})).status).toBe(200)
      expect(await listed(w)).toEqual([b!.id, a!.id, c.id])
      expect((await call(w.api, w.editor, 'POST', `${w.base}/site-spaces/${b!.id}/move`)).status).toBe(200)
      expect(await listed(w)).toEqual([a!.id, c.id, b!.id])
      // Order and default are independent: the default stays the default wherever it is.
      expect(siteSpaceRow(w, a!.id)!.default).toBe(true)
    })

    it.each([
      [
        'A',
        { position: { before: { type: 'site-space', siteSpace: 'A' } } },
        400,
        'body field `position.before.siteSpace`: cannot place the site-space relative to itself',
      ],
      [
        'A',
        { position: { after: { type: 'site-space', siteSpace: 'nope' } } },
        400,
        'body field `position.after.siteSpace`: site-space nope is not in the same section',
      ],
      ['A', { position: { after: { type: 'site-space', siteSpace: 'OTHER' } } }, 400, 'site-space OTHER is not in the same section'],
      [
        'A',
        { position: { before: { type: 'site-space', siteSpace: 'B' }, after: { type: 'site-space', siteSpace: 'B' } } },
        400,
        'body field `position`: give either `before` or `after`, not both',
      ],
      ['A', { position: { before: { type: 'site-section', siteSpace: 'B' } } }, 400, 'body field `position.before.type`'],
      ['A', { position: { before: { type: 'site-space', siteSpace: '' } } }, 400, 'body field `position.before.siteSpace`: must not be empty'],
      ['A', { position: { before: { type: 'site-space', siteSpace: 'B' } } }, 409, 'The move would not change anything: the site-space is already there'],
      ['B', {}, 409, 'The move would not change anything'],
      ['nope', {}, 404, 'Site space not found'],
    ])('moving %s answers $2 ($3), changing nothing', async (who, body, status, message) => {
      const w = await setup()
      const s1 = await w.section(w.spaces.guide.id)
      const b = await w.add(w.spaces.reference.id, { sectionId: s1.id })
      const s2 = await w.section(w.spaces.changelog.id)
      const swap = (s: string) =>
        s
          .replace(/\bA\b/g, s1.siteSpaces[0].id)
          .replace(/\bB\b/g, b.id)
          .replace(/\bOTHER\b/g, s2.siteSpaces[0].id)
      const before = snapshot(w)
      const res = await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces/${swap(who)}/move`, JSON.parse(swap(JSON.stringify(body))))
      expectError(res, status, swap(message))
      expect(snapshot(w)).toEqual(before)
    })

    it('names the site root in the message when the sibling is not among the root site-spaces', async () => {
      const w = await setup({ rootSpaces: true })
      const [a] = rootSiteSpaces(w)
      const res = await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces/${a!.id}/move`, {
        position: { after: { type: 'site-space', siteSpace: 'nope' } },
      })
      expectError(res, 400, 'site-space nope is not in the site root')
    })
  })
})

describe('permissions on site-spaces', () => {
  it('readers read (403 on changes), guests and outsiders get 404 (204 on deletes, without effect), no token 401; editors change', async () => {
    const w = await setup({ rootSpaces: true })
    const [a, b] = rootSiteSpaces(w)
    const operations: Array<[string, string, string, unknown, number]> = [
      ['listSiteSpaces', 'GET', `${w.base}/site-spaces`, undefined, 200],
      ['addSpaceToSite', 'POST', `${w.base}/site-spaces`, { spaceId: w.spaces.changelog.id }, 201],
      ['updateSiteSpaceById', 'PATCH', `${w.base}/site-spaces/${a!.id}`, { hidden: true }, 200],
      ['moveSiteSpace', 'POST', `${w.base}/site-spaces/${a!.id}/move`, {}, 200],
      ['deleteSiteSpaceById', 'DELETE', `${w.base}/site-spaces/${b!.id}`, undefined, 204],
    ]
    await expectSiteAccessMatrix(w, w.editor, operations)
    expect(rootSiteSpaces(w).map((r) => [r.space, r.hidden, r.default])).toEqual([
      [w.spaces.changelog.id, false, false],
      [w.spaces.guide.id, true, true],
    ])
  })
})
