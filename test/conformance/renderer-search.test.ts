import { type SearchSpaceResult, type SiteSearchScope } from '@gitbook/api'
import { rendererWorld } from './renderer-world.js'
import { describe, expect, it } from 'vitest'
import { expectOfficialResponse } from './official.js'

/**
 * GitBook's renderer's site search, replayed over the demo data (GitBook Open,
 * packages/gitbook/src/lib/data/api.ts `searchSiteContent`): its search box's route
 * (`~gitbook/search/route.ts`) and its MCP tool (`~gitbook/mcp/handler.ts`) call
 * `api.orgs.searchSiteContent` with the visit's site token and a body made from the UI's scope
 * exactly as below, then read each space result's `id` (the space, found in the published
 * profile's structure for its `urls.published`), and each page's `id`, `title`, `path`, `score`,
 * `resultType`, `ancestors` and its sections' `id`, `title`, `path`, `body`, `score`.
 */

/** The renderer's scope (search-types.ts `SearchSiteContentScope`). */
type RendererScope =
  { mode: 'all' } | { mode: 'current'; siteSpaceId: string; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' } | { mode: 'specific'; siteSpaceIds: string[] }

/** The body the renderer sends for a scope (api.ts: only a scope with `restrictTo` becomes `scope`; the others are spread). */
const bodyOf = (query: string, scope: RendererScope) => ({
  query,
  ...(scope.mode === 'current' && scope.restrictTo
    ? { scope: { mode: 'default', currentSiteSpace: scope.siteSpaceId, restrictTo: scope.restrictTo } as SiteSearchScope }
    : scope),
})

const setup = rendererWorld

describe("contract: GitBook renderer's site search over the demo data", () => {
  it('the search box and the MCP tool find a page by a word of its body and by a word of its title, at a URL that opens it', async () => {
    const { site, visit } = await setup()
    const root = await visit(site.urls.published!)
    const profile = await root.gb.orgs.getPublishedContentSite(root.content.organization, root.content.site)
    const siteSpaces = profile.data.structure.type === 'siteSpaces' ? profile.data.structure.structure : []
    expect(siteSpaces.map((s) => s.space.title)).toEqual(['Getting started', 'API reference'])

    /** A search as the route makes it, each result turned into the URL the renderer links to. */
    const search = async (gb: typeof root.gb, query: string, scope: RendererScope) => {
      const res = await gb.orgs.searchSiteContent(root.content.organization, root.content.site, bodyOf(query, scope) as never, {})
      expectOfficialResponse('searchSiteContent', 200, res.data)
      return (res.data.items as SearchSpaceResult[]).flatMap((space) => {
        const siteSpace = siteSpaces.find((s) => s.space.id === space.id)
        expect(siteSpace, `${space.title}: a space of the published structure`).toBeDefined()
        return space.pages.map((page) => ({ title: page.title, url: `${siteSpace!.urls.published}/${page.path}`, body: page.sections?.[0]?.body ?? '', page }))
      })
    }
    const opens = async (url: string, pageTitle: string) => {
      const { content, gb } = await visit(url)
      const page = await gb.spaces.getPageByPath(content.space, content.pathname)
      expect(page.data.title).toBe(pageTitle)
    }

    // The search box on the default site-space (a site without sections: `mode: current`).
    const current = { mode: 'current' as const, siteSpaceId: root.content.siteSpace }
    const byBody = await search(root.gb, 'doctor', current)
    expect(byBody.map((r) => r.title)).toEqual(['Installation'])
    expect(byBody[0]!.body).toContain('acme doctor')
    expect(byBody[0]!.page.resultType).toBe('section')
    await opens(byBody[0]!.url, 'Installation')
    const byTitle = await search(root.gb, 'configuration', current)
    expect(byTitle[0]!.title).toBe('Configuration')
    expect(byTitle[0]!.page.resultType).toBe('page')
    await opens(byTitle[0]!.url, 'Configuration')
    // Only the current site-space: the other variant's pages are not in this scope.
    expect(await search(root.gb, 'limits', current)).toEqual([])

    // From the API reference's URL, with its own token: its own site-space.
    const reference = await visit(siteSpaces[1]!.urls.published!)
    const limits = await search(reference.gb, 'limits', { mode: 'current', siteSpaceId: reference.content.siteSpace })
    expect(limits.map((r) => r.title)).toEqual(['Rate limits'])
    await opens(limits[0]!.url, 'Rate limits')
    const restricted = await search(reference.gb, 'bearer', { mode: 'current', siteSpaceId: reference.content.siteSpace, restrictTo: 'currentSiteSpace' })
    expect(restricted.map((r) => r.title)).toEqual(['Authentication'])

    // The "all" scope, and the MCP tool's call (`{ mode: 'all' }`): both variants; never the handbook, which this site does not publish.
    const everywhere = await search(root.gb, 'limits doctor', { mode: 'all' })
    expect(everywhere.map((r) => r.title).sort()).toEqual(['Installation', 'Rate limits'])
    for (const result of everywhere) await opens(result.url, result.title)
    expect(await search(root.gb, 'rotation', { mode: 'all' })).toEqual([])
    expect(await search(root.gb, 'installation', { mode: 'specific', siteSpaceIds: siteSpaces.map((s) => s.id) })).not.toEqual([])
  })
})
