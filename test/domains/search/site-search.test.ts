import { describe, expect, it } from 'vitest'
import type { DocsApi } from '../../../src/index.js'
import { call, expectError, resolveUrl, spaceWorld } from '../../helpers.js'
import { longestStall, prose } from '../../stall.js'
import { askWorld, type AskWorld } from '../ask/helpers.js'
import { publish } from './helpers.js'

/** docs/behaviour/search.md (site search): what `searchSiteContent` reads, for whom, in which scope. */

type SiteResults = {
  items: Array<{ type: 'space'; id: string; title: string; pages: Array<{ id: string; title: string; path: string; sections: Array<{ body: string }> }> }>
}

const searchSite = (api: DocsApi, token: string | undefined, org: string, site: string, body: unknown) =>
  call<SiteResults>(api, token, 'POST', `/v1/orgs/${org}/sites/${site}/search`, body)

/** The titles of the pages found, in answer order, each as `Space/Page`. */
const found = (body: SiteResults) => body.items.flatMap((s) => s.pages.map((p) => `${s.title}/${p.title}`))

const all = { mode: 'all' }

/** The site of askWorld published, and a site token for its root URL with `unsignedClaims`. */
async function published(w: AskWorld) {
  const site = await call(w.api, w.tokens.ada, 'POST', `${w.base}/publish`)
  expect(site.status, JSON.stringify(site.body)).toBe(200)
  const url = site.body.urls.published as string
  const token = async (unsignedClaims: Record<string, unknown> = {}) => {
    const res = await resolveUrl(w.api, url, { visitor: { unsignedClaims } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.apiToken as string
  }
  return { url, token }
}

describe('searchSiteContent', () => {
  it("finds a page by a word of its body and by a word of its title, in the site's spaces only, grouped by space", async () => {
    const w = await askWorld()
    const { token } = await published(w)
    const visitor = await token()
    const body = await searchSite(w.api, visitor, w.org.id, w.site.id, { query: 'installer', scope: all })
    expect(body.status, JSON.stringify(body.body)).toBe(200)
    expect(found(body.body)).toEqual(['Handbook/Install'])
    const install = body.body.items[0]!.pages[0]!
    expect(body.body.items[0]).toMatchObject({ type: 'space', id: w.spaces.handbook })
    expect(install).toMatchObject({ id: w.pages.install, path: 'install', resultType: 'section', rank: 1 })
    expect(install.sections).toHaveLength(1)
    expect(install.sections[0]!.body).toContain('Download the installer')
    // By its title alone ("Lantern soup": the word is not in its body): the page matched on its own fields.
    const soup = await searchSite(w.api, visitor, w.org.id, w.site.id, { query: 'soup', scope: all })
    expect(found(soup.body)).toEqual(['Recipes/Lantern soup'])
    expect(soup.body.items[0]!.pages[0]).toMatchObject({ resultType: 'page', path: 'lantern-soup' })
    // Every published space, never one the site does not publish (Private notes has the word too).
    const lantern = await searchSite(w.api, visitor, w.org.id, w.site.id, { query: 'lantern', scope: all })
    expect(lantern.body.items.map((s) => s.title).sort()).toEqual(['Api', 'Handbook', 'Recipes'])
    expect(JSON.stringify(lantern.body)).not.toContain('hunter2')
    // What the site's spaces hold now: a merge shows at the next search.
    await publish(w, w.spaces.recipes, [{ operation: 'insert_page', title: 'Firefly jam', document: { markdown: 'Glowing preserves.' } }])
    expect(found((await searchSite(w.api, visitor, w.org.id, w.site.id, { query: 'glowing', scope: all })).body)).toEqual(['Recipes/Firefly jam'])
    // Nothing to find: an empty list.
    expect((await searchSite(w.api, visitor, w.org.id, w.site.id, { query: '', scope: all })).body).toEqual({ items: [], count: 0 })
  })

  it('honours the scope, the official one and the deprecated top-level form the renderer sends', async () => {
    const w = await askWorld()
    const { token } = await published(w)
    const visitor = await token()
    const spaces = async (body: Record<string, unknown>) => {
      const res = await searchSite(w.api, visitor, w.org.id, w.site.id, { query: 'lantern', ...body })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return res.body.items.map((s) => s.title).sort()
    }
    // Default: each section's default content (Guides: Handbook; Reference: Api), and the current one.
    expect(await spaces({ scope: { mode: 'default' } })).toEqual(['Api', 'Handbook'])
    expect(await spaces({ scope: { mode: 'default', currentSiteSpace: w.siteSpaces.recipes } })).toEqual(['Api', 'Handbook', 'Recipes'])
    expect(await spaces({ scope: { mode: 'default', currentSiteSpace: w.siteSpaces.recipes, restrictTo: 'currentSiteSpace' } })).toEqual(['Recipes'])
    expect(await spaces({ scope: { mode: 'default', currentSiteSpace: w.siteSpaces.handbook, restrictTo: 'otherSiteSpaces' } })).toEqual(['Api'])
    expect(await spaces({ scope: { mode: 'specific', siteSpaceIds: [w.siteSpaces.recipes, w.siteSpaces.api] } })).toEqual(['Api', 'Recipes'])
    expect(await spaces({ scope: all })).toEqual(['Api', 'Handbook', 'Recipes'])
    // Deprecated: `mode: current` is the default scope from a site-space; `siteSpaceIds` the specific one.
    expect(await spaces({ mode: 'current', siteSpaceId: w.siteSpaces.recipes })).toEqual(['Api', 'Handbook', 'Recipes'])
    expect(await spaces({ mode: 'all' })).toEqual(['Api', 'Handbook', 'Recipes'])
    expect(await spaces({ mode: 'specific', siteSpaceIds: [w.siteSpaces.api] })).toEqual(['Api'])
    expect(await spaces({ siteSpaceIds: [w.siteSpaces.recipes] })).toEqual(['Recipes'])
  })

  it("leaves out what the site does not show its visitor: hidden site-spaces, trashed spaces, and variants and sections whose condition the visitor's claims do not meet", async () => {
    const w = await askWorld()
    const { token } = await published(w)
    const titles = async (bearer: string, scope: unknown = all) =>
      (await searchSite(w.api, bearer, w.org.id, w.site.id, { query: 'lantern', scope })).body.items.map((s) => s.title).sort()
    await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/site-spaces/${w.siteSpaces.recipes}`, { condition: 'visitor.claims.unsigned.cook == true' })
    await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/sections/${w.sections.reference}`, { condition: 'visitor.claims.unsigned.dev == true' })
    expect(await titles(await token())).toEqual(['Handbook'])
    expect(await titles(await token({ cook: true }))).toEqual(['Handbook', 'Recipes'])
    expect(await titles(await token({ cook: true, dev: true }))).toEqual(['Api', 'Handbook', 'Recipes'])
    // Named explicitly, a site-space the visitor may not see is still left out.
    expect(await titles(await token(), { mode: 'specific', siteSpaceIds: [w.siteSpaces.recipes] })).toEqual([])
    // Members with a role have no visitor: they see every variant (as in meta links).
    expect(await titles(w.tokens.rita)).toEqual(['Api', 'Handbook', 'Recipes'])
    // Hidden, trashed: out for everyone.
    await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/site-spaces/${w.siteSpaces.recipes}`, { hidden: true })
    expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${w.spaces.api}`)).status).toBe(204)
    expect(await titles(await token({ cook: true, dev: true }))).toEqual(['Handbook'])
    expect(await titles(w.tokens.rita)).toEqual(['Handbook'])
  })

  it('answers members from a site not yet published; refuses guests, outsiders and the token of another site (404)', async () => {
    const w = await askWorld()
    const ask = (token: string | undefined) => searchSite(w.api, token, w.org.id, w.site.id, { query: 'lantern', scope: all })
    expect((await ask(w.tokens.rita)).status).toBe(200)
    expectError(await ask(w.tokens.gina), 404, 'Site not found')
    expectError(await ask(w.tokens.olga), 404, 'Organization not found')
    expectError(await ask(undefined), 401, '')
    const other = await w.api.fixtures.createSite(w.org.id, { title: 'Other', spaces: [w.spaces.notes], published: true })
    const otherUrl = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/sites/${other.id}`)).body.urls.published as string
    const otherToken = (await resolveUrl(w.api, otherUrl)).body.apiToken as string
    expectError(await ask(otherToken), 404, 'Site not found')
    // Its own site: found.
    expect(found((await searchSite(w.api, otherToken, w.org.id, other.id, { query: 'lantern', scope: all })).body)).toEqual(['Private notes/Lantern secrets'])
  })

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const w = await askWorld()
    const before = w.api.dump()
    const bad = async (body: unknown, message: string) => expectError(await searchSite(w.api, w.tokens.ada, w.org.id, w.site.id, body), 400, message)
    await bad({ query: 'q'.repeat(513), scope: all }, 'body field `query`: must be at most 512 characters')
    await bad({ scope: all }, 'body field `query`: is required')
    await bad({ query: 'lantern' }, 'body field `scope`: is required')
    await bad(
      { query: 'lantern', scope: { mode: 'specific', siteSpaceIds: [w.siteSpaces.api, 'nope'] } },
      'body field `scope.siteSpaceIds[1]`: no site-space nope in this site',
    )
    await bad({ query: 'lantern', scope: { mode: 'default', currentSiteSpace: 'nope' } }, 'body field `scope.currentSiteSpace`: no site-space nope')
    await bad({ query: 'lantern', mode: 'current', siteSpaceId: 'nope' }, 'body field `siteSpaceId`: no site-space nope')
    await bad({ query: 'lantern', siteSpaceIds: ['nope'] }, 'body field `siteSpaceIds[0]`: no site-space nope')
    await bad({ query: 'lantern', mode: 'current' }, 'body field `siteSpaceId`: is required with `mode: current`')
    await bad({ query: 'lantern', scope: all, mode: 'all' }, 'body field `mode`: must not be given with `scope`')
    await bad({ query: 'lantern', scope: { mode: 'default', restrictTo: 'currentSiteSpace' } }, '`restrictTo` needs `currentSiteSpace`')
    expect(w.api.dump()).toEqual(before)
  })
})

describe('prewarmSiteSearch', () => {
  it("builds the indexes of the site's spaces: the next search indexes nothing", async () => {
    const w = await askWorld()
    const internals = w.api as unknown as { [k: symbol]: { runtime: { services: { search: { stats: { pagesIndexed: number } } } } } }
    const search = Object.getOwnPropertySymbols(internals)
      .map((k) => internals[k])
      .find((core) => core?.runtime?.services?.search)!.runtime.services.search
    const before = search.stats.pagesIndexed
    const warm = await call(w.api, w.tokens.rita, 'POST', `${w.base}/search/prewarm`)
    expect(warm.status).toBe(204)
    // Handbook (2 pages), Recipes (1), Api (1): not Private notes.
    expect(search.stats.pagesIndexed - before).toBe(4)
    const after = search.stats.pagesIndexed
    expect(found((await searchSite(w.api, w.tokens.rita, w.org.id, w.site.id, { query: 'soup', scope: all })).body)).toEqual(['Recipes/Lantern soup'])
    expect(search.stats.pagesIndexed).toBe(after)
    expectError(await call(w.api, w.tokens.gina, 'POST', `${w.base}/search/prewarm`), 404, 'Site not found')
  })

  it('indexes a large site in slices: the event loop keeps turning, and the search after it answers at once', async () => {
    const { api, org, space, call: v1 } = await spaceWorld()
    const cr = await (await v1('POST', `/spaces/${space.id}/change-requests`, {})).json()
    // JSON documents (markdown of this size would take most of the test to parse).
    const paragraph = (text: string) => ({
      object: 'block',
      type: 'paragraph',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    })
    const changes = Array.from({ length: 30 }, (_, n) => ({
      operation: 'insert_page',
      title: `Page ${n}`,
      document: { document: { object: 'document', data: {}, nodes: [...prose(120_000).split('\n\n').map(paragraph), paragraph(`lantern${n}`)] } },
    }))
    expect((await v1('POST', `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes })).status).toBe(200)
    expect((await v1('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200)
    const site = await api.fixtures.createSite(org.id, { title: 'Docs', spaces: [space.id], published: true })
    const warm = await longestStall(() => v1('POST', `/orgs/${org.id}/sites/${site.id}/search/prewarm`))
    expect(warm.result.status).toBe(204)
    expect(warm.stall).toBeLessThan(warm.total / 4)
    // Nothing left to index: the search is a small part of the prewarm's time.
    const searched = await longestStall(() => v1('POST', `/orgs/${org.id}/sites/${site.id}/search`, { query: 'lantern7', mode: 'all' }))
    expect((await searched.result.json()).items[0].pages[0].title).toBe('Page 7')
    expect(searched.total).toBeLessThan(warm.total / 4)
  })
})

describe('Ask reads the scope site search reads (search/site-scope.ts)', () => {
  it("a site token's visitor is not answered from a variant or section whose condition his claims do not meet", async () => {
    const w = await askWorld()
    const { url } = await published(w)
    await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/site-spaces/${w.siteSpaces.recipes}`, { condition: 'visitor.claims.unsigned.cook == true' })
    await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/sections/${w.sections.reference}`, { condition: 'visitor.claims.unsigned.dev == true' })
    const api = w.api.fork({ ask: ({ passages }) => ({ markdown: [...new Set(passages.map((p) => p.space))].sort().join(',') || 'none' }) })
    // The fork signs its own site tokens.
    const token = async (unsignedClaims: Record<string, unknown> = {}) => (await resolveUrl(api, url, { visitor: { unsignedClaims } })).body.apiToken as string
    const asked = async (bearer: string) => {
      const res = await api.fetch(
        new Request(`http://localhost:4000${w.base}/ask?format=markdown`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({ question: 'lantern', scope: all }),
        }),
      )
      expect(res.status).toBe(200)
      const text = await res.text()
      return JSON.parse(
        text
          .split('\n')
          .find((line) => line.startsWith('data: '))!
          .slice(6),
      ).answer.answer.markdown.split(',')
    }
    expect(await asked(await token())).toEqual([w.spaces.handbook])
    expect(await asked(await token({ cook: true, dev: true }))).toEqual([w.spaces.handbook, w.spaces.recipes, w.spaces.api].sort())
    expect(await asked(w.tokens.rita)).toEqual([w.spaces.handbook, w.spaces.recipes, w.spaces.api].sort())
  })
})
