import { describe, expect, it } from 'vitest'
import { DEFAULT_CUSTOMIZATION } from '../../src/domains/sites/customization.js'
import { call, createWorld, siteToken } from '../helpers.js'
import { expectOfficialResponse, hasOfficialOperation } from './official.js'

/** Sections, section groups, site-spaces and their order, through `@gitbook/api`, checked against the official schemas. */

async function setup() {
  const w = await createWorld()
  const gb = w.client(w.tokens.ada)
  const guide = await w.api.fixtures.createSpace(w.org.id, { title: 'Guide' })
  const reference = await w.api.fixtures.createSpace(w.org.id, { title: 'Reference' })
  const changelog = await w.api.fixtures.createSpace(w.org.id, { title: 'Changelog' })
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [guide.id] })
  const base = `/v1/orgs/${w.org.id}/sites/${site.id}`
  return { ...w, gb, spaces: { guide, reference, changelog }, site, base }
}

describe('conformance: site structure through @gitbook/api', () => {
  it('listSiteSpaces, addSpaceToSite, updateSiteSpaceById, moveSiteSpace, deleteSiteSpaceById (a site without sections)', async () => {
    const w = await setup()
    const org = w.org.id
    const site = w.site.id
    const added = await w.gb.orgs.addSpaceToSite(org, site, { spaceId: w.spaces.reference.id, title: 'API' })
    expect(added.status).toBe(201)
    expect(added.data).toMatchObject({ object: 'site-space', path: 'api', title: 'API', default: false })
    expectOfficialResponse('addSpaceToSite', 201, added.data)
    const list = await w.gb.orgs.listSiteSpaces(org, site, { limit: 1 })
    expect(list.data.count).toBe(2)
    expect(list.data.items[0]!.space.id).toBe(w.spaces.guide.id)
    expect(list.data.next?.page).toEqual(expect.any(String))
    expectOfficialResponse('listSiteSpaces', 200, list.data)
    const defaults = await w.gb.orgs.listSiteSpaces(org, site, { default: false })
    expect(defaults.data.items.map((s) => s.id)).toEqual([added.data.id])
    expectOfficialResponse('listSiteSpaces', 200, defaults.data)
    const patched = await w.gb.orgs.updateSiteSpaceById(org, site, added.data.id, { path: 'reference', condition: 'visitor.claims.beta', hidden: true })
    expect(patched.data).toMatchObject({ path: 'reference', condition: 'visitor.claims.beta', hidden: true })
    expectOfficialResponse('updateSiteSpaceById', 200, patched.data)
    const moved = await w.gb.orgs.moveSiteSpace(org, site, added.data.id, { position: { before: { type: 'site-space', siteSpace: list.data.items[0]!.id } } })
    expect(moved.status).toBe(200)
    expectOfficialResponse('moveSiteSpace', 200, moved.data)
    expect((await w.gb.orgs.listSiteSpaces(org, site)).data.items.map((s) => s.id)).toEqual([added.data.id, list.data.items[0]!.id])
    const bad = await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces/${added.data.id}/move`, {
      position: { after: { type: 'site-space', siteSpace: 'nope' } },
    })
    expect(bad.status).toBe(400)
    expectOfficialResponse('moveSiteSpace', 400, bad.body)
    const missing = await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces/nope/move`, {})
    expect(missing.status).toBe(404)
    expectOfficialResponse('moveSiteSpace', 404, missing.body)
    // Prefer: return=minimal, where the official document declares a 204.
    // (Through `call`: the official client parses a JSON body on every answer of these operations, so it cannot read a 204.)
    const quiet = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/site-spaces/${added.data.id}`, { hidden: false }, { prefer: 'return=minimal' })
    expect(quiet.status).toBe(204)
    expectOfficialResponse('updateSiteSpaceById', 204, undefined)
    const quietAdd = await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces`, { spaceId: w.spaces.changelog.id }, { prefer: 'return=minimal' })
    expect(quietAdd.status).toBe(204)
    expectOfficialResponse('addSpaceToSite', 204, undefined)
    const del = await w.gb.orgs.deleteSiteSpaceById(org, site, added.data.id)
    // The official document answers 205 when a site-space is removed and 204 when it did not
    // exist; like every delete of the reference, ours answers 204 in both cases.
    expect(del.status).toBe(204)
    expectOfficialResponse('deleteSiteSpaceById', 204, undefined)
    expect((await w.gb.orgs.deleteSiteSpaceById(org, site, added.data.id)).status).toBe(204)
  })

  it('addSectionToSite, listSiteSections, updateSiteSectionById, moveSiteSection, deleteSiteSectionById', async () => {
    const w = await setup()
    const org = w.org.id
    const site = w.site.id
    const first = await w.gb.orgs.addSectionToSite(org, site, { spaceId: w.spaces.reference.id, title: 'Reference', icon: 'book' })
    expect(first.status).toBe(201)
    // The first section takes over the root site-space (Guide) and adds its own.
    expect(first.data.siteSpaces.map((s) => s.space.id)).toEqual([w.spaces.guide.id, w.spaces.reference.id])
    expectOfficialResponse('addSectionToSite', 201, first.data)
    const second = await w.gb.orgs.addSectionToSite(org, site, { spaceId: w.spaces.changelog.id, title: null })
    expect(second.data).toMatchObject({ title: 'Changelog', default: false })
    expectOfficialResponse('addSectionToSite', 201, second.data)
    const list = await w.gb.orgs.listSiteSections(org, site)
    expect(list.data.items.map((s) => s.id)).toEqual([first.data.id, second.data.id])
    expectOfficialResponse('listSiteSections', 200, list.data)
    const patched = await w.gb.orgs.updateSiteSectionById(org, site, second.data.id, {
      title: 'News',
      path: 'news',
      description: 'What changed',
      condition: 'visitor.claims.beta',
      icon: null,
    })
    expect(patched.data).toMatchObject({ title: 'News', path: 'news', description: 'What changed', condition: 'visitor.claims.beta' })
    expectOfficialResponse('updateSiteSectionById', 200, patched.data)
    const quiet = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/sections/${second.data.id}`, { description: null }, { prefer: 'return=minimal' })
    expect(quiet.status).toBe(204)
    expectOfficialResponse('updateSiteSectionById', 204, undefined)
    const moved = await w.gb.orgs.moveSiteSection(org, site, second.data.id, { position: { before: { type: 'site-section', siteSection: first.data.id } } })
    expect(moved.status).toBe(200)
    expectOfficialResponse('moveSiteSection', 200, moved.data)
    expect((await w.gb.orgs.listSiteSections(org, site)).data.items.map((s) => s.id)).toEqual([second.data.id, first.data.id])
    const bad = await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections/${second.data.id}/move`, {
      position: { before: { type: 'site-section', siteSection: second.data.id } },
    })
    expect(bad.status).toBe(400)
    expectOfficialResponse('moveSiteSection', 400, bad.body)
    const missing = await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections/nope/move`, {})
    expect(missing.status).toBe(404)
    expectOfficialResponse('moveSiteSection', 404, missing.body)
    const del = await w.gb.orgs.deleteSiteSectionById(org, site, second.data.id)
    // 205 in the official document for an actual removal; the reference answers 204 (also when missing).
    expect(del.status).toBe(204)
    expectOfficialResponse('deleteSiteSectionById', 204, undefined)
    expect((await w.gb.orgs.listSiteSections(org, site)).data.items.map((s) => [s.id, s.default])).toEqual([[first.data.id, true]])
  })

  it('addSectionGroupToSite, listSiteSectionGroups, updateSiteSectionGroupById, addSectionToSectionGroup, deleteSiteSectionGroupById', async () => {
    const w = await setup()
    const org = w.org.id
    const site = w.site.id
    const a = (await w.gb.orgs.addSectionToSite(org, site, { spaceId: w.spaces.reference.id })).data
    const b = (await w.gb.orgs.addSectionToSite(org, site, { spaceId: w.spaces.changelog.id })).data
    const group = await w.gb.orgs.addSectionGroupToSite(org, site, { title: 'Products', icon: 'box', sections: [a.id] })
    expect(group.status).toBe(201)
    expect(group.data.children.map((c) => c.id)).toEqual([a.id])
    expectOfficialResponse('addSectionGroupToSite', 201, group.data)
    const nested = await w.gb.orgs.addSectionGroupToSite(org, site, { title: 'Nested', parent: group.data.id })
    expect(nested.data.sectionGroup).toBe(group.data.id)
    expectOfficialResponse('addSectionGroupToSite', 201, nested.data)
    const list = await w.gb.orgs.listSiteSectionGroups(org, site)
    expect(list.data.items.map((g) => g.id)).toEqual([group.data.id, nested.data.id])
    expectOfficialResponse('listSiteSectionGroups', 200, list.data)
    const patched = await w.gb.orgs.updateSiteSectionGroupById(org, site, nested.data.id, { title: 'Moved', icon: null, parentSectionGroupId: null })
    expect(patched.data).toMatchObject({ title: 'Moved' })
    expect(patched.data.sectionGroup).toBeUndefined()
    expectOfficialResponse('updateSiteSectionGroupById', 200, patched.data)
    const quiet = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/section-groups/${nested.data.id}`, { title: 'Quiet' }, { prefer: 'return=minimal' })
    expect(quiet.status).toBe(204)
    expectOfficialResponse('updateSiteSectionGroupById', 204, undefined)
    // Not in the official document (the reference's own): through `call`; its body is a group, as addSectionGroupToSite answers.
    expect(hasOfficialOperation('addSectionToSectionGroup')).toBe(false)
    const into = await call(w.api, w.tokens.ada, 'POST', `${w.base}/section-groups/${nested.data.id}/sections`, { sectionId: b.id })
    expect(into.status).toBe(201)
    expect(into.body.children.map((c: any) => c.id)).toEqual([b.id])
    expectOfficialResponse('addSectionGroupToSite', 201, into.body)
    const del = await w.gb.orgs.deleteSiteSectionGroupById(org, site, nested.data.id)
    // 205 in the official document for an actual removal; the reference answers 204 (also when missing).
    expect(del.status).toBe(204)
    expectOfficialResponse('deleteSiteSectionGroupById', 204, undefined)
    expect((await w.gb.orgs.listSiteSections(org, site)).data.items.map((s) => [s.id, s.sectionGroup])).toEqual([
      [a.id, group.data.id],
      [b.id, undefined],
    ])
  })

  it('sortSiteStructure for a site-space, a section and a group; errors as the official document declares them', async () => {
    const w = await setup()
    const org = w.org.id
    const site = w.site.id
    const a = (await w.gb.orgs.addSectionToSite(org, site, { spaceId: w.spaces.reference.id })).data
    const group = (await w.gb.orgs.addSectionGroupToSite(org, site, { title: 'Group' })).data
    const extra = (await w.gb.orgs.addSpaceToSite(org, site, { spaceId: w.spaces.changelog.id, sectionId: a.id })).data
    const space = await w.gb.orgs.sortSiteStructure(org, site, {
      item: { type: 'site-space', id: extra.id },
      position: { before: { type: 'site-space', id: a.siteSpaces[0]!.id } },
    })
    expect(space.status).toBe(200)
    expect(space.data).toMatchObject({ object: 'site-space', id: extra.id })
    expectOfficialResponse('sortSiteStructure', 200, space.data)
    const section = await w.gb.orgs.sortSiteStructure(org, site, {
      item: { type: 'site-section', id: a.id },
      position: { after: { type: 'site-section-group', id: group.id } },
    })
    expect(section.data).toMatchObject({ object: 'site-section', id: a.id })
    expectOfficialResponse('sortSiteStructure', 200, section.data)
    const grp = await w.gb.orgs.sortSiteStructure(org, site, { item: { type: 'site-section-group', id: group.id }, position: {} })
    expect(grp.data).toMatchObject({ object: 'site-section-group', id: group.id })
    expectOfficialResponse('sortSiteStructure', 200, grp.data)
    const quiet = await call(
      w.api,
      w.tokens.ada,
      'PATCH',
      `${w.base}/structure/sort`,
      { item: { type: 'site-section', id: a.id }, position: {} },
      { prefer: 'return=minimal' },
    )
    expect(quiet.status).toBe(204)
    expectOfficialResponse('sortSiteStructure', 204, undefined)
    const bad = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/structure/sort`, {
      item: { type: 'site-space', id: extra.id },
      position: { before: { type: 'site-section', id: a.id } },
    })
    expect(bad.status).toBe(400)
    expectOfficialResponse('sortSiteStructure', 400, bad.body)
    const missing = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/structure/sort`, { item: { type: 'site-section', id: 'nope' }, position: {} })
    expect(missing.status).toBe(404)
    expectOfficialResponse('sortSiteStructure', 404, missing.body)
  })

  it('getPublishedContentSite carries the structure: groups, sections and their visible site-spaces, with published URLs', async () => {
    const w = await setup()
    const org = w.org.id
    const site = w.site.id
    const a = (await w.gb.orgs.addSectionToSite(org, site, { spaceId: w.spaces.reference.id, icon: 'book' })).data
    const group = (await w.gb.orgs.addSectionGroupToSite(org, site, { title: 'More', icon: 'box' })).data
    const b = (await w.gb.orgs.addSectionToSite(org, site, { spaceId: w.spaces.changelog.id, siteSectionGroupId: group.id })).data
    await w.gb.orgs.updateSiteSpaceById(org, site, a.siteSpaces[1]!.id, { hidden: true, condition: 'visitor.claims.beta' })
    await w.gb.orgs.updateSiteSectionById(org, site, b.id, { description: 'Releases', condition: 'true' })
    await w.api.fixtures.publishSite(org, site)
    const profile = await w.client(w.tokens.rita).orgs.getPublishedContentSite(org, site)
    expect(profile.status).toBe(200)
    expectOfficialResponse('getPublishedContentSite', 200, profile.data)
    const structure = profile.data.structure as { type: string; structure: any[] }
    expect(structure.type).toBe('sections')
    expect(structure.structure.map((n) => n.id)).toEqual([a.id, group.id])
    expect(structure.structure[0].siteSpaces.map((s: any) => s.id)).toEqual([a.siteSpaces[0]!.id])
    expect(structure.structure[1].children[0]).toMatchObject({ id: b.id, urls: { published: expect.stringMatching(/\/changelog$/) } })
    // The site-structure lists, now with published URLs.
    expectOfficialResponse('listSiteSpaces', 200, (await w.gb.orgs.listSiteSpaces(org, site)).data)
    expectOfficialResponse('listSiteSections', 200, (await w.gb.orgs.listSiteSections(org, site)).data)
    expectOfficialResponse('listSiteSectionGroups', 200, (await w.gb.orgs.listSiteSectionGroups(org, site)).data)
  })

  it('a site without sections: its published structure is its root site-spaces', async () => {
    const w = await setup()
    const published = await w.api.fixtures.publishSite(w.org.id, w.site.id)
    // As a visitor reads it: with the site token its URL resolves to.
    const profile = await call(w.api, await siteToken(w.api, published.urls.published!), 'GET', `${w.base}/published`)
    expect(profile.status).toBe(200)
    expect(profile.body.structure.type).toBe('siteSpaces')
    expect(profile.body.structure.structure.map((s: any) => s.space.id)).toEqual([w.spaces.guide.id])
    expectOfficialResponse('getPublishedContentSite', 200, profile.body)
  })
})

describe('conformance: site structure and site-space customization through @gitbook/api', () => {
  it('getSiteStructure: the site-spaces of a site without sections, then its sections and groups, hidden ones included', async () => {
    const w = await setup()
    const org = w.org.id
    const site = w.site.id
    const flat = await w.gb.orgs.getSiteStructure(org, site)
    expect(flat.status).toBe(200)
    expect(flat.data).toMatchObject({ type: 'siteSpaces', structure: [{ object: 'site-space', space: { id: w.spaces.guide.id } }] })
    expectOfficialResponse('getSiteStructure', 200, flat.data)
    const a = (await w.gb.orgs.addSectionToSite(org, site, { spaceId: w.spaces.reference.id })).data
    const group = (await w.gb.orgs.addSectionGroupToSite(org, site, { title: 'More' })).data
    const b = (await w.gb.orgs.addSectionToSite(org, site, { spaceId: w.spaces.changelog.id, siteSectionGroupId: group.id })).data
    await w.gb.orgs.updateSiteSpaceById(org, site, a.siteSpaces[1]!.id, { hidden: true })
    await w.api.fixtures.publishSite(org, site)
    // A reader (members see the structure as it is: hidden site-spaces included).
    const got = await w.client(w.tokens.rita).orgs.getSiteStructure(org, site)
    expectOfficialResponse('getSiteStructure', 200, got.data)
    const structure = got.data as { type: string; structure: any[] }
    expect(structure.type).toBe('sections')
    expect(structure.structure.map((n) => n.id)).toEqual([a.id, group.id])
    expect(structure.structure[0].siteSpaces.map((s: any) => [s.id, s.hidden])).toEqual([
      [a.siteSpaces[0]!.id, false],
      [a.siteSpaces[1]!.id, true],
    ])
    expect(structure.structure[1].children.map((n: any) => n.id)).toEqual([b.id])
    const outsider = await call(w.api, w.tokens.olga, 'GET', `${w.base}/structure`)
    expect(outsider.status).toBe(404)
    expectOfficialResponse('getSiteStructure', 404, outsider.body)
    expect((await call(w.api, w.tokens.gina, 'GET', `${w.base}/structure`)).status).toBe(404)
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${org}/sites/nope/structure`)).status).toBe(404)
    const twice = await call(w.api, w.tokens.ada, 'GET', `${w.base}/structure?shareKey=a&shareKey=b`)
    expect(twice.status).toBe(400)
    expect(twice.body.error.message).toContain('query parameter `shareKey`')
  })

  it('getSiteSpaceCustomizationById, overrideSiteSpaceCustomizationById, deleteSiteSpaceCustomizationById', async () => {
    const w = await setup()
    const org = w.org.id
    const site = w.site.id
    const siteSpace = (await w.gb.orgs.listSiteSpaces(org, site)).data.items[0]!.id
    const path = `${w.base}/site-spaces/${siteSpace}/customization`
    const initial = await w.gb.orgs.getSiteSpaceCustomizationById(org, site, siteSpace)
    expect(initial.status).toBe(200)
    expect(initial.data).toEqual(DEFAULT_CUSTOMIZATION)
    expectOfficialResponse('getSiteSpaceCustomizationById', 200, initial.data)
    const overridden = await w.gb.orgs.overrideSiteSpaceCustomizationById(org, site, siteSpace, {
      title: 'Guide',
      styling: { theme: 'gradient' as any, sidebar: { list: 'pill' as any } },
      favicon: { emoji: '1f680' },
      themes: { default: 'dark' as any },
    })
    expect(overridden.status).toBe(200)
    expect(overridden.data).toMatchObject({
      title: 'Guide',
      styling: { theme: 'gradient', sidebar: { background: 'default', list: 'pill' }, font: 'Inter' },
      favicon: { emoji: '1f680' },
      themes: { default: 'dark', toggeable: false },
      updatedAt: expect.any(String),
    })
    expectOfficialResponse('overrideSiteSpaceCustomizationById', 200, overridden.data)
    const got = await w.gb.orgs.getSiteSpaceCustomizationById(org, site, siteSpace, { unmasked: false })
    expect(got.data).toEqual(overridden.data)
    expectOfficialResponse('getSiteSpaceCustomizationById', 200, got.data)

    const before = got.data
    const badTheme = await call(w.api, w.tokens.ada, 'PATCH', path, { styling: { theme: 'neon' } })
    expect(badTheme.status).toBe(400)
    expect(badTheme.body.error.message).toContain('body field `styling.theme`')
    expectOfficialResponse('overrideSiteSpaceCustomizationById', 400, badTheme.body)
    const notOverridable = await call(w.api, w.tokens.ada, 'PATCH', path, { ai: { mode: 'assistant' } })
    expect(notOverridable.status).toBe(400)
    expect(notOverridable.body.error.message).toContain('ai')
    const badColor = await call(w.api, w.tokens.ada, 'PATCH', path, { header: { linkColor: { light: '#12345', dark: '#000' } } })
    expect(badColor.body.error.message).toContain('body field `header.linkColor.light`')
    const badQuery = await call(w.api, w.tokens.ada, 'GET', `${path}?unmasked=1`)
    expect(badQuery.body.error.message).toContain('query parameter `unmasked`')
    // A reader reads it and changes nothing; a guest and an outsider do not see the site; an unknown site-space is a 404.
    expect((await call(w.api, w.tokens.rita, 'GET', path)).status).toBe(200)
    for (const [method, body] of [
      ['PATCH', { title: 'Mine' }],
      ['DELETE', undefined],
    ] as const) {
      const reader = await call(w.api, w.tokens.rita, method, path, body)
      expect(reader.status).toBe(403)
      expect((await call(w.api, w.tokens.olga, method, path, body)).status).toBe(404)
      expect((await call(w.api, w.tokens.gina, method, path, body)).status).toBe(404)
      const missing = await call(w.api, w.tokens.ada, method, `${w.base}/site-spaces/nope/customization`, body)
      expect(missing.status).toBe(404)
      expect(missing.body.error.message).toBe('Site space not found')
    }
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/site-spaces/nope/customization`)).status).toBe(404)
    expect((await w.gb.orgs.getSiteSpaceCustomizationById(org, site, siteSpace)).data).toEqual(before)

    // The official answers: 205 when the overrides were removed, 204 when there were none.
    const removed = await call(w.api, w.tokens.ada, 'DELETE', path)
    expect(removed.status).toBe(205)
    expectOfficialResponse('deleteSiteSpaceCustomizationById', 205, undefined)
    expect((await w.gb.orgs.getSiteSpaceCustomizationById(org, site, siteSpace)).data).toEqual(DEFAULT_CUSTOMIZATION)
    const again = await w.gb.orgs.deleteSiteSpaceCustomizationById(org, site, siteSpace)
    expect(again.status).toBe(204)
    expectOfficialResponse('deleteSiteSpaceCustomizationById', 204, undefined)
  })
})
