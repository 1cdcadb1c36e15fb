import { describe, expect, it } from 'vitest'
import { DEFAULT_CUSTOMIZATION } from '../../../src/domains/sites/customization.js'
import { call, createWorld, expectError, type World, siteToken } from '../../helpers.js'

/** Site and site-space customization (docs/behaviour/sites.md, published-profile-and-share-keys.md). */

/** A published site of two spaces (two site-spaces at its root), with paths to its customization. */
async function setup() {
  const w = await createWorld()
  const guide = await w.api.fixtures.createSpace(w.org.id, { title: 'Guide' })
  const api = await w.api.fixtures.createSpace(w.org.id, { title: 'API' })
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [guide.id, api.id], published: true })
  const base = `/v1/orgs/${w.org.id}/sites/${site.id}`
  const [first, second] = (await call(w.api, w.tokens.ada, 'GET', `${base}/site-spaces`)).body.items.map((s: { id: string }) => s.id) as [string, string]
  const of = (siteSpace: string) => `${base}/site-spaces/${siteSpace}/customization`
  return { ...w, site, base, siteSpaces: [first, second] as const, of }
}

/** Everything customization touches: a failed request leaves it as it was. */
const customizationRows = (w: World) =>
  w.api.store.read((tx) => ({ site: tx.all('siteCustomizations'), siteSpaces: tx.all('siteSpaceCustomizations'), sites: tx.all('sites') }))

const styled = { styling: { theme: 'bold', primaryColor: { light: '#ff0000', dark: '#880000' }, sidebar: { background: 'filled', list: 'line' } } }

describe('site customization', () => {
  it('a site never customized answers the default; a PUT replaces it whole, what it leaves out taking the default', async () => {
    const w = await setup()
    const initial = await call(w.api, w.tokens.ada, 'GET', `${w.base}/customization`)
    expect(initial.body).toEqual(DEFAULT_CUSTOMIZATION)
    expect(initial.body.updatedAt).toBeUndefined()
    const first = await call(w.api, w.tokens.ada, 'PUT', `${w.base}/customization`, { ...styled, title: 'Acme', footer: { groups: [], copyright: '© Acme' } })
    expect(first.body).toMatchObject({
      title: 'Acme',
      styling: { theme: 'bold', primaryColor: { light: '#ff0000' }, sidebar: { background: 'filled', list: 'line' }, font: 'Inter', search: 'prominent' },
      footer: { groups: [], copyright: '© Acme' },
      themes: DEFAULT_CUSTOMIZATION.themes,
    })
    // Not a merge: a second PUT without the title or the footer's copyright loses them.
    w.clock.advance(1000)
    const second = await call(w.api, w.tokens.ada, 'PUT', `${w.base}/customization`, { styling: { theme: 'muted' } })
    expect(second.body.title).toBeUndefined()
    expect(second.body.footer).toEqual(DEFAULT_CUSTOMIZATION.footer)
    expect(second.body.styling).toEqual({ ...DEFAULT_CUSTOMIZATION.styling, theme: 'muted' })
    expect(second.body.updatedAt > first.body.updatedAt).toBe(true)
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/customization`)).body).toEqual(second.body)
  })

  it('a failed request changes nothing: a value outside the official enums is a 400 naming the field, a reader gets 403', async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'PUT', `${w.base}/customization`, styled)
    await call(w.api, w.tokens.ada, 'PATCH', w.of(w.siteSpaces[0]), { styling: { theme: 'gradient' } })
    const before = customizationRows(w)
    const bad: Array<[string, string, unknown, string]> = [
      ['PUT', `${w.base}/customization`, { styling: { ...styled.styling, corners: 'sharp' } }, 'body field `styling.corners`'],
      ['PUT', `${w.base}/customization`, { themes: { default: 'sepia', toggeable: true } }, 'body field `themes.default`'],
      [
        'PUT',
        `${w.base}/customization`,
        { styling: { codeTheme: { default: { light: 'github-light', dark: 'vscode' } } } },
        'body field `styling.codeTheme.default.dark`',
      ],
      [
        'PUT',
        `${w.base}/customization`,
        { socialAccounts: [{ platform: 'myspace', handle: 'acme', display: { footer: true, header: false } }] },
        '`socialAccounts[0].platform`',
      ],
      [
        'PUT',
        `${w.base}/customization`,
        { header: { preset: 'default', links: [{ title: 'x', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] }] } },
        '`header.links[0].to.url`',
      ],
      ['PATCH', w.of(w.siteSpaces[0]), { styling: { primaryColor: { light: '#ff0000' } } }, 'body field `styling.primaryColor.dark`'],
      ['PATCH', w.of(w.siteSpaces[0]), { styling: { font: 'Roboto' } }, '`styling`'],
      ['PATCH', w.of(w.siteSpaces[0]), { internationalization: { locale: 'xx' } }, 'body field `internationalization.locale`'],
    ]
    for (const [method, path, body, field] of bad) {
      expectError(await call(w.api, w.tokens.ada, method, path, body), 400, field)
      expect(customizationRows(w), field).toEqual(before)
    }
    for (const [method, path, body] of [
      ['PUT', `${w.base}/customization`, styled],
      ['PATCH', w.of(w.siteSpaces[1]), { styling: { theme: 'muted' } }],
      ['DELETE', w.of(w.siteSpaces[0]), undefined],
    ] as const) {
      expectError(await call(w.api, w.tokens.rita, method, path, body), 403, 'You need the edit role on this site')
      expect(customizationRows(w)).toEqual(before)
    }
  })
})

describe('site-space customization', () => {
  it("an override sets fields over the site's, section by section; null clears a field; the rest follows the site", async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'PUT', `${w.base}/customization`, { ...styled, title: 'Acme Docs' })
    const [guide, api] = w.siteSpaces
    const overridden = await call(w.api, w.tokens.ada, 'PATCH', w.of(guide), {
      styling: { theme: 'gradient', sidebar: { list: 'pill' } },
      header: { logo: { light: 'https://acme.test/l.png', dark: 'https://acme.test/d.png' } },
      favicon: { emoji: '1f4d8' },
    })
    expect(overridden.status).toBe(200)
    // Sections merge field by field: the site's primary colour and sidebar background stay.
    expect(overridden.body.styling).toMatchObject({
      theme: 'gradient',
      primaryColor: styled.styling.primaryColor,
      sidebar: { background: 'filled', list: 'pill' },
    })
    expect(overridden.body.header).toEqual({ preset: 'default', links: [], logo: { light: 'https://acme.test/l.png', dark: 'https://acme.test/d.png' } })
    expect(overridden.body).toMatchObject({ title: 'Acme Docs', favicon: { emoji: '1f4d8' } })
    // The other site-space shows the site's.
    const site = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/customization`)).body
    expect((await call(w.api, w.tokens.ada, 'GET', w.of(api))).body).toEqual(site)
    // A later PATCH adds to the override; null clears a field (the site's shows again), a value object is replaced whole.
    const next = await call(w.api, w.tokens.ada, 'PATCH', w.of(guide), {
      styling: { theme: null, primaryColor: { light: '#00aa00', dark: '#005500' } },
      favicon: null,
    })
    expect(next.body.styling).toMatchObject({
      theme: 'bold',
      primaryColor: { light: '#00aa00', dark: '#005500' },
      sidebar: { background: 'filled', list: 'pill' },
    })
    expect(next.body.favicon).toEqual({})
    expect(next.body.header.logo).toEqual({ light: 'https://acme.test/l.png', dark: 'https://acme.test/d.png' })
    // The site changes: what the site-space does not override follows.
    await call(w.api, w.tokens.ada, 'PUT', `${w.base}/customization`, { styling: { theme: 'clean', depth: 'flat' } })
    const after = (await call(w.api, w.tokens.ada, 'GET', w.of(guide))).body
    expect(after.styling).toMatchObject({ theme: 'clean', depth: 'flat', primaryColor: { light: '#00aa00' }, sidebar: { background: 'default', list: 'pill' } })
    expect(after.title).toBeUndefined()
  })

  it("clearing every overridden field, or deleting the override, reverts to the site's customization", async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'PUT', `${w.base}/customization`, styled)
    const site = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/customization`)).body
    const [guide, api] = w.siteSpaces
    await call(w.api, w.tokens.ada, 'PATCH', w.of(guide), { styling: { theme: 'gradient' }, title: 'Guide' })
    await call(w.api, w.tokens.ada, 'PATCH', w.of(api), { styling: { theme: 'muted' } })
    expect((await call(w.api, w.tokens.ada, 'DELETE', w.of(guide))).status).toBe(205)
    expect((await call(w.api, w.tokens.ada, 'GET', w.of(guide))).body).toEqual(site)
    expect((await call(w.api, w.tokens.ada, 'DELETE', w.of(guide))).status).toBe(204)
    // Cleared field by field, the override is gone too (nothing left to remove).
    const cleared = await call(w.api, w.tokens.ada, 'PATCH', w.of(api), { styling: { theme: null } })
    expect(cleared.body).toEqual(site)
    expect(w.api.store.read((tx) => tx.all('siteSpaceCustomizations'))).toEqual([])
    expect((await call(w.api, w.tokens.ada, 'DELETE', w.of(api))).status).toBe(204)
  })

  it('goes with its site-space, its section and its site', async () => {
    const w = await setup()
    const [guide, api] = w.siteSpaces
    const count = () => w.api.store.read((tx) => [tx.all('siteSpaceCustomizations').length, tx.all('siteCustomizations').length])
    await call(w.api, w.tokens.ada, 'PUT', `${w.base}/customization`, styled)
    for (const id of [guide, api]) await call(w.api, w.tokens.ada, 'PATCH', w.of(id), { styling: { theme: 'muted' } })
    expect(count()).toEqual([2, 1])
    expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/site-spaces/${api}`)).status).toBe(204)
    expect(count()).toEqual([1, 1])
    // The site's first section takes its root site-spaces (and their customization) over; deleting the section removes them.
    const other = await w.api.fixtures.createSpace(w.org.id, { title: 'Other' })
    const section = (await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections`, { spaceId: other.id, title: 'Main' })).body
    expect(section.siteSpaces.map((s: { id: string }) => s.id)).toContain(guide)
    expect((await call(w.api, w.tokens.ada, 'GET', w.of(guide))).body.styling.theme).toBe('muted')
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/sections`, { spaceId: other.id, title: 'Second' })
    expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/sections/${section.id}`)).status).toBe(204)
    expect(count()).toEqual([0, 1])
    const last = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/site-spaces`)).body.items[0].id
    await call(w.api, w.tokens.ada, 'PATCH', w.of(last), { title: 'Last' })
    expect(count()).toEqual([1, 1])
    expect((await call(w.api, w.tokens.ada, 'DELETE', w.base)).status).toBe(204)
    expect(count()).toEqual([0, 0])
  })
})

describe('the published profile carries both', () => {
  it("customizations.site is the site's, customizations.siteSpaces what each site-space of the published structure shows, by id", async () => {
    const w = await setup()
    const [guide, api] = w.siteSpaces
    const hiddenSpace = await w.api.fixtures.createSpace(w.org.id, { title: 'Hidden' })
    const hidden = (await call(w.api, w.tokens.ada, 'POST', `${w.base}/site-spaces`, { spaceId: hiddenSpace.id })).body.id
    await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/site-spaces/${hidden}`, { hidden: true })
    // Read as a visitor reads it: with the site token its published URL resolves to.
    const visitor = await siteToken(w.api, (await call(w.api, w.tokens.ada, 'GET', w.base)).body.urls.published)
    const published = async () => (await call(w.api, visitor, 'GET', `${w.base}/published`)).body.customizations
    // Never customized: the default everywhere.
    expect(await published()).toEqual({ site: DEFAULT_CUSTOMIZATION, siteSpaces: { [guide]: DEFAULT_CUSTOMIZATION, [api]: DEFAULT_CUSTOMIZATION } })
    await call(w.api, w.tokens.ada, 'PUT', `${w.base}/customization`, { ...styled, ai: { mode: 'assistant', instructions: 'Answer in French.' } })
    await call(w.api, w.tokens.ada, 'PATCH', w.of(api), { styling: { theme: 'gradient' }, title: 'API reference' })
    await call(w.api, w.tokens.ada, 'PATCH', w.of(hidden), { styling: { theme: 'muted' } })
    const site = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/customization`)).body
    const overridden = (await call(w.api, w.tokens.ada, 'GET', w.of(api))).body
    // Visitors never get the assistant's instructions (the official schema keeps them for site admins).
    const { instructions, ...ai } = site.ai
    expect(instructions).toBe('Answer in French.')
    const customizations = await published()
    expect(customizations.site).toEqual({ ...site, ai })
    expect(Object.keys(customizations.siteSpaces)).toEqual([guide, api])
    expect(customizations.siteSpaces[guide]).toEqual({ ...site, ai })
    expect(customizations.siteSpaces[api]).toEqual({ ...overridden, ai })
    expect(customizations.siteSpaces[api]).toMatchObject({ title: 'API reference', styling: { theme: 'gradient', primaryColor: styled.styling.primaryColor } })
    // Deleting the override: the site-space shows the site's again.
    await call(w.api, w.tokens.ada, 'DELETE', w.of(api))
    expect((await published()).siteSpaces[api]).toEqual({ ...site, ai })
  })
})
