import { type DocumentBlockEmbed, type JSONDocument, type SiteInsightsEvent } from '@gitbook/api'
import { rendererWorld } from './renderer-world.js'
import { describe, expect, it } from 'vitest'
import { expectOfficialResponse } from './official.js'

/**
 * The renderer's calls for an embed block and for its visitors' page views, replayed over the demo
 * data (GitBook Open: components/DocumentView/Embed.tsx and lib/data/api.ts `getEmbedByUrl`, with
 * the site token of the visit; lib/tracking.ts `trackEventsInSiteById`, with no token).
 */

/** Every embed block of a document, at any depth. */
function embedsOf(node: { nodes?: unknown[] }): DocumentBlockEmbed[] {
  return (node.nodes ?? []).flatMap((child) => {
    const c = child as { type?: string; nodes?: unknown[] }
    return [...(c.type === 'embed' ? [c as DocumentBlockEmbed] : []), ...embedsOf(c)]
  })
}

describe('contract: GitBook renderer, embeds and insights over the demo data', () => {
  it("the Acme Docs page with an embed: its block's URL resolved with the site token, as the renderer shows it", async () => {
    const { demo, site, client, visit } = await rendererWorld()
    const { content: resolved, gb: reader } = await visit(`${site.urls.published}/video-tour`)
    expect(resolved).toMatchObject({ site: demo.site.id })
    const space = (await reader.spaces.getSpaceById(resolved.space)).data
    const page = (await reader.spaces.getPageInRevisionByPath(space.id, space.revision, 'video-tour')).data
    const document = (
      await reader.spaces.getPageDocumentInRevisionById(space.id, space.revision, page.id, {
        evaluated: 'deterministic-only',
        dereferenced: 'reusable-contents',
      })
    ).data as JSONDocument
    const [block] = embedsOf(document)
    expect(block?.data.url).toBe('https://vimeo.com/acme/getting-started-tour')

    const embed = await reader.spaces.getEmbedByUrlInSpace(space.id, { url: block!.data.url })
    expect(embed.status).toBe(200)
    expectOfficialResponse('getEmbedByUrlInSpace', 200, embed.data)
    // What Embed.tsx reads of a link embed: the card's title and site.
    expect(embed.data).toEqual({ type: 'link', title: 'getting started tour', site: 'vimeo.com' })

    // The page view of that visit, as tracking.ts sends it (no token).
    const view = {
      type: 'page_view',
      session: { sessionId: 's', visitorId: 'v', userAgent: 'Mozilla/5.0', language: 'en', cookies: {}, referrer: null },
      location: {
        url: `${site.urls.published}/video-tour`,
        siteSection: null,
        siteSpace: resolved.siteSpace ?? null,
        siteShareKey: null,
        space: space.id,
        revision: space.revision,
        page: page.id,
      },
      timestamp: new Date().toISOString(),
    } as SiteInsightsEvent
    expect((await client().orgs.trackEventsInSiteById(demo.organization.id, demo.site.id, { events: [view] })).status).toBe(204)
    const views = await client(demo.readerToken).orgs.aggregateSiteEvents(demo.organization.id, demo.site.id, {
      range: 'last24Hours',
      groupBy: [{ column: 'page' }],
    } as never)
    expectOfficialResponse('aggregateSiteEvents', 200, views.data)
    expect(views.data.columns).toEqual([
      { column: 'page', values: [{ page: page.id, space: space.id }] },
      { column: 'eventsCount', values: [1] },
    ])
  })
})
