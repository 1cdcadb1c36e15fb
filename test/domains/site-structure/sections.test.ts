import { describe, expect, it } from 'vitest'
import { call, createWorld, type Called, addEditor, expectError, siteSnapshot, expectSiteAccessMatrix } from '../../helpers.js'

/**
 * Sections and section groups of a site, and `sortSiteStructure`, through `api.fetch`. Reading
 * needs a role in the organization (rita reads); changing needs `edit` (eddie, an editor, and
 * ada, an admin); guests and outsiders see nothing (404), deletes answer them 204 without effect.
 */

async function setup() {
  const w = await createWorld()
  const editor = await addEditor(w)
  const guide = await w.api.fixtures.createSpace(w.org.id, { title: 'Guide' })
  const reference = await w.api.fixtures.createSpace(w.org.id, { title: 'API Reference' })
  const changelog = await w.api.fixtures.createSpace(w.org.id, { title: 'Changelog' })
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
  const base = `/v1/orgs/${w.org.id}/sites/${site.id}`
  /** Add a section through the API (as ada) and return it. */
  const section = async (spaceId: string | null, body: Record<string, unknown> = {}) => {
    const res = await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId, ...body })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body
  }
  /** Add a section group through the API (as ada) and return it. */
  const group = async (body: Record<string, unknown>) => {
    const res = await call(w.api, w.tokens.ada, 'POST', `${base}/section-groups`, body)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body
  }
  return { ...w, editor, spaces: { guide, reference, changelog }, site, base, section, group }
}

type Setup = Awaited<ReturnType<typeof setup>>

const snapshot = siteSnapshot

const sectionRow = (w: Setup, id: string) => w.api.store.read((tx) => tx.get('siteSections', id))
const groupRow = (w: Setup, id: string) => w.api.store.read((tx) => tx.get('siteSectionGroups', id))
const ids = (res: Called) => res.body.items.map((i: { id: string }) => i.id)
const sectionIds = async (w: Setup) => ids(await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections`))
const childIds = (g: { children: Array<{ id: string }> }) => g.children.map((c) => c.id)
/** The ids of the sections and groups at the site's root, in order (from the published profile, as a member sees it). */
const rootIds = async (w: Setup) => {
  const res = await call(w.api, w.tokens.ada, 'GET', `${w.base}/published`)
  expect(res.body.structure.type).toBe('sections')
  return res.body.structure.structure.map((n: { id: string }) => n.id)
}

describe('site sections', () => {
  describe('POST .../sections (addSectionToSite)', () => {
    it('adds sections at the end of the root: the first is the default, titles and paths come from the space', async () => {
      const w = await setup()
      const res = await call(w.api, w.editor, 'POST', `${w.base}/sections`, { spaceId: w.spaces.guide.id })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({
        object: 'site-section',
        title: 'Guide',
        path: 'guide',
        default: true,
        draft: false,
        urls: {},
        siteSpaces: [{ object: 'site-space', section: res.body.id, path: 'guide', default: true, hidden: false, space: { id: w.spaces.guide.id } }],
      })
      for (const key of ['description', 'condition', 'icon', 'sectionGroup']) expect(res.body).not.toHaveProperty(key)
      const second = await call(w.api, w.editor, 'POST', `${w.base}/sections`, { spaceId: w.spaces.reference.id, title: 'Reference', icon: 'book' })
      expect(second.status).toBe(201)
      expect(second.body).toMatchObject({ title: 'Reference', path: 'reference', icon: 'book', default: false })
      expect(second.body.siteSpaces).toHaveLength(1)
      expect(second.body.siteSpaces[0]).toMatchObject({ path: 'api-reference', default: true, section: second.body.id })
      // A null title falls back on the space's title.
      const third = await call(w.api, w.editor, 'POST', `${w.base}/sections`, { spaceId: w.spaces.changelog.id, title: null })
      expect(third.body).toMatchObject({ title: 'Changelog', path: 'changelog', default: false })
      expect(await sectionIds(w)).toEqual([res.body.id, second.body.id, third.body.id])
      expect(sectionRow(w, second.body.id)).toMatchObject({ site: w.site.id, organization: w.org.id, icon: 'book', default: false })
      expect((await call(w.api, w.tokens.rita, 'GET', w.base)).body.siteSpaces).toBe(3)
    })

    it('titles a section after a one-letter space "Untitled section", and a 128-character title gives a path of 90', async () => {
      const w = await setup()
      const x = await w.api.fixtures.createSpace(w.org.id, { title: 'X' })
      expect(await w.section(x.id)).toMatchObject({ title: 'Untitled section', path: 'untitled-section' })
      const long = await w.section(w.spaces.guide.id, { title: `${'Ab'.repeat(64)}` })
      expect(long.title).toHaveLength(128)
      expect(long.path).toBe('ab'.repeat(45))
    })

    it('creates the section in a group with siteSectionGroupId, at its end', async () => {
      const w = await setup()
      const first = await w.section(w.spaces.guide.id)
      const g = await w.group({ title: 'Products' })
      const inGroup = await w.section(w.spaces.reference.id, { siteSectionGroupId: g.id })
      expect(inGroup).toMatchObject({ sectionGroup: g.id, default: false })
      const again = await w.section(w.spaces.changelog.id, { siteSectionGroupId: g.id })
      const groups = await call(w.api, w.tokens.rita, 'GET', `${w.base}/section-groups`)
      expect(childIds(groups.body.items[0])).toEqual([inGroup.id, again.id])
      expect(await rootIds(w)).toEqual([first.id, g.id])
    })

    it('creates a new space with spaceId null (needs the create role in the organization)', async () => {
      const w = await setup()
      const res = await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections`, { spaceId: null, title: 'Tutorials' })
      expect(res.status).toBe(201)
      const created = res.body.siteSpaces[0].space
      expect(created).toMatchObject({ title: 'Tutorials', organization: w.org.id })
      expect(w.api.store.read((tx) => tx.get('spaces', created.id))).toMatchObject({ title: 'Tutorials' })
      // A section title may be 128 characters; the new space takes its first 50 (a space title's limit).
      const long = await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections`, { spaceId: null, title: 'T'.repeat(60) })
      expect(long.status).toBe(201)
      expect(long.body.title).toBe('T'.repeat(60))
      expect(w.api.store.read((tx) => tx.get('spaces', long.body.siteSpaces[0].space.id))!.title).toBe('T'.repeat(50))
      // An editor may add an existing space, not create one at the organization's root.
      const before = snapshot(w)
      const denied = await call(w.api, w.editor, 'POST', `${w.base}/sections`, { spaceId: null, title: 'More' })
      expectError(denied, 403, 'You need the create role on this organization')
      expect(snapshot(w)).toEqual(before)
    })

    it.each([
      [{}, 'body field `spaceId`: is required'],
      [{ spaceId: '' }, 'body field `spaceId`: must not be empty'],
      [{ spaceId: 'GUIDE', title: 'x' }, 'body field `title`: must be at least 2 characters'],
      [{ spaceId: 'GUIDE', title: 'x'.repeat(129) }, 'body field `title`: must be at most 128 characters'],
      [{ spaceId: 'GUIDE', icon: 'x'.repeat(51) }, 'body field `icon`: must be at most 50 characters'],
      [{ spaceId: 'nope' }, 'body field `spaceId`: no space nope in this organization'],
      [{ spaceId: 'GUIDE', siteSectionGroupId: 'nope' }, 'body field `siteSectionGroupId`: no section group nope in this site'],
      [{ spaceId: 'GUIDE', siteSectionGroupId: '' }, 'body field `siteSectionGroupId`: must not be empty'],
      [undefined, 'body is required'],
    ])('rejects with a 400 ($1), changing nothing', async (body, message) => {
      const w = await setup()
      await w.section(w.spaces.changelog.id)
      const before = snapshot(w)
      const json = body && JSON.parse(JSON.stringify(body).replace('GUIDE', w.spaces.guide.id))
      expectError(await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections`, json), 400, message)
      expect(snapshot(w)).toEqual(before)
    })

    it('refuses a space of another organization, a trashed space, and a group of another site', async () => {
      const w = await setup()
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      const foreign = await w.api.fixtures.createSpace(beta.id, { title: 'Foreign' })
      const trashed = await w.api.fixtures.createSpace(w.org.id, { title: 'Trashed' })
      await w.api.fixtures.deleteSpace(trashed.id)
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
      const otherGroup = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/sites/${other.id}/section-groups`, { title: 'Elsewhere' })
      const before = snapshot(w)
      expectError(
        await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections`, { spaceId: foreign.id }),
        400,
        `body field \`spaceId\`: no space ${foreign.id} in this organization`,
      )
      expectError(
        await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections`, { spaceId: trashed.id }),
        400,
        `body field \`spaceId\`: no space ${trashed.id} in this organization`,
      )
      expectError(
        await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections`, { spaceId: w.spaces.guide.id, siteSectionGroupId: otherGroup.body.id }),
        400,
        `body field \`siteSectionGroupId\`: no section group ${otherGroup.body.id} in this site`,
      )
      expect(snapshot(w)).toEqual(before)
    })

    it('answers 404 for a site that does not exist or belongs to another organization', async () => {
      const w = await setup()
      expectError(await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/sites/nope/sections`, { spaceId: w.spaces.guide.id }), 404, 'Site not found')
      const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
      expectError(
        await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${beta.id}/sites/${w.site.id}/sections`, { spaceId: w.spaces.guide.id }),
        404,
        'Site not found',
      )
    })
  })

  describe('GET .../sections (listSiteSections)', () => {
    it('lists sections in structure order, depth first through groups, in pages', async () => {
      const w = await setup()
      const s1 = await w.section(w.spaces.guide.id)
      const g1 = await w.group({ title: 'Products' })
      const s2 = await w.section(w.spaces.reference.id, { siteSectionGroupId: g1.id })
      const s3 = await w.section(w.spaces.changelog.id)
      const g2 = await w.group({ title: 'Nested', parent: g1.id })
      const s4 = await w.section(w.spaces.guide.id, { siteSectionGroupId: g2.id, title: 'Guide again' })
      const all = await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections`)
      expect(all.status).toBe(200)
      expect(ids(all)).toEqual([s1.id, s2.id, s4.id, s3.id])
      expect(all.body.count).toBe(4)
      expect(all.body.next).toBeUndefined()
      expect(all.body.items[2]).toMatchObject({ sectionGroup: g2.id, title: 'Guide again', path: 'guide-again' })
      const page1 = await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections?limit=3`)
      expect(ids(page1)).toEqual([s1.id, s2.id, s4.id])
      expect(page1.body.count).toBe(4)
      const page2 = await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections?limit=3&page=${page1.body.next.page}`)
      expect(ids(page2)).toEqual([s3.id])
      expect(page2.body.next).toBeUndefined()
    })

    it('answers an empty list for a site without sections, 400 on a bad limit or cursor', async () => {
      const w = await setup()
      expect((await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections`)).body).toEqual({ items: [], count: 0 })
      expectError(await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections?limit=1001`), 400, 'query parameter `limit`: must be at most 1000')
      expectError(await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections?page=%25%25`), 400, '`page`')
      expectError(await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/sites/nope/sections`), 404, 'Site not found')
    })
  })

  describe('PATCH .../sections/{siteSectionId} (updateSiteSectionById)', () => {
    it('updates title, path, condition, icon, description and the default site-space', async () => {
      const w = await setup()
      const s = await w.section(w.spaces.guide.id)
      const added = await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces`, { spaceId: w.spaces.reference.id, sectionId: s.id })
      const res = await call(w.api, w.editor, 'PATCH', `${w.base}/sections/${s.id}`, {
        title: 'Handbook',
        path: 'handbook',
        condition: 'visitor.claims.plan == "pro"',
        icon: 'book-open',
        description: 'Everything about it',
        defaultSiteSpace: added.body.id,
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({
        id: s.id,
        title: 'Handbook',
        path: 'handbook',
        condition: 'visitor.claims.plan == "pro"',
        icon: 'book-open',
        description: 'Everything about it',
        default: true,
      })
      expect(res.body.siteSpaces.map((x: any) => [x.id, x.default])).toEqual([
        [s.siteSpaces[0].id, false],
        [added.body.id, true],
      ])
      // Omitted keeps; null removes.
      const kept = await call(w.api, w.editor, 'PATCH', `${w.base}/sections/${s.id}`, { title: 'Handbook 2' })
      expect(kept.body).toMatchObject({
        title: 'Handbook 2',
        path: 'handbook',
        condition: 'visitor.claims.plan == "pro"',
        icon: 'book-open',
        description: 'Everything about it',
      })
      const cleared = await call(w.api, w.editor, 'PATCH', `${w.base}/sections/${s.id}`, { condition: null, icon: null, description: null })
      expect(cleared.status).toBe(200)
      for (const key of ['condition', 'icon', 'description']) expect(cleared.body).not.toHaveProperty(key)
      expect(sectionRow(w, s.id)).not.toHaveProperty('condition')
      // A title change does not move the path.
      expect(sectionRow(w, s.id)).toMatchObject({ title: 'Handbook 2', path: 'handbook' })
    })

    it('accepts values at the limits: title 2 and 128, path 100, description 256, icon 50, condition 1024', async () => {
      const w = await setup()
      const s = await w.section(w.spaces.guide.id)
      const limits = { title: 'Ab', path: 'p'.repeat(100), description: 'd'.repeat(256), icon: 'i'.repeat(50), condition: 'c'.repeat(1024) }
      const res = await call(w.api, w.editor, 'PATCH', `${w.base}/sections/${s.id}`, limits)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject(limits)
      expect((await call(w.api, w.editor, 'PATCH', `${w.base}/sections/${s.id}`, { title: 't'.repeat(128) })).body.title).toHaveLength(128)
    })

    it('moves the section into a group (at its end) and back to the root (at its end) with siteSectionGroupId', async () => {
      const w = await setup()
      const a = await w.section(w.spaces.guide.id)
      const b = await w.section(w.spaces.reference.id)
      const g = await w.group({ title: 'Group' })
      const c = await w.section(w.spaces.changelog.id)
      const into = await call(w.api, w.editor, 'PATCH', `${w.base}/sections/${a.id}`, { siteSectionGroupId: g.id })
      expect(into.body.sectionGroup).toBe(g.id)
      expect(await rootIds(w)).toEqual([b.id, g.id, c.id])
      const out = await call(w.api, w.editor, 'PATCH', `${w.base}/sections/${a.id}`, { siteSectionGroupId: null })
      expect(out.body).not.toHaveProperty('sectionGroup')
      expect(await rootIds(w)).toEqual([b.id, g.id, c.id, a.id])
      expect(sectionRow(w, a.id)!.sectionGroup).toBeUndefined()
    })

    it.each([
      [{ title: 'x' }, 400, 'body field `title`: must be at least 2 characters'],
      [{ title: 'x'.repeat(129) }, 400, 'body field `title`: must be at most 128 characters'],
      [{ path: '' }, 400, 'body field `path`: must not be empty'],
      [{ path: 'x'.repeat(101) }, 400, 'body field `path`: must be at most 100 characters'],
      [{ description: 'x'.repeat(257) }, 400, 'body field `description`: must be at most 256 characters'],
      [{ condition: 'x'.repeat(1025) }, 400, 'body field `condition`: must be at most 1024 characters'],
      // A condition must parse (docs/behaviour/share-links-and-adaptive-content.md): the parser's message says where it stops.
      [{ condition: 't}=d' }, 400, 'body field `condition`: must be a valid expression: Unexpected "}" at character 1'],
      [{ condition: 'visitor.claims.__proto__.admin' }, 400, 'body field `condition`: must be a valid expression: the property `__proto__` cannot be read'],
      [{ title: 'Renamed', condition: 'visitor.claims.plan ==' }, 400, 'body field `condition`: must be a valid expression: Expected expression after =='],
      [{ icon: 'x'.repeat(51) }, 400, 'body field `icon`: must be at most 50 characters'],
      [{ defaultSiteSpace: 'nope' }, 400, 'body field `defaultSiteSpace`: no site-space nope in this site'],
      [{ defaultSiteSpace: 'OTHER_SITE_SPACE' }, 400, 'body field `defaultSiteSpace`: site-space OTHER_SITE_SPACE is not in this section'],
      [{ siteSectionGroupId: 'nope' }, 400, 'body field `siteSectionGroupId`: no section group nope in this site'],
      [{ path: 'reference' }, 409, 'The path `reference` is already used by another section of this site'],
      // The default changes only when the whole request succeeds.
      [{ defaultSiteSpace: 'SECOND_SITE_SPACE', path: 'reference' }, 409, 'The path `reference` is already used'],
      [undefined, 400, 'body is required'],
    ])('answers $1 ($2), changing nothing', async (body, status, message) => {
      const w = await setup()
      const s = await w.section(w.spaces.guide.id)
      const other = await w.section(w.spaces.reference.id, { title: 'Reference' })
      const second = await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces`, { spaceId: w.spaces.changelog.id, sectionId: s.id })
      const json =
        body && JSON.parse(JSON.stringify(body).replaceAll('OTHER_SITE_SPACE', other.siteSpaces[0].id).replaceAll('SECOND_SITE_SPACE', second.body.id))
      const before = snapshot(w)
      const res = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/sections/${s.id}`, json)
      expectError(res, status, message.replaceAll('OTHER_SITE_SPACE', other.siteSpaces[0].id))
      expect(snapshot(w)).toEqual(before)
    })

    it('answers 404 for a section not in the site, and 204 with Prefer: return=minimal', async () => {
      const w = await setup()
      const s = await w.section(w.spaces.guide.id)
      const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other' })
      const foreign = await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/sites/${other.id}/sections`, { spaceId: w.spaces.guide.id })
      expectError(await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/sections/nope`, { title: 'Nope' }), 404, 'Site section not found')
      expectError(await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/sections/${foreign.body.id}`, { title: 'Nope' }), 404, 'Site section not found')
      const minimal = await call(w.api, w.editor, 'PATCH', `${w.base}/sections/${s.id}`, { title: 'Quiet' }, { prefer: 'return=minimal' })
      expect(minimal.status).toBe(204)
      expect(minimal.body).toBeUndefined()
      expect(sectionRow(w, s.id)!.title).toBe('Quiet')
    })
  })

  describe('DELETE .../sections/{siteSectionId} (deleteSiteSectionById)', () => {
    it('deletes the section with its site-spaces, answers 204 again when it is gone', async () => {
      const w = await setup()
      const a = await w.section(w.spaces.guide.id)
      const b = await w.section(w.spaces.reference.id)
      await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces`, { spaceId: w.spaces.changelog.id, sectionId: b.id })
      const res = await call(w.api, w.editor, 'DELETE', `${w.base}/sections/${b.id}`)
      expect(res.status).toBe(204)
      expect(res.body).toBeUndefined()
      expect(sectionRow(w, b.id)).toBeUndefined()
      expect(w.api.store.read((tx) => tx.all('siteSpaces').map((r) => r.section))).toEqual([a.id])
      expect(await sectionIds(w)).toEqual([a.id])
      expect(sectionRow(w, a.id)!.default).toBe(true)
      expect((await call(w.api, w.editor, 'DELETE', `${w.base}/sections/${b.id}`)).status).toBe(204)
      // The site is the section's parent: missing, it is a 404 (only the section itself answers 204 when gone).
      expect((await call(w.api, w.editor, 'DELETE', `/v1/orgs/${w.org.id}/sites/nope/sections/${a.id}`)).status).toBe(404)
      expect(sectionRow(w, a.id)).toBeDefined()
      // The spaces themselves are untouched.
      expect(w.api.store.read((tx) => tx.get('spaces', w.spaces.changelog.id))!.deletedAt).toBeUndefined()
    })

    it('deleting the last section leaves a site without sections: its structure is its (empty) root', async () => {
      const w = await setup()
      const a = await w.section(w.spaces.guide.id)
      expect((await call(w.api, w.editor, 'DELETE', `${w.base}/sections/${a.id}`)).status).toBe(204)
      const profile = await call(w.api, w.tokens.ada, 'GET', `${w.base}/published`)
      expect(profile.body.structure).toEqual({ type: 'siteSpaces', structure: [] })
      expect((await call(w.api, w.tokens.ada, 'GET', w.base)).body.siteSpaces).toBe(0)
    })
  })

  describe('POST .../sections/{siteSectionId}/move (moveSiteSection)', () => {
    it('moves before or after a sibling, or to the end of its container', async () => {
      const w = await setup()
      const a = await w.section(w.spaces.guide.id)
      const b = await w.section(w.spaces.reference.id)
      const c = await w.section(w.spaces.changelog.id)
      const res = await call(w.api, w.editor, 'POST', `${w.base}/sections/${c.id}/move`, { position: { before: { type: 'site-section', siteSection: a.id } } })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ object: 'site-section', id: c.id })
      expect(await sectionIds(w)).toEqual([c.id, a.id, b.id])
      await call(w.api, w.editor, 'POST', `${w.base}/sections/${a.id}/move`, { position: { after: { type: 'site-section', siteSection: b.id } } })
      expect(await sectionIds(w)).toEqual([c.id, b.id, a.id])
      // Without a position, or without a body: to the end.
      expect((await call(w.api, w.editor, 'POST', `${w.base}/sections/${c.id}/move`, {})).status).toBe(200)
      expect(await sectionIds(w)).toEqual([b.id, a.id, c.id])
      expect((await call(w.api, w.editor, 'POST', `${w.base}/sections/${b.id}/move`)).status).toBe(200)
      expect(await sectionIds(w)).toEqual([a.id, c.id, b.id])
      // Moving does not change which section is the default.
      expect(sectionRow(w, a.id)!.default).toBe(true)
    })

    it('moves among the sections and groups of a group', async () => {
      const w = await setup()
      const g = await w.group({ title: 'Group' })
      const a = await w.section(w.spaces.guide.id, { siteSectionGroupId: g.id })
      const b = await w.section(w.spaces.reference.id, { siteSectionGroupId: g.id })
      const res = await call(w.api, w.editor, 'POST', `${w.base}/sections/${b.id}/move`, { position: { before: { type: 'site-section', siteSection: a.id } } })
      expect(res.status).toBe(200)
      expect(childIds((await call(w.api, w.tokens.rita, 'GET', `${w.base}/section-groups`)).body.items[0])).toEqual([b.id, a.id])
    })

    it.each([
      [
        'A',
        { position: { before: { type: 'site-section', siteSection: 'A' } } },
        400,
        'body field `position.before.siteSection`: cannot place the site-section relative to itself',
      ],
      [
        'A',
        { position: { after: { type: 'site-section', siteSection: 'nope' } } },
        400,
        'body field `position.after.siteSection`: site-section nope is not in the same container',
      ],
      ['A', { position: { after: { type: 'site-section', siteSection: 'IN_GROUP' } } }, 400, 'site-section IN_GROUP is not in the same container'],
      ['IN_GROUP', { position: { before: { type: 'site-section', siteSection: 'A' } } }, 400, 'site-section A is not in the same container'],
      [
        'A',
        { position: { after: { type: 'site-section', siteSection: 'G' } } },
        400,
        'body field `position.after.siteSection`: site-section G is not in the same container',
      ],
      [
        'A',
        { position: { before: { type: 'site-section', siteSection: 'B' }, after: { type: 'site-section', siteSection: 'B' } } },
        400,
        'body field `position`: give either `before` or `after`, not both',
      ],
      ['A', { position: { before: { type: 'site-space', siteSection: 'B' } } }, 400, 'body field `position.before.type`'],
      ['A', { position: { before: { type: 'site-section', siteSection: '' } } }, 400, 'body field `position.before.siteSection`: must not be empty'],
      ['A', { position: { before: { type: 'site-section', siteSection: 'B' } } }, 409, 'The move would not change anything: the site-section is already there'],
      // Alone in its group: the end of its container is where it is.
      ['IN_GROUP', {}, 409, 'The move would not change anything'],
      ['nope', {}, 404, 'Site section not found'],
    ])('moving %s answers $2 ($3), changing nothing', async (who, body, status, message) => {
      const w = await setup()
      const a = await w.section(w.spaces.guide.id)
      const b = await w.section(w.spaces.reference.id)
      const g = await w.group({ title: 'Group' })
      const inGroup = await w.section(w.spaces.changelog.id, { siteSectionGroupId: g.id })
      const swap = (s: string) => s.replaceAll('IN_GROUP', inGroup.id).replace(/\bA\b/g, a.id).replace(/\bB\b/g, b.id).replace(/\bG\b/g, g.id)
      const before = snapshot(w)
      const res = await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections/${swap(who)}/move`, JSON.parse(swap(JSON.stringify(body))))
      expectError(res, status, swap(message))
      expect(snapshot(w)).toEqual(before)
    })
  })
})

describe('site section groups', () => {
  describe('POST .../section-groups (addSectionGroupToSite)', () => {
    it('adds a group at the end of the root, moving the given sections into it in the given order', async () => {
      const w = await setup()
      const a = await w.section(w.spaces.guide.id)
      const b = await w.section(w.spaces.reference.id)
      const c = await w.section(w.spaces.changelog.id)
      const res = await call(w.api, w.editor, 'POST', `${w.base}/section-groups`, { title: 'Products', icon: 'box', sections: [c.id, a.id, c.id] })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({ object: 'site-section-group', title: 'Products', icon: 'box', draft: false })
      expect(res.body).not.toHaveProperty('sectionGroup')
      expect(childIds(res.body)).toEqual([c.id, a.id])
      expect(res.body.sections.map((s: any) => s.id)).toEqual([c.id, a.id])
      expect(res.body.children[0]).toMatchObject({ object: 'site-section', sectionGroup: res.body.id })
      expect(await rootIds(w)).toEqual([b.id, res.body.id])
      // The default section stays the default, wherever it is.
      expect(sectionRow(w, a.id)).toMatchObject({ default: true, sectionGroup: res.body.id })
      const nested = await call(w.api, w.editor, 'POST', `${w.base}/section-groups`, { title: 'N', parent: res.body.id, sections: [b.id] })
      expect(nested.status).toBe(201)
      expect(nested.body).toMatchObject({ sectionGroup: res.body.id, title: 'N' })
      expect(childIds(nested.body)).toEqual([b.id])
      const listed = await call(w.api, w.tokens.rita, 'GET', `${w.base}/section-groups`)
      expect(ids(listed)).toEqual([res.body.id, nested.body.id])
      expect(childIds(listed.body.items[0])).toEqual([c.id, a.id, nested.body.id])
      // `sections` (deprecated) holds only the sections among the children.
      expect(listed.body.items[0].sections.map((s: any) => s.id)).toEqual([c.id, a.id])
      expect(listed.body.items[0].children[2].children.map((s: any) => s.id)).toEqual([b.id])
    })

    it.each([
      [{}, 'body field `title`: is required'],
      [{ title: '' }, 'body field `title`: must not be empty'],
      [{ title: 'x'.repeat(101) }, 'body field `title`: must be at most 100 characters'],
      [{ title: 'G', icon: 'x'.repeat(51) }, 'body field `icon`: must be at most 50 characters'],
      [{ title: 'G', sections: ['SECTION', 'nope'] }, 'body field `sections[1]`: no section nope in this site'],
      [{ title: 'G', sections: [''] }, 'body field `sections[0]`: must not be empty'],
      [{ title: 'G', parent: 'nope' }, 'body field `parent`: no section group nope in this site'],
      [{ title: 'G', parent: '' }, 'body field `parent`: must not be empty'],
      [undefined, 'body is required'],
    ])('rejects with a 400 ($1), changing nothing', async (body, message) => {
      const w = await setup()
      const s = await w.section(w.spaces.guide.id)
      const before = snapshot(w)
      const json = body && JSON.parse(JSON.stringify(body).replace('SECTION', s.id))
      expectError(await call(w.api, w.tokens.ada, 'POST', `${w.base}/section-groups`, json), 400, message)
      expect(snapshot(w)).toEqual(before)
    })

    it('accepts a one-character title and a 100-character one', async () => {
      const w = await setup()
      expect((await w.group({ title: 'G' })).title).toBe('G')
      expect((await w.group({ title: 'x'.repeat(100) })).title).toHaveLength(100)
    })
  })

  describe('GET .../section-groups (listSiteSectionGroups)', () => {
    it('lists groups in structure order (nested ones after their parent), in pages', async () => {
      const w = await setup()
      const g1 = await w.group({ title: 'One' })
      const g2 = await w.group({ title: 'Two' })
      const g11 = await w.group({ title: 'One.One', parent: g1.id })
      const g111 = await w.group({ title: 'One.One.One', parent: g11.id })
      const all = await call(w.api, w.tokens.rita, 'GET', `${w.base}/section-groups`)
      expect(all.status).toBe(200)
      expect(ids(all)).toEqual([g1.id, g11.id, g111.id, g2.id])
      expect(all.body.count).toBe(4)
      expect(all.body.items[0].children.map((c: any) => c.id)).toEqual([g11.id])
      expect(all.body.items[0].children[0].children.map((c: any) => c.id)).toEqual([g111.id])
      const page1 = await call(w.api, w.tokens.rita, 'GET', `${w.base}/section-groups?limit=2`)
      expect(ids(page1)).toEqual([g1.id, g11.id])
      const page2 = await call(w.api, w.tokens.rita, 'GET', `${w.base}/section-groups?limit=2&page=${page1.body.next.page}`)
      expect(ids(page2)).toEqual([g111.id, g2.id])
      expect(page2.body.next).toBeUndefined()
      // One by one: a cursor on the deepest group (its key is the path of positions from the root) still leads to g2.
      const seen: string[] = []
      let page: string | undefined
      do {
        const res = await call(w.api, w.tokens.rita, 'GET', `${w.base}/section-groups?limit=1${page ? `&page=${page}` : ''}`)
        seen.push(...ids(res))
        page = res.body.next?.page
      } while (page)
      expect(seen).toEqual([g1.id, g11.id, g111.id, g2.id])
      expect((await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/sites/nope/section-groups`)).status).toBe(404)
    })
  })

  describe('PATCH .../section-groups/{siteSectionGroupId} (updateSiteSectionGroupById)', () => {
    it('updates title and icon (null removes it), and moves the group with parentSectionGroupId', async () => {
      const w = await setup()
      const a = await w.section(w.spaces.guide.id)
      const g1 = await w.group({ title: 'One', icon: 'box' })
      const g2 = await w.group({ title: 'Two' })
      const b = await w.section(w.spaces.reference.id)
      const res = await call(w.api, w.editor, 'PATCH', `${w.base}/section-groups/${g1.id}`, { title: 'First', icon: 'star' })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ id: g1.id, title: 'First', icon: 'star' })
      const noIcon = await call(w.api, w.editor, 'PATCH', `${w.base}/section-groups/${g1.id}`, { icon: null })
      expect(noIcon.body).not.toHaveProperty('icon')
      expect(noIcon.body.title).toBe('First')
      expect(groupRow(w, g1.id)).not.toHaveProperty('icon')
      const nested = await call(w.api, w.editor, 'PATCH', `${w.base}/section-groups/${g1.id}`, { parentSectionGroupId: g2.id })
      expect(nested.body.sectionGroup).toBe(g2.id)
      expect(await rootIds(w)).toEqual([a.id, g2.id, b.id])
      const back = await call(w.api, w.editor, 'PATCH', `${w.base}/section-groups/${g1.id}`, { parentSectionGroupId: null })
      expect(back.body).not.toHaveProperty('sectionGroup')
      expect(await rootIds(w)).toEqual([a.id, g2.id, b.id, g1.id])
    })

    it.each([
      [{ title: '' }, 400, 'body field `title`: must not be empty'],
      [{ title: 'x'.repeat(101) }, 400, 'body field `title`: must be at most 100 characters'],
      [{ icon: 'x'.repeat(51) }, 400, 'body field `icon`: must be at most 50 characters'],
      [{ parentSectionGroupId: 'nope' }, 400, 'body field `parentSectionGroupId`: no section group nope in this site'],
      [{ parentSectionGroupId: 'SELF' }, 400, 'body field `parentSectionGroupId`: cannot move a group into itself or one of its descendants'],
      [{ parentSectionGroupId: 'GRANDCHILD' }, 400, 'cannot move a group into itself or one of its descendants'],
      [{ title: 'Renamed', parentSectionGroupId: 'CHILD' }, 400, 'cannot move a group into itself or one of its descendants'],
      [undefined, 400, 'body is required'],
    ])('answers $1 ($2), changing nothing', async (body, status, message) => {
      const w = await setup()
      const top = await w.group({ title: 'Top' })
      const child = await w.group({ title: 'Child', parent: top.id })
      const grandchild = await w.group({ title: 'Grandchild', parent: child.id })
      const json = body && JSON.parse(JSON.stringify(body).replace('SELF', top.id).replace('GRANDCHILD', grandchild.id).replace('CHILD', child.id))
      const before = snapshot(w)
      expectError(await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/section-groups/${top.id}`, json), status, message)
      expect(snapshot(w)).toEqual(before)
    })

    it('answers 404 for a group not in the site, and 204 with Prefer: return=minimal', async () => {
      const w = await setup()
      const g = await w.group({ title: 'Group' })
      expectError(await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/section-groups/nope`, { title: 'X' }), 404, 'Site section group not found')
      const minimal = await call(w.api, w.editor, 'PATCH', `${w.base}/section-groups/${g.id}`, { title: 'Quiet' }, { prefer: 'return=minimal' })
      expect(minimal.status).toBe(204)
      expect(minimal.body).toBeUndefined()
      expect(groupRow(w, g.id)!.title).toBe('Quiet')
    })
  })

  describe('DELETE .../section-groups/{siteSectionGroupId} (deleteSiteSectionGroupById)', () => {
    it('deletes the group only: what it holds takes its place, in order', async () => {
      const w = await setup()
      const a = await w.section(w.spaces.guide.id)
      const g = await w.group({ title: 'Group' })
      const b = await w.section(w.spaces.reference.id, { siteSectionGroupId: g.id })
      const inner = await w.group({ title: 'Inner', parent: g.id })
      const c = await w.section(w.spaces.changelog.id)
      const res = await call(w.api, w.editor, 'DELETE', `${w.base}/section-groups/${g.id}`)
      expect(res.status).toBe(204)
      expect(groupRow(w, g.id)).toBeUndefined()
      expect(await rootIds(w)).toEqual([a.id, b.id, inner.id, c.id])
      expect(sectionRow(w, b.id)!.sectionGroup).toBeUndefined()
      expect(groupRow(w, inner.id)!.sectionGroup).toBeUndefined()
      expect(await sectionIds(w)).toEqual([a.id, b.id, c.id])
      expect((await call(w.api, w.editor, 'DELETE', `${w.base}/section-groups/${g.id}`)).status).toBe(204)
    })

    it('hands the children of a nested group to its parent group, where the group was', async () => {
      const w = await setup()
      const top = await w.group({ title: 'Top' })
      const a = await w.section(w.spaces.guide.id, { siteSectionGroupId: top.id })
      const middle = await w.group({ title: 'Middle', parent: top.id })
      const b = await w.section(w.spaces.reference.id, { siteSectionGroupId: middle.id })
      const c = await w.section(w.spaces.changelog.id, { siteSectionGroupId: top.id })
      expect((await call(w.api, w.editor, 'DELETE', `${w.base}/section-groups/${middle.id}`)).status).toBe(204)
      const listed = await call(w.api, w.tokens.rita, 'GET', `${w.base}/section-groups`)
      expect(ids(listed)).toEqual([top.id])
      expect(childIds(listed.body.items[0])).toEqual([a.id, b.id, c.id])
      expect(sectionRow(w, b.id)!.sectionGroup).toBe(top.id)
    })
  })

  describe('POST .../section-groups/{siteSectionGroupId}/sections (addSectionToSectionGroup)', () => {
    it('moves a section from the root or another group to the end of the group', async () => {
      const w = await setup()
      const a = await w.section(w.spaces.guide.id)
      const g = await w.group({ title: 'Group' })
      const h = await w.group({ title: 'Other' })
      const b = await w.section(w.spaces.reference.id, { siteSectionGroupId: h.id })
      const res = await call(w.api, w.editor, 'POST', `${w.base}/section-groups/${g.id}/sections`, { sectionId: a.id })
      expect(res.status).toBe(201)
      expect(res.body).toMatchObject({ object: 'site-section-group', id: g.id })
      expect(childIds(res.body)).toEqual([a.id])
      const moved = await call(w.api, w.editor, 'POST', `${w.base}/section-groups/${g.id}/sections`, { sectionId: b.id })
      expect(childIds(moved.body)).toEqual([a.id, b.id])
      expect(sectionRow(w, b.id)!.sectionGroup).toBe(g.id)
      expect(childIds((await call(w.api, w.tokens.rita, 'GET', `${w.base}/section-groups`)).body.items[1])).toEqual([])
      expect(await rootIds(w)).toEqual([g.id, h.id])
    })

    it.each([
      [{ sectionId: 'IN_GROUP' }, 409, 'is already in this group'],
      [{ sectionId: 'nope' }, 400, 'body field `sectionId`: no section nope in this site'],
      [{ sectionId: '' }, 400, 'body field `sectionId`: must not be empty'],
      [{}, 400, 'body field `sectionId`: is required'],
      [undefined, 400, 'body is required'],
    ])('answers $1 ($2), changing nothing', async (body, status, message) => {
      const w = await setup()
      const g = await w.group({ title: 'Group' })
      const s = await w.section(w.spaces.guide.id, { siteSectionGroupId: g.id })
      const json = body && JSON.parse(JSON.stringify(body).replace('IN_GROUP', s.id))
      const before = snapshot(w)
      expectError(await call(w.api, w.tokens.ada, 'POST', `${w.base}/section-groups/${g.id}/sections`, json), status, message)
      expect(snapshot(w)).toEqual(before)
      expectError(await call(w.api, w.tokens.ada, 'POST', `${w.base}/section-groups/nope/sections`, { sectionId: s.id }), 404, 'Site section group not found')
    })
  })
})

describe('PATCH .../structure/sort (sortSiteStructure)', () => {
  it('moves a section or a group among the sections and groups of its container', async () => {
    const w = await setup()
    const a = await w.section(w.spaces.guide.id)
    const g = await w.group({ title: 'Group' })
    const b = await w.section(w.spaces.reference.id)
    const res = await call(w.api, w.editor, 'PATCH', `${w.base}/structure/sort`, {
      item: { type: 'site-section', id: b.id },
      position: { before: { type: 'site-section-group', id: g.id } },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ object: 'site-section', id: b.id })
    expect(await rootIds(w)).toEqual([a.id, b.id, g.id])
    const grp = await call(w.api, w.editor, 'PATCH', `${w.base}/structure/sort`, {
      item: { type: 'site-section-group', id: g.id },
      position: { before: { type: 'site-section', id: a.id } },
    })
    expect(grp.status).toBe(200)
    expect(grp.body).toMatchObject({ object: 'site-section-group', id: g.id })
    expect(await rootIds(w)).toEqual([g.id, a.id, b.id])
    // An empty position: to the end of the container.
    const end = await call(w.api, w.editor, 'PATCH', `${w.base}/structure/sort`, { item: { type: 'site-section', id: a.id }, position: {} })
    expect(end.status).toBe(200)
    expect(await rootIds(w)).toEqual([g.id, b.id, a.id])
  })

  it('moves a site-space among the site-spaces of its container', async () => {
    const w = await setup()
    const s = await w.section(w.spaces.guide.id)
    const second = await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces`, { spaceId: w.spaces.reference.id })
    const res = await call(w.api, w.editor, 'PATCH', `${w.base}/structure/sort`, {
      item: { type: 'site-space', id: second.body.id },
      position: { before: { type: 'site-space', id: s.siteSpaces[0].id } },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ object: 'site-space', id: second.body.id, section: s.id, default: false })
    expect(ids(await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces`))).toEqual([second.body.id, s.siteSpaces[0].id])
    const minimal = await call(
      w.api,
      w.editor,
      'PATCH',
      `${w.base}/structure/sort`,
      { item: { type: 'site-space', id: second.body.id }, position: {} },
      { prefer: 'return=minimal' },
    )
    expect(minimal.status).toBe(204)
    expect(minimal.body).toBeUndefined()
    expect(ids(await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces`))).toEqual([s.siteSpaces[0].id, second.body.id])
  })

  it.each([
    [{ item: { type: 'site-section', id: 'A' } }, 400, 'body field `position`: is required'],
    [{ position: {} }, 400, 'body field `item`: is required'],
    [{ item: { type: 'page', id: 'A' }, position: {} }, 400, 'body field `item.type`'],
    [{ item: { type: 'site-section', id: '' }, position: {} }, 400, 'body field `item.id`: must not be empty'],
    [
      { item: { type: 'site-section', id: 'A' }, position: { before: { type: 'site-section', id: 'B' }, after: { type: 'site-section', id: 'B' } } },
      400,
      'body field `position`: give either `before` or `after`, not both',
    ],
    [
      { item: { type: 'site-section', id: 'A' }, position: { before: { type: 'site-space', id: 'SS' } } },
      400,
      'body field `position.before.type`: a site-section moves among sections and groups, not next to a site-space',
    ],
    [
      { item: { type: 'site-space', id: 'SS' }, position: { after: { type: 'site-section', id: 'A' } } },
      400,
      'body field `position.after.type`: a site-space moves among site-spaces, not next to a site-section',
    ],
    [
      { item: { type: 'site-section', id: 'A' }, position: { after: { type: 'site-section', id: 'IN_GROUP' } } },
      400,
      'body field `position.after.id`: site-section IN_GROUP is not in the same container',
    ],
    [
      { item: { type: 'site-section', id: 'A' }, position: { after: { type: 'site-section', id: 'A' } } },
      400,
      'cannot place the site-section relative to itself',
    ],
    // The message names the sibling with its own kind; a pointer whose type is not the kind of its id is refused.
    [
      { item: { type: 'site-section-group', id: 'G' }, position: { after: { type: 'site-section', id: 'IN_GROUP' } } },
      400,
      'body field `position.after.id`: site-section IN_GROUP is not in the same container',
    ],
    [
      { item: { type: 'site-section', id: 'B' }, position: { before: { type: 'site-section-group', id: 'A' } } },
      400,
      'body field `position.before.id`: site-section-group A is not in the same container',
    ],
    [
      { item: { type: 'site-section', id: 'A' }, position: { after: { type: 'site-section-group', id: 'nope' } } },
      400,
      'site-section-group nope is not in the same container',
    ],
    [
      { item: { type: 'site-space', id: 'SS' }, position: { after: { type: 'site-space', id: 'OTHER_SS' } } },
      400,
      'body field `position.after.id`: site-space OTHER_SS is not in the same section',
    ],
    [{ item: { type: 'site-section', id: 'B' }, position: { before: { type: 'site-section-group', id: 'G' } } }, 409, 'The move would not change anything'],
    [{ item: { type: 'site-section-group', id: 'G' }, position: {} }, 409, 'The move would not change anything'],
    [{ item: { type: 'site-section', id: 'nope' }, position: {} }, 404, 'Site section not found'],
    [{ item: { type: 'site-section-group', id: 'nope' }, position: {} }, 404, 'Site section group not found'],
    [{ item: { type: 'site-space', id: 'nope' }, position: {} }, 404, 'Site space not found'],
    [{ item: { type: 'site-external-link', id: 'nope' }, position: {} }, 404, 'Site external link not found'],
  ])('answers $1 ($2), changing nothing', async (body, status, message) => {
    const w = await setup()
    const a = await w.section(w.spaces.guide.id)
    const b = await w.section(w.spaces.reference.id)
    const g = await w.group({ title: 'Group' })
    const inGroup = await w.section(w.spaces.changelog.id, { siteSectionGroupId: g.id })
    const swap = (s: string) =>
      s
        .replaceAll('IN_GROUP', inGroup.id)
        .replaceAll('OTHER_SS', b.siteSpaces[0].id)
        .replaceAll('SS', a.siteSpaces[0].id)
        .replaceAll('"A"', `"${a.id}"`)
        .replaceAll('"B"', `"${b.id}"`)
        .replaceAll('"G"', `"${g.id}"`)
    const before = snapshot(w)
    const res = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/structure/sort`, JSON.parse(swap(JSON.stringify(body))))
    expectError(res, status, message.replaceAll('IN_GROUP', inGroup.id).replaceAll('OTHER_SS', b.siteSpaces[0].id).replace(/\bA\b/, a.id))
    expect(snapshot(w)).toEqual(before)
  })
})

describe('permissions on sections and groups', () => {
  /** Each operation: method, path, body, success status (for the editor). */
  const operations = (w: Setup, s: { a: any; b: any; g: any }): Array<[string, string, string, unknown, number]> => [
    ['listSiteSections', 'GET', `${w.base}/sections`, undefined, 200],
    ['listSiteSectionGroups', 'GET', `${w.base}/section-groups`, undefined, 200],
    ['addSectionToSite', 'POST', `${w.base}/sections`, { spaceId: w.spaces.changelog.id }, 201],
    ['updateSiteSectionById', 'PATCH', `${w.base}/sections/${s.a.id}`, { title: 'Changed' }, 200],
    ['moveSiteSection', 'POST', `${w.base}/sections/${s.a.id}/move`, {}, 200],
    ['addSectionGroupToSite', 'POST', `${w.base}/section-groups`, { title: 'New' }, 201],
    ['updateSiteSectionGroupById', 'PATCH', `${w.base}/section-groups/${s.g.id}`, { title: 'Changed' }, 200],
    ['addSectionToSectionGroup', 'POST', `${w.base}/section-groups/${s.g.id}/sections`, { sectionId: s.b.id }, 201],
    [
      'sortSiteStructure',
      'PATCH',
      `${w.base}/structure/sort`,
      { item: { type: 'site-section-group', id: s.g.id }, position: { before: { type: 'site-section', id: s.a.id } } },
      200,
    ],
    ['deleteSiteSectionById', 'DELETE', `${w.base}/sections/${s.b.id}`, undefined, 204],
    ['deleteSiteSectionGroupById', 'DELETE', `${w.base}/section-groups/${s.g.id}`, undefined, 204],
  ]

  it('readers read (403 on changes), guests and outsiders get 404 whatever the method, no token 401; editors change', async () => {
    const w = await setup()
    const s = { a: await w.section(w.spaces.guide.id), b: await w.section(w.spaces.reference.id), g: await w.group({ title: 'Group' }) }
    await expectSiteAccessMatrix(w, w.editor, operations(w, s))
    // The editor's changes went through: b was deleted, g deleted (a took its place at the root), one section and one group added.
    expect(w.api.store.read((tx) => tx.all('siteSections').map((r) => r.title))).toEqual(['Changed', 'Changelog'])
    expect(w.api.store.read((tx) => tx.all('siteSectionGroups').map((r) => r.title))).toEqual(['New'])
  })

  it('Prefer: return=minimal leaves the body out only where the operation allows it', async () => {
    const w = await setup()
    const added = await call(w.api, w.editor, 'POST', `${w.base}/sections`, { spaceId: w.spaces.guide.id }, { prefer: 'return=minimal' })
    expect(added.status).toBe(201)
    expect(added.body.object).toBe('site-section')
    const other = await call(w.api, w.editor, 'POST', `${w.base}/sections`, { spaceId: w.spaces.reference.id })
    const moved = await call(w.api, w.editor, 'POST', `${w.base}/sections/${added.body.id}/move`, undefined, { prefer: 'return=minimal' })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ object: 'site-section', id: added.body.id })
    expect(await sectionIds(w)).toEqual([other.body.id, added.body.id])
    const g = await call(w.api, w.editor, 'POST', `${w.base}/section-groups`, { title: 'G' }, { prefer: 'return=minimal' })
    expect(g.status).toBe(201)
    expect(g.body.object).toBe('site-section-group')
  })
})
