import { describe, expect, it } from 'vitest'
import { call, createWorld, type Called, addEditor, expectError, siteToken } from '../../helpers.js'

/**
 * The rules of a site's structure, played out over several requests: adoption of the root
 * site-spaces by the first section, defaults and their promotion, paths, groups, ordering after
 * many moves, hidden site-spaces and conditions in the published profile.
 */

async function setup(spaceTitles: string[] = ['Guide', 'Reference', 'Changelog', 'Tutorials', 'FAQ']) {
  const w = await createWorld()
  const editor = await addEditor(w)
  const spaces: string[] = []
  for (const title of spaceTitles) spaces.push((await w.api.fixtures.createSpace(w.org.id, { title })).id)
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
  const base = `/v1/orgs/${w.org.id}/sites/${site.id}`
  /** A request as the editor that must succeed with `status`. */
  const ok = async (method: string, path: string, body?: unknown, status = method === 'POST' && !path.endsWith('/move') ? 201 : 200) => {
    const res = await call(w.api, editor, method, `${base}${path}`, body)
    expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(status)
    return res.body
  }
  return { ...w, editor, spaces, site, base, ok }
}

type Setup = Awaited<ReturnType<typeof setup>>

/** A visitor of the published site: the site token its URL resolves to. */
const visitorOf = (w: Setup) => siteToken(w.api, `https://docs.localhost/${w.org.id}/${w.site.id}`)

const rows = (w: Setup) =>
  w.api.store.read((tx) => ({
    sections: tx.scan('siteSections', 'bySite', w.site.id).map((e) => e.row),
    groups: tx.scan('siteSectionGroups', 'bySite', w.site.id).map((e) => e.row),
    siteSpaces: tx.scan('siteSpaces', 'bySite', w.site.id).map((e) => e.row),
  }))
const container = (w: Setup, section?: string) =>
  w.api.store.read((tx) => tx.scan('siteSpaces', 'byContainer', section ? `section:${section}` : `site:${w.site.id}`).map((e) => e.row))
const ids = (items: Array<{ id: string }>) => items.map((i) => i.id)
const listSiteSpaces = async (w: Setup, token = w.tokens.rita) => (await call(w.api, token, 'GET', `${w.base}/site-spaces?limit=1000`)).body.items
const defaultsOf = (items: Array<{ id: string; default: boolean }>) => items.filter((i) => i.default).map((i) => i.id)

/** The structure invariants: one default section when there are sections, one default per container holding site-spaces. */
function expectInvariants(w: Setup): void {
  const { sections, groups, siteSpaces } = rows(w)
  const sectionIds = new Set(sections.map((s) => s.id))
  const groupIds = new Set(groups.map((g) => g.id))
  if (sections.length > 0) {
    expect(sections.filter((s) => s.default)).toHaveLength(1)
    // A site with sections holds no site-space at its root.
    expect(container(w)).toEqual([])
  }
  for (const key of [undefined, ...sectionIds]) {
    const held = container(w, key)
    if (held.length > 0)
      expect(
        held.filter((s) => s.default),
        `defaults of ${key ?? 'the root'}`,
      ).toHaveLength(1)
  }
  for (const s of siteSpaces) if (s.section !== undefined) expect(sectionIds.has(s.section)).toBe(true)
  for (const s of sections) if (s.sectionGroup !== undefined) expect(groupIds.has(s.sectionGroup)).toBe(true)
  for (const g of groups) if (g.sectionGroup !== undefined) expect(groupIds.has(g.sectionGroup)).toBe(true)
  // Paths are unique: sections in the site, site-spaces in their container.
  expect(new Set(sections.map((s) => s.path)).size).toBe(sections.length)
  for (const key of [undefined, ...sectionIds]) {
    const held = container(w, key)
    expect(new Set(held.map((s) => s.path)).size).toBe(held.length)
  }
}

/** A small deterministic pseudo-random generator (mulberry32), so a failing sequence replays. */
function random(seed: number) {
  let a = seed
  const next = () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! }
}

describe('site structure scenarios', () => {
  describe('first-section adoption', () => {
    it('moves the root site-spaces into the first section in their order, keeping their default; the new space joins at the end', async () => {
      const w = await setup()
      const [guide, reference, changelog, tutorials] = w.spaces
      for (const space of [guide, reference, changelog]) await w.ok('POST', '/site-spaces', { spaceId: space })
      const [a, b, c] = container(w)
      // Reorder and change the default before sections exist: changelog, guide, reference; default reference.
      await w.ok('POST', `/site-spaces/${c!.id}/move`, { position: { before: { type: 'site-space', siteSpace: a!.id } } })
      await w.ok('PATCH', '', { defaultSiteSpace: b!.id })
      expect(ids(container(w))).toEqual([c!.id, a!.id, b!.id])

      const section = await w.ok('POST', '/sections', { spaceId: tutorials })
      expect(section).toMatchObject({ default: true, title: 'Tutorials', path: 'tutorials' })
      expect(section.siteSpaces.map((s: any) => [s.id, s.default, s.section])).toEqual([
        [c!.id, false, section.id],
        [a!.id, false, section.id],
        [b!.id, true, section.id],
        [expect.any(String), false, section.id],
      ])
      expect(section.siteSpaces[3].space.id).toBe(tutorials)
      expect(container(w)).toEqual([])
      expect(ids(await listSiteSpaces(w))).toEqual(ids(section.siteSpaces))
      expect(ids(await listSiteSpaces(w)).length).toBe((await call(w.api, w.tokens.rita, 'GET', w.base)).body.siteSpaces)
      // Paths are kept through the move.
      expect(section.siteSpaces.map((s: any) => s.path)).toEqual(['changelog', 'guide', 'reference', 'tutorials'])
      // Only the first section adopts: the second holds only its own space.
      const second = await w.ok('POST', '/sections', { spaceId: guide })
      expect(second.default).toBe(false)
      expect(second.siteSpaces.map((s: any) => [s.space.id, s.default])).toEqual([[guide, true]])
      expectInvariants(w)
    })

    it('adds no second site-space when the first section is given a space already at the root', async () => {
      const w = await setup()
      const [guide, reference] = w.spaces
      await w.ok('POST', '/site-spaces', { spaceId: guide })
      await w.ok('POST', '/site-spaces', { spaceId: reference })
      const before = ids(container(w))
      const section = await w.ok('POST', '/sections', { spaceId: reference })
      expect(section.title).toBe('Reference')
      expect(ids(section.siteSpaces)).toEqual(before)
      expect(section.siteSpaces.map((s: any) => s.default)).toEqual([true, false])
      expect(rows(w).siteSpaces).toHaveLength(2)
      expectInvariants(w)
    })

    it('adopts into the first section even when it is created in a group', async () => {
      const w = await setup()
      await w.ok('POST', '/site-spaces', { spaceId: w.spaces[0] })
      const group = await w.ok('POST', '/section-groups', { title: 'Products' })
      const section = await w.ok('POST', '/sections', { spaceId: w.spaces[1], siteSectionGroupId: group.id })
      expect(section).toMatchObject({ default: true, sectionGroup: group.id })
      expect(section.siteSpaces.map((s: any) => [s.space.id, s.default])).toEqual([
        [w.spaces[0], true],
        [w.spaces[1], false],
      ])
      expectInvariants(w)
    })
  })

  describe('defaults and their promotion', () => {
    it('deleting the default section promotes the first remaining section in structure order (through groups)', async () => {
      const w = await setup()
      const a = await w.ok('POST', '/sections', { spaceId: w.spaces[0] })
      const g = await w.ok('POST', '/section-groups', { title: 'Group' })
      const inGroup = await w.ok('POST', '/sections', { spaceId: w.spaces[1], siteSectionGroupId: g.id })
      const b = await w.ok('POST', '/sections', { spaceId: w.spaces[2] })
      // Structure: Group{inGroup}, a, b — the group comes first.
      await w.ok('PATCH', '/structure/sort', { item: { type: 'site-section-group', id: g.id }, position: { before: { type: 'site-section', id: a.id } } })
      await w.ok('DELETE', `/sections/${a.id}`, undefined, 204)
      const sections = (await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections`)).body.items
      expect(sections.map((s: any) => [s.id, s.default])).toEqual([
        [inGroup.id, true],
        [b.id, false],
      ])
      await w.ok('DELETE', `/sections/${inGroup.id}`, undefined, 204)
      expect(rows(w).sections.map((s) => [s.id, s.default])).toEqual([[b.id, true]])
      expectInvariants(w)
    })

    it('deleting a non-default section leaves the default where it is', async () => {
      const w = await setup()
      const a = await w.ok('POST', '/sections', { spaceId: w.spaces[0] })
      const b = await w.ok('POST', '/sections', { spaceId: w.spaces[1] })
      const c = await w.ok('POST', '/sections', { spaceId: w.spaces[2] })
      await w.ok('PATCH', '', { defaultSiteSection: c.id })
      await w.ok('DELETE', `/sections/${a.id}`, undefined, 204)
      expect(rows(w).sections.map((s) => [s.id, s.default])).toEqual([
        [b.id, false],
        [c.id, true],
      ])
    })

    it('deleting a default site-space promotes the next one of its container (the previous one when it was last)', async () => {
      const w = await setup()
      const section = await w.ok('POST', '/sections', { spaceId: w.spaces[0] })
      const other = await w.ok('POST', '/sections', { spaceId: w.spaces[4] })
      const x = section.siteSpaces[0]
      const y = await w.ok('POST', '/site-spaces', { spaceId: w.spaces[1], sectionId: section.id })
      const z = await w.ok('POST', '/site-spaces', { spaceId: w.spaces[2], sectionId: section.id })
      const last = await w.ok('POST', '/site-spaces', { spaceId: w.spaces[3], sectionId: section.id })
      // The section's default moves to y through the section's patch.
      const patched = await w.ok('PATCH', `/sections/${section.id}`, { defaultSiteSpace: y.id })
      expect(defaultsOf(patched.siteSpaces)).toEqual([y.id])
      await w.ok('DELETE', `/site-spaces/${y.id}`, undefined, 204)
      expect(defaultsOf(container(w, section.id))).toEqual([z.id])
      await w.ok('PATCH', `/sections/${section.id}`, { defaultSiteSpace: last.id })
      await w.ok('DELETE', `/site-spaces/${last.id}`, undefined, 204)
      expect(defaultsOf(container(w, section.id))).toEqual([z.id])
      await w.ok('DELETE', `/site-spaces/${z.id}`, undefined, 204)
      expect(defaultsOf(container(w, section.id))).toEqual([x.id])
      // Another container is never touched.
      expect(defaultsOf(container(w, other.id))).toEqual([other.siteSpaces[0].id])
      expectInvariants(w)
    })

    it('the site patch changes the default section and the default site-space (of the root, or of the default section)', async () => {
      const w = await setup()
      for (const space of w.spaces.slice(0, 2)) await w.ok('POST', '/site-spaces', { spaceId: space })
      const [r1, r2] = container(w)
      const site = await w.ok('PATCH', '', { defaultSiteSpace: r2!.id })
      expect(site.object).toBe('site')
      expect(defaultsOf(container(w))).toEqual([r2!.id])
      expect(ids(await listSiteSpaces(w))).toEqual([r1!.id, r2!.id])
      expect(ids((await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces?default=true`)).body.items)).toEqual([r2!.id])

      const s1 = await w.ok('POST', '/sections', { spaceId: w.spaces[2] })
      const s2 = await w.ok('POST', '/sections', { spaceId: w.spaces[3] })
      const s2extra = await w.ok('POST', '/site-spaces', { spaceId: w.spaces[4], sectionId: s2.id })
      expectError(
        await call(w.api, w.editor, 'PATCH', w.base, { defaultSiteSpace: s2extra.id }),
        400,
        `body field \`defaultSiteSpace\`: site-space ${s2extra.id} is not in the default section (${s1.id})`,
      )
      await w.ok('PATCH', '', { defaultSiteSection: s2.id })
      expect(rows(w).sections.map((s) => [s.id, s.default])).toEqual([
        [s1.id, false],
        [s2.id, true],
      ])
      await w.ok('PATCH', '', { defaultSiteSpace: s2extra.id })
      expect(defaultsOf(container(w, s2.id))).toEqual([s2extra.id])
      // s1 keeps its own default: a default per container.
      expect(defaultsOf(container(w, s1.id))).toEqual([r2!.id])
      expect(ids((await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces?default=true`)).body.items)).toEqual([s2extra.id])
      // Both at once: the section is made default first, then the site-space of it.
      await w.ok('PATCH', '', { defaultSiteSection: s1.id, defaultSiteSpace: r1!.id })
      expect(rows(w).sections.find((s) => s.default)!.id).toBe(s1.id)
      expect(defaultsOf(container(w, s1.id))).toEqual([r1!.id])
      expectError(
        await call(w.api, w.editor, 'PATCH', w.base, { defaultSiteSection: 'nope' }),
        400,
        'body field `defaultSiteSection`: no section nope in this site',
      )
      expectError(
        await call(w.api, w.editor, 'PATCH', w.base, { defaultSiteSpace: 'nope' }),
        400,
        'body field `defaultSiteSpace`: no site-space nope in this site',
      )
      expectInvariants(w)
    })

    it('keeps exactly one default section and one default per container through a long random sequence of changes', async () => {
      const w = await setup(['S0', 'S1', 'S2', 'S3', 'S4', 'S5'])
      const rnd = random(20260301)
      for (let step = 0; step < 120; step++) {
        const { sections, siteSpaces, groups } = rows(w)
        const op = rnd.int(9)
        let res: Called | undefined
        if (op === 0 || sections.length === 0) {
          res = await call(w.api, w.editor, 'POST', `${w.base}/sections`, {
            spaceId: rnd.pick(w.spaces),
            ...(groups.length > 0 && rnd.int(2) === 0 && { siteSectionGroupId: rnd.pick(groups).id }),
          })
          expect(res.status).toBe(201)
        } else if (op === 1) {
          res = await call(w.api, w.editor, 'POST', `${w.base}/site-spaces`, { spaceId: rnd.pick(w.spaces), sectionId: rnd.pick(sections).id })
          expect([201, 409]).toContain(res.status)
        } else if (op === 2) {
          res = await call(w.api, w.editor, 'DELETE', `${w.base}/sections/${rnd.pick(sections).id}`)
          expect(res.status).toBe(204)
        } else if (op === 3 && siteSpaces.length > 0) {
          res = await call(w.api, w.editor, 'DELETE', `${w.base}/site-spaces/${rnd.pick(siteSpaces).id}`)
          expect(res.status).toBe(204)
        } else if (op === 4 && siteSpaces.length > 0) {
          const target = rnd.pick(siteSpaces)
          res = await call(w.api, w.editor, 'PATCH', `${w.base}/sections/${target.section}`, { defaultSiteSpace: target.id })
          expect(res.status).toBe(200)
        } else if (op === 5) {
          res = await call(w.api, w.editor, 'PATCH', w.base, { defaultSiteSection: rnd.pick(sections).id })
          expect(res.status).toBe(200)
        } else if (op === 6 && siteSpaces.length > 1) {
          const item = rnd.pick(siteSpaces)
          const sibling = rnd.pick(siteSpaces)
          res = await call(w.api, w.editor, 'PATCH', `${w.base}/structure/sort`, {
            item: { type: 'site-space', id: item.id },
            position: { [rnd.int(2) === 0 ? 'before' : 'after']: { type: 'site-space', id: sibling.id } },
          })
          // 400 for a sibling of another container (or itself), 409 for a move that changes nothing.
          expect([200, 400, 409]).toContain(res.status)
        } else if (op === 7) {
          res = await call(w.api, w.editor, 'POST', `${w.base}/section-groups`, { title: `G${step}`, sections: [rnd.pick(sections).id] })
          expect(res.status).toBe(201)
        } else if (op === 8 && groups.length > 0) {
          res = await call(w.api, w.editor, 'DELETE', `${w.base}/section-groups/${rnd.pick(groups).id}`)
          expect(res.status).toBe(204)
        }
        expectInvariants(w)
      }
      // The sequence did exercise the structure.
      expect(rows(w).sections.length).toBeGreaterThan(0)
    })
  })

  describe('paths', () => {
    it('derives paths from titles, unique among siblings (`changelog`, `changelog-2`), and refuses explicit collisions with a 409', async () => {
      const w = await setup(['Changelog', 'Changelog', 'Guide'])
      const [c1, c2, guide] = w.spaces as [string, string, string]
      const s1 = await w.ok('POST', '/sections', { spaceId: c1 })
      const s2 = await w.ok('POST', '/sections', { spaceId: c2 })
      const s3 = await w.ok('POST', '/sections', { spaceId: guide, title: 'Changelog!' })
      expect([s1.path, s2.path, s3.path]).toEqual(['changelog', 'changelog-2', 'changelog-3'])
      // Site-space paths are unique in their section, not across sections.
      const inS1 = await w.ok('POST', '/site-spaces', { spaceId: c2, sectionId: s1.id })
      expect([s1.siteSpaces[0].path, inS1.path]).toEqual(['changelog', 'changelog-2'])
      expect(s2.siteSpaces[0].path).toBe('changelog')
      expect((await w.ok('POST', '/site-spaces', { spaceId: guide, sectionId: s1.id, title: 'Changelog' })).path).toBe('changelog-3')
      // A freed path is derived again.
      await w.ok('DELETE', `/sections/${s2.id}`, undefined, 204)
      expect((await w.ok('POST', '/sections', { spaceId: c2 })).path).toBe('changelog-2')
      // Explicit collisions.
      expectError(
        await call(w.api, w.editor, 'PATCH', `${w.base}/sections/${s3.id}`, { path: 'changelog' }),
        409,
        'The path `changelog` is already used by another section of this site',
      )
      expectError(
        await call(w.api, w.editor, 'PATCH', `${w.base}/site-spaces/${inS1.id}`, { path: 'changelog' }),
        409,
        'The path `changelog` is already used by another site-space here',
      )
      expect((await w.ok('PATCH', `/sections/${s3.id}`, { path: 'news' })).path).toBe('news')
      expect((await w.ok('PATCH', `/site-spaces/${inS1.id}`, { path: 'archive' })).path).toBe('archive')
      // A title change keeps the path; a new section titled like the old path takes the next free one.
      await w.ok('PATCH', `/sections/${s3.id}`, { title: 'Latest news' })
      expect((await w.ok('POST', '/sections', { spaceId: guide, title: 'News' })).path).toBe('news-2')
      // Titles without letters or digits fall back on a generic path.
      expect((await w.ok('POST', '/sections', { spaceId: guide, title: '✨✨' })).path).toBe('section')
      expect((await w.ok('POST', '/site-spaces', { spaceId: c1, sectionId: s3.id, title: '!!' })).path).toBe('space')
      expect((await w.ok('POST', '/sections', { spaceId: guide, title: 'Ünïcödé Çafé' })).path).toBe('unicode-cafe')
      expectInvariants(w)
    })
  })

  describe('groups', () => {
    it('nests groups, moves sections in, refuses cycles, and deleting a group keeps everything it held, in place', async () => {
      const w = await setup()
      const a = await w.ok('POST', '/sections', { spaceId: w.spaces[0] })
      const b = await w.ok('POST', '/sections', { spaceId: w.spaces[1] })
      const c = await w.ok('POST', '/sections', { spaceId: w.spaces[2] })
      const d = await w.ok('POST', '/sections', { spaceId: w.spaces[3] })
      const outer = await w.ok('POST', '/section-groups', { title: 'Outer', sections: [b.id] })
      const inner = await w.ok('POST', '/section-groups', { title: 'Inner', parent: outer.id, sections: [c.id] })
      await w.ok('POST', `/section-groups/${inner.id}/sections`, { sectionId: d.id }, 201)
      // Root: a, Outer{b, Inner{c, d}}
      const structure = async () => (await call(w.api, w.tokens.ada, 'GET', `${w.base}/published`)).body.structure.structure
      const shape = (nodes: any[]): unknown[] => nodes.map((n) => (n.object === 'site-section-group' ? { [n.title]: shape(n.children) } : n.title))
      expect(shape(await structure())).toEqual(['Guide', { Outer: ['Reference', { Inner: ['Changelog', 'Tutorials'] }] }])
      expect(ids((await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections`)).body.items)).toEqual([a.id, b.id, c.id, d.id])
      // Cycles: a group into itself or its descendant.
      expectError(
        await call(w.api, w.editor, 'PATCH', `${w.base}/section-groups/${outer.id}`, { parentSectionGroupId: inner.id }),
        400,
        'cannot move a group into itself or one of its descendants',
      )
      expectError(
        await call(w.api, w.editor, 'PATCH', `${w.base}/section-groups/${inner.id}`, { parentSectionGroupId: inner.id }),
        400,
        'cannot move a group into itself',
      )
      // Inner goes to the root, then back into Outer; sortSiteStructure puts it first there.
      await w.ok('PATCH', `/section-groups/${inner.id}`, { parentSectionGroupId: null })
      expect(shape(await structure())).toEqual(['Guide', { Outer: ['Reference'] }, { Inner: ['Changelog', 'Tutorials'] }])
      await w.ok('PATCH', `/section-groups/${inner.id}`, { parentSectionGroupId: outer.id })
      await w.ok('PATCH', '/structure/sort', { item: { type: 'site-section-group', id: inner.id }, position: { before: { type: 'site-section', id: b.id } } })
      expect(shape(await structure())).toEqual(['Guide', { Outer: [{ Inner: ['Changelog', 'Tutorials'] }, 'Reference'] }])
      // Sorting next to an item of another container is a 400.
      expectError(
        await call(w.api, w.editor, 'PATCH', `${w.base}/structure/sort`, {
          item: { type: 'site-section', id: c.id },
          position: { after: { type: 'site-section', id: a.id } },
        }),
        400,
        `site-section ${a.id} is not in the same container`,
      )
      // Deleting Outer: Inner and Reference take its place, after Guide; nothing is deleted.
      const before = rows(w)
      await w.ok('DELETE', `/section-groups/${outer.id}`, undefined, 204)
      expect(shape(await structure())).toEqual(['Guide', { Inner: ['Changelog', 'Tutorials'] }, 'Reference'])
      expect(rows(w).sections.map((s) => s.id)).toEqual(before.sections.map((s) => s.id))
      expect(rows(w).siteSpaces.map((s) => s.id)).toEqual(before.siteSpaces.map((s) => s.id))
      expect(rows(w).groups.map((g) => [g.id, g.sectionGroup])).toEqual([[inner.id, undefined]])
      // Deleting Inner: its sections take its place.
      await w.ok('DELETE', `/section-groups/${inner.id}`, undefined, 204)
      expect(shape(await structure())).toEqual(['Guide', 'Changelog', 'Tutorials', 'Reference'])
      expect(rows(w).sections.every((s) => s.sectionGroup === undefined)).toBe(true)
      expectInvariants(w)
    })
  })

  describe('ordering', () => {
    it('keeps the order of a model through 30 random moves of site-spaces (before, after, to the end)', async () => {
      const w = await setup(['S0', 'S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7'])
      const section = await w.ok('POST', '/sections', { spaceId: w.spaces[0] })
      const model: string[] = [section.siteSpaces[0].id]
      for (const space of w.spaces.slice(1)) model.push((await w.ok('POST', '/site-spaces', { spaceId: space })).id)
      const rnd = random(7)
      let moves = 0
      let conflicts = 0
      while (moves < 30) {
        const item = rnd.pick(model)
        const kind = rnd.int(5)
        const rest = model.filter((id) => id !== item)
        let expected: string[]
        let body: unknown
        if (kind === 0) {
          expected = [...rest, item]
          body = {}
        } else {
          const sibling = rnd.pick(rest)
          const at = kind % 2 === 0 ? 'before' : 'after'
          const index = rest.indexOf(sibling) + (at === 'after' ? 1 : 0)
          expected = [...rest.slice(0, index), item, ...rest.slice(index)]
          body = { position: { [at]: { type: 'site-space', siteSpace: sibling } } }
        }
        const res = await call(w.api, w.editor, 'POST', `${w.base}/site-spaces/${item}/move`, body)
        if (expected.join() === model.join()) {
          // A move that changes nothing is a 409.
          expect(res.status).toBe(409)
          conflicts++
          continue
        }
        expect(res.status, JSON.stringify(res.body)).toBe(200)
        model.splice(0, model.length, ...expected)
        moves++
        expect(ids(await listSiteSpaces(w))).toEqual(model)
      }
      expect(ids(section.siteSpaces)).not.toEqual(model)
      expect(conflicts).toBeGreaterThanOrEqual(0)
      // Paging reads the same order.
      const page1 = await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces?limit=5`)
      const page2 = await call(w.api, w.tokens.rita, 'GET', `${w.base}/site-spaces?limit=5&page=${page1.body.next.page}`)
      expect([...ids(page1.body.items), ...ids(page2.body.items)]).toEqual(model)
      // The default stayed with its site-space through all the moves.
      expect(defaultsOf(await listSiteSpaces(w))).toEqual([section.siteSpaces[0].id])
    })

    it('keeps the order of a model through 30 random sorts of sections and groups at the root', async () => {
      const w = await setup(['S0', 'S1', 'S2', 'S3', 'S4'])
      const model: Array<{ type: 'site-section' | 'site-section-group'; id: string }> = []
      for (const space of w.spaces) model.push({ type: 'site-section', id: (await w.ok('POST', '/sections', { spaceId: space })).id })
      for (const title of ['G1', 'G2']) model.push({ type: 'site-section-group', id: (await w.ok('POST', '/section-groups', { title })).id })
      const rootIds = async () => ids((await call(w.api, w.tokens.ada, 'GET', `${w.base}/published`)).body.structure.structure)
      const rnd = random(42)
      let moves = 0
      while (moves < 30) {
        const item = rnd.pick(model)
        const rest = model.filter((n) => n !== item)
        const sibling = rnd.pick(rest)
        const at = rnd.int(2) === 0 ? 'before' : 'after'
        const index = rest.indexOf(sibling) + (at === 'after' ? 1 : 0)
        const expected = [...rest.slice(0, index), item, ...rest.slice(index)]
        const res = await call(w.api, w.editor, 'PATCH', `${w.base}/structure/sort`, { item, position: { [at]: sibling } })
        if (expected.map((n) => n.id).join() === model.map((n) => n.id).join()) {
          expect(res.status).toBe(409)
          continue
        }
        expect(res.status, JSON.stringify(res.body)).toBe(200)
        expect(res.body.id).toBe(item.id)
        model.splice(0, model.length, ...expected)
        moves++
        expect(await rootIds()).toEqual(model.map((n) => n.id))
      }
      expect(ids((await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections`)).body.items)).toEqual(
        model.filter((n) => n.type === 'site-section').map((n) => n.id),
      )
    })

    it('renumbers when one spot is used again and again: 25 inserts before the same site-space keep a total order', async () => {
      const names = ['First', 'Last', ...Array.from({ length: 25 }, (_, i) => `X${i + 1}`)]
      const w = await setup(names)
      for (const space of w.spaces) await w.ok('POST', '/site-spaces', { spaceId: space })
      const all = container(w)
      const [first, last, ...xs] = ids(all)
      const model = [first!, last!]
      for (const x of xs) {
        await w.ok('POST', `/site-spaces/${x}/move`, { position: { before: { type: 'site-space', siteSpace: last! } } })
        model.splice(model.length - 1, 0, x)
      }
      expect(ids(await listSiteSpaces(w))).toEqual(model)
      expect(ids(container(w))).toEqual(model)
      // Halving a unit gap 25 times would leave 2^-25 between neighbours: the siblings were renumbered instead.
      const positions = container(w).map((r) => r.position)
      const gaps = positions.slice(1).map((p, i) => p - positions[i]!)
      expect(Math.min(...gaps)).toBeGreaterThan(2 ** -20)
      // Inserting before the first one, again and again, keeps working too.
      const model2 = [...model]
      for (const x of xs.slice(0, 5)) {
        await w.ok('POST', `/site-spaces/${x}/move`, { position: { before: { type: 'site-space', siteSpace: model2[0]! } } })
        model2.splice(model2.indexOf(x), 1)
        model2.unshift(x)
      }
      expect(ids(await listSiteSpaces(w))).toEqual(model2)
    })

    it('renumbers sections too: 25 sorts to the same spot among the sections of a group', async () => {
      const w = await setup(Array.from({ length: 27 }, (_, i) => `T${i}`))
      const group = await w.ok('POST', '/section-groups', { title: 'All' })
      const sections: string[] = []
      for (const space of w.spaces) sections.push((await w.ok('POST', '/sections', { spaceId: space, siteSectionGroupId: group.id })).id)
      const [first, last, ...rest] = sections
      const model = [first!, last!]
      for (const id of rest) {
        await w.ok('PATCH', '/structure/sort', {
          item: { type: 'site-section', id },
          position: { after: { type: 'site-section', id: model[model.length - 2]! } },
        })
        model.splice(model.length - 1, 0, id)
      }
      const listed = (await call(w.api, w.tokens.rita, 'GET', `${w.base}/section-groups`)).body.items[0]
      expect(ids(listed.children)).toEqual(model)
      expect(ids((await call(w.api, w.tokens.rita, 'GET', `${w.base}/sections?limit=1000`)).body.items)).toEqual(model)
    })

    it('refuses a move next to an item of another container (400) and a move that changes nothing (409)', async () => {
      const w = await setup()
      const s1 = await w.ok('POST', '/sections', { spaceId: w.spaces[0] })
      const s2 = await w.ok('POST', '/sections', { spaceId: w.spaces[1] })
      const extra = await w.ok('POST', '/site-spaces', { spaceId: w.spaces[2], sectionId: s1.id })
      const before = rows(w)
      expectError(
        await call(w.api, w.editor, 'POST', `${w.base}/site-spaces/${extra.id}/move`, {
          position: { before: { type: 'site-space', siteSpace: s2.siteSpaces[0].id } },
        }),
        400,
        `body field \`position.before.siteSpace\`: site-space ${s2.siteSpaces[0].id} is not in the same section`,
      )
      expectError(
        await call(w.api, w.editor, 'PATCH', `${w.base}/structure/sort`, {
          item: { type: 'site-space', id: extra.id },
          position: { after: { type: 'site-space', id: s2.siteSpaces[0].id } },
        }),
        400,
        'is not in the same section',
      )
      expectError(await call(w.api, w.editor, 'POST', `${w.base}/site-spaces/${extra.id}/move`, {}), 409, 'The move would not change anything')
      expectError(
        await call(w.api, w.editor, 'POST', `${w.base}/site-spaces/${extra.id}/move`, {
          position: { after: { type: 'site-space', siteSpace: s1.siteSpaces[0].id } },
        }),
        409,
        'The move would not change anything',
      )
      expect(rows(w)).toEqual(before)
    })
  })

  describe('hidden site-spaces and conditions', () => {
    it('lists hidden site-spaces to editors and readers, and leaves them out of the published profile', async () => {
      const w = await setup()
      const s1 = await w.ok('POST', '/sections', { spaceId: w.spaces[0] })
      const shown = await w.ok('POST', '/site-spaces', { spaceId: w.spaces[1], sectionId: s1.id })
      const hidden = await w.ok('POST', '/site-spaces', { spaceId: w.spaces[2], sectionId: s1.id })
      const g = await w.ok('POST', '/section-groups', { title: 'Group' })
      const s2 = await w.ok('POST', '/sections', { spaceId: w.spaces[3], siteSectionGroupId: g.id })
      const nestedHidden = await w.ok('POST', '/site-spaces', { spaceId: w.spaces[4], sectionId: s2.id })
      expect((await w.ok('PATCH', `/site-spaces/${hidden.id}`, { hidden: true })).hidden).toBe(true)
      await w.ok('PATCH', `/site-spaces/${nestedHidden.id}`, { hidden: true })
      await w.api.fixtures.publishSite(w.org.id, w.site.id)

      for (const token of [w.editor, w.tokens.rita]) {
        const listedNow = await listSiteSpaces(w, token)
        expect(listedNow.map((s: any) => [s.id, s.hidden])).toEqual([
          [s1.siteSpaces[0].id, false],
          [shown.id, false],
          [hidden.id, true],
          [s2.siteSpaces[0].id, false],
          [nestedHidden.id, true],
        ])
        const sections = (await call(w.api, token, 'GET', `${w.base}/sections`)).body.items
        expect(ids(sections[0].siteSpaces)).toEqual([s1.siteSpaces[0].id, shown.id, hidden.id])
      }
      // The published profile, for a member and for a visitor of the public site.
      const visitor = await visitorOf(w)
      for (const token of [w.tokens.rita, visitor]) {
        const profile = await call(w.api, token, 'GET', `${w.base}/published`)
        expect(profile.status).toBe(200)
        expect(profile.body.object).toBe('published-content-site')
        const [first, group] = profile.body.structure.structure
        expect(ids(first.siteSpaces)).toEqual([s1.siteSpaces[0].id, shown.id])
        expect(group.children.map((c: any) => ids(c.siteSpaces))).toEqual([[s2.siteSpaces[0].id]])
        expect(group.sections.map((c: any) => ids(c.siteSpaces))).toEqual([[s2.siteSpaces[0].id]])
      }
      // Shown again: back in the published navigation, in its place.
      await w.ok('PATCH', `/site-spaces/${hidden.id}`, { hidden: false })
      const again = await call(w.api, visitor, 'GET', `${w.base}/published`)
      expect(ids(again.body.structure.structure[0].siteSpaces)).toEqual([s1.siteSpaces[0].id, shown.id, hidden.id])
    })

    it('leaves hidden site-spaces out of the published root of a site without sections; non-members see only a published site', async () => {
      const w = await setup()
      const a = await w.ok('POST', '/site-spaces', { spaceId: w.spaces[0] })
      const b = await w.ok('POST', '/site-spaces', { spaceId: w.spaces[1] })
      await w.ok('PATCH', `/site-spaces/${a.id}`, { hidden: true })
      expect((await call(w.api, undefined, 'POST', '/v1/urls/published', { url: `https://docs.localhost/${w.org.id}/${w.site.id}` })).status).toBe(404)
      expectError(await call(w.api, w.tokens.gina, 'GET', `${w.base}/published`), 404, 'Site not found')
      expectError(await call(w.api, w.tokens.olga, 'GET', `${w.base}/published`), 404, 'Organization not found')
      expect((await call(w.api, undefined, 'GET', `${w.base}/published`)).status).toBe(401)
      const member = await call(w.api, w.tokens.rita, 'GET', `${w.base}/published`)
      expect(member.body.structure).toMatchObject({ type: 'siteSpaces', structure: [{ id: b.id }] })
      expect(member.body.structure.structure).toHaveLength(1)
      await w.api.fixtures.publishSite(w.org.id, w.site.id)
      const visitor = await call(w.api, await visitorOf(w), 'GET', `${w.base}/published`)
      expect(visitor.status).toBe(200)
      expect(ids(visitor.body.structure.structure)).toEqual([b.id])
      expectError(await call(w.api, w.tokens.gina, 'GET', `${w.base}/published`), 404, 'Site not found')
      // The editor's list still holds both.
      expect((await listSiteSpaces(w, w.editor)).map((s: any) => [s.id, s.hidden])).toEqual([
        [a.id, true],
        [b.id, false],
      ])
    })

    it('leaves the site-space of a trashed space out of the published profile until the space is restored', async () => {
      const w = await setup()
      const s = await w.ok('POST', '/sections', { spaceId: w.spaces[0] })
      const extra = await w.ok('POST', '/site-spaces', { spaceId: w.spaces[1], sectionId: s.id })
      await w.api.fixtures.publishSite(w.org.id, w.site.id)
      await w.api.fixtures.deleteSpace(w.spaces[1]!)
      const visitor = await visitorOf(w)
      const published = async () => ids((await call(w.api, visitor, 'GET', `${w.base}/published`)).body.structure.structure[0].siteSpaces)
      expect(await published()).toEqual([s.siteSpaces[0].id])
      expect(ids(await listSiteSpaces(w, w.editor))).toEqual([s.siteSpaces[0].id, extra.id])
      expect((await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.spaces[1]}/restore`)).status).toBe(200)
      expect(await published()).toEqual([s.siteSpaces[0].id, extra.id])
    })

    it('stores conditions of sections and site-spaces: omitted keeps, null removes; the published profile carries them', async () => {
      const w = await setup()
      const s = await w.ok('POST', '/sections', { spaceId: w.spaces[0] })
      const ss = s.siteSpaces[0]
      await w.ok('PATCH', `/sections/${s.id}`, { condition: 'visitor.claims.role == "admin"' })
      await w.ok('PATCH', `/site-spaces/${ss.id}`, { condition: 'visitor.claims.beta' })
      const read = async () => {
        const profile = (await call(w.api, w.tokens.rita, 'GET', `${w.base}/published`)).body.structure.structure[0]
        return [profile.condition, profile.siteSpaces[0].condition]
      }
      expect(await read()).toEqual(['visitor.claims.role == "admin"', 'visitor.claims.beta'])
      await w.ok('PATCH', `/sections/${s.id}`, { title: 'Renamed' })
      await w.ok('PATCH', `/site-spaces/${ss.id}`, { hidden: false })
      expect(await read()).toEqual(['visitor.claims.role == "admin"', 'visitor.claims.beta'])
      // An empty expression is a condition like any other (the official minimum length is 0).
      await w.ok('PATCH', `/site-spaces/${ss.id}`, { condition: '' })
      expect(await read()).toEqual(['visitor.claims.role == "admin"', ''])
      await w.ok('PATCH', `/sections/${s.id}`, { condition: null })
      await w.ok('PATCH', `/site-spaces/${ss.id}`, { condition: null })
      expect(await read()).toEqual([undefined, undefined])
      expect(w.api.store.read((tx) => [tx.get('siteSections', s.id), tx.get('siteSpaces', ss.id)]).map((r) => r && 'condition' in r)).toEqual([false, false])
      // The maximum length is accepted.
      expect((await w.ok('PATCH', `/sections/${s.id}`, { condition: 'x'.repeat(1024) })).condition).toHaveLength(1024)
    })
  })
})
