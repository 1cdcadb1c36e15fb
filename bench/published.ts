import { compare, formatOps } from './harness.js'
import type { Result } from './measures.js'
import { contentWorld, LARGE, leafOf, READ_TARGET, SMALL, type ContentWorld } from './content.js'
import { apiWorld, BASE, expectStatus, type World } from './world.js'

/**
 * The published-site measures (issue 19): what GitBook's renderer asks of the API, in process
 * through `api.fetch`, at two sizes in alternating rounds; the result is the cost at the large size
 * over the cost at the small one.
 *
 * (q) One rendered page: a site publishing one space of 10 or 1,000 pages (the content measures'
 *     spaces), and for a page, the calls the renderer makes for each page (packages/gitbook/src/lib/data):
 *     the URL resolved (`POST /v1/urls/published`), then with the site token it gives: the
 *     published profile, the space, the page's meta links and its document. Not the revision
 *     (`getRevisionById`): its answer is the whole page tree (O(pages) by the official schema),
 *     which the renderer keeps (`'use cache'`, `cacheLife('max')`) and reads once per revision;
 *     the API keeps its JSON too (content/handlers.ts answerRevision).
 * (r) Resolving a URL among 10 or 1,000 published sites of one organization (each at its own
 *     basename), a different site each time.
 */

const post = (w: World, path: string, body: unknown, token?: string) =>
  w.fetch(
    new Request(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token !== undefined && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    }),
  )
const get = (w: World, path: string, token: string) => w.fetch(new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${token}` } }))

interface SiteWorld extends ContentWorld {
  site: string
  /** The site's published URL. */
  url: string
  /** Each leaf's path in the space, by page id. */
  paths: Map<string, string>
}

/** The content world's space published in a public site; the leaves' paths read from the page tree. */
async function siteWorld(pages: number): Promise<SiteWorld> {
  const w = await contentWorld(pages)
  const site = JSON.parse(await expectStatus(await post(w, `/v1/orgs/${w.organization}/sites`, { title: 'Docs', spaces: [w.space] }, w.token), 201)) as {
    id: string
  }
  const published = JSON.parse(await expectStatus(await post(w, `/v1/orgs/${w.organization}/sites/${site.id}/publish`, {}, w.token), 200)) as {
    urls: { published: string }
  }
  const tree = JSON.parse(await expectStatus(await get(w, `/v1/spaces/${w.space}/content/pages`, w.token), 200)) as {
    pages: Array<{ pages: Array<{ id: string; path: string }> }>
  }
  const paths = new Map(tree.pages.flatMap((g) => g.pages.map((p) => [p.id, p.path] as const)))
  return { ...w, site: site.id, url: published.urls.published, paths }
}

/** The renderer's calls for the `i`-th page: every answer must be a 200. */
const renderPage = (w: SiteWorld) => async (i: number) => {
  const page = leafOf(w, i)
  const resolved = JSON.parse(
    await expectStatus(await post(w, '/v1/urls/published', { url: `${w.url}/${w.paths.get(page)}`, visitor: { unsignedClaims: {} } }), 200),
  ) as {
    apiToken: string
    space: string
    organization: string
  }
  const token = resolved.apiToken
  await expectStatus(await get(w, `/v1/orgs/${resolved.organization}/sites/${w.site}/published`, token), 200)
  const space = JSON.parse(await expectStatus(await get(w, `/v1/spaces/${resolved.space}`, token), 200)) as { revision: string }
  await expectStatus(await get(w, `/v1/spaces/${resolved.space}/revisions/${space.revision}/page/${page}/meta-links`, token), 200)
  await expectStatus(
    await get(
      w,
      `/v1/spaces/${resolved.space}/revisions/${space.revision}/page/${page}/document?evaluated=deterministic-only&dereferenced=reusable-contents`,
      token,
    ),
    200,
  )
}

export async function renderPageMeasure(): Promise<Result> {
  const small = await siteWorld(SMALL)
  const large = await siteWorld(LARGE)
  const { rates, ratio } = await compare({ small: renderPage(small), large: renderPage(large) }, { warmup: 300, perRound: 100, rounds: 21 })
  return {
    api: `${formatOps(rates.large!, 'pages/s')} @1k`,
    reference: `${formatOps(rates.small!, 'pages/s')} @10`,
    value: ratio,
    shown: ratio.toFixed(2),
    met: ratio <= READ_TARGET,
  }
}

/** An organization with `n` published public sites, each publishing a space of its own at its own basename; their URLs. */
async function sitesWorld(n: number): Promise<World & { urls: string[] }> {
  const w = await apiWorld(n)
  const urls: string[] = []
  for (let i = 0; i < n; i++) {
    const site = JSON.parse(
      await expectStatus(await post(w, `/v1/orgs/${w.organization}/sites`, { title: `Site ${i}`, spaces: [w.ids[i]] }, w.token), 201),
    ) as {
      id: string
    }
    await expectStatus(
      await w.fetch(
        new Request(`${BASE}/v1/orgs/${w.organization}/sites/${site.id}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ basename: `site-${i}` }),
        }),
      ),
      200,
    )
    const published = JSON.parse(await expectStatus(await post(w, `/v1/orgs/${w.organization}/sites/${site.id}/publish`, {}, w.token), 200)) as {
      urls: { published: string }
    }
    urls.push(`${published.urls.published}/some/page`)
  }
  return { ...w, urls }
}

const resolveUrl = (w: World & { urls: string[] }) => async (i: number) => {
  await expectStatus(await post(w, '/v1/urls/published', { url: w.urls[(i * 7_919) % w.urls.length] }), 200)
}

export async function resolveUrlMeasure(): Promise<Result> {
  const small = await sitesWorld(SMALL)
  const large = await sitesWorld(LARGE)
  const { rates, ratio } = await compare({ small: resolveUrl(small), large: resolveUrl(large) }, { warmup: 2_000, perRound: 500, rounds: 21 })
  return {
    api: `${formatOps(rates.large!, 'resolutions/s')} @1k sites`,
    reference: `${formatOps(rates.small!, 'resolutions/s')} @10`,
    value: ratio,
    shown: ratio.toFixed(2),
    met: ratio <= READ_TARGET,
  }
}
