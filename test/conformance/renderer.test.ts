import { GitBookAPI, GitBookAPIError, type PublishedSiteContent } from '@gitbook/api'
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { seedDemo } from '../../src/demo.js'
import { expectOfficialResponse } from './official.js'

/**
 * The contract with GitBook's renderer (GitBook Open, packages/gitbook/src/lib/data at the commit
 * scripts/renderer/run.sh pins), replayed over the demo data so it cannot regress silently: for
 * each page of each published demo site, the calls the renderer makes, in its order, through
 * `@gitbook/api` as it makes them, every answer checked against the official schema.
 *
 * 1. The URL is resolved, the full URL and its shorter prefixes at once (lookup.ts); the answer
 *    kept is the full URL's, or a prefix's marked `complete`.
 * 2. The answer's `apiToken` is decoded as a JWT (api-token.ts), then is the bearer of every call.
 * 3. Per page: the published profile, the space, its revision with metadata, the page's meta
 *    links and document; a path not in the revision asks the site's redirects, then the path.
 * 4. `<page>.md`, `llms.txt` and `sitemap.xml` read pages as markdown.
 */

const BASE = 'http://localhost:4000'

/** The URLs the renderer resolves for `url` (lookup.ts `getURLLookupAlternatives`, for URLs without `/v/` or `~`). */
function lookupAlternatives(url: string): Array<{ url: string; extraPath: string; primary: boolean }> {
  const parsed = new URL(url)
  const segments = parsed.pathname.slice(1).split('/').filter(Boolean)
  const out = [{ url: `${parsed.origin}/`, extraPath: segments.join('/'), primary: segments.length === 0 }]
  for (let i = 1; i <= Math.min(4, segments.length); i++) {
    out.push({ url: `${parsed.origin}/${segments.slice(0, i).join('/')}`, extraPath: segments.slice(i).join('/'), primary: i === segments.length })
  }
  return out
}

/** The status a call of the client answers (it throws on an error status). */
const statusOf = (call: Promise<{ status: number }>) =>
  call.then(
    (res) => res.status,
    (error: GitBookAPIError) => error.code,
  )

async function setup() {
  const api = createDocsApi({ baseUrl: BASE })
  const demo = await seedDemo(api)
  const client = (authToken?: string) => new GitBookAPI({ endpoint: BASE, ...(authToken && { authToken }), serviceBinding: { fetch: api.fetch } })
  return { api, demo, client }
}

type Client = ReturnType<Awaited<ReturnType<typeof setup>>['client']>

/** Step 1 and 2: the resolution the renderer keeps, and its token decoded. */
async function resolve(
  anonymous: Client,
  url: string,
  visitor: { jwtToken?: string } = {},
): Promise<PublishedSiteContent & { claims: Record<string, unknown> }> {
  const answers = await Promise.all(
    lookupAlternatives(url).map(async (alternative) => {
      const res = await anonymous.urls
        .resolvePublishedContentByUrl({ url: alternative.url, visitor: { ...visitor, unsignedClaims: {} }, redirectOnError: false })
        .catch((error: GitBookAPIError) => ({ status: error.code, data: undefined }))
      if (res.status === 200) expectOfficialResponse('resolvePublishedContentByUrl', 200, res.data)
      else expect(res.status, `${alternative.url}: a failed resolution is a 404`).toBe(404)
      return { alternative, data: res.data as PublishedSiteContent | undefined }
    }),
  )
  const kept = answers.find((a) => a.data && a.alternative.primary) ?? answers.find((a) => a.data?.complete)
  expect(kept, `no resolution of ${url} the renderer would keep`).toBeDefined()
  const data = kept!.data!
  const pathname = [data.pathname, kept!.alternative.extraPath].filter(Boolean).join('/')
  const claims = decodeJwt(data.apiToken)
  expect(claims).toMatchObject({ kind: 'site', site: data.site, siteSpace: data.siteSpace, space: data.space, organization: data.organization })
  expect(claims.exp).toBeGreaterThan(Date.now() / 1000)
  return { ...data, pathname, claims }
}

describe('contract: GitBook renderer over the demo data', () => {
  it('every page of every published demo site, as the renderer reads it', async () => {
    const { demo, client } = await setup()
    const anonymous = client()
    const admin = client(demo.adminToken)
    const sites = (await admin.orgs.listSites(demo.organization.id)).data.items.filter((s) => s.published)
    expect(sites.map((s) => s.title).sort()).toEqual(['Acme Docs', 'Acme Internal', 'Acme Partners'])
    let pages = 0
    for (const site of sites) {
      // The share-link site is reached by its link's URL (the key is a segment of it), as a visitor has it.
      const links = site.visibility === 'share-link' ? (await admin.orgs.listSiteShareLinks(demo.organization.id, site.id)).data.items : []
      const siteUrl = links[0]?.urls.published ?? site.urls.published!
      // The visitor-auth site is reached with a visitor token signed with its key (the renderer passes it on as `visitor.jwtToken`).
      const visitor = site.visibility === 'visitor-auth' ? { jwtToken: demo.visitorAuthSite.visitorToken } : {}
      const root = await resolve(anonymous, siteUrl, visitor)
      const gb = client(root.apiToken)
      const profile = await gb.orgs.getPublishedContentSite(root.organization, root.site, { ...(root.shareKey && { shareKey: root.shareKey }) })
      expectOfficialResponse('getPublishedContentSite', 200, profile.data)
      for (const siteSpace of profile.data.structure.type === 'siteSpaces' ? profile.data.structure.structure : []) {
        const space = await gb.spaces.getSpaceById(siteSpace.space.id)
        expectOfficialResponse('getSpaceById', 200, space.data)
        const revision = await gb.spaces.getRevisionById(space.data.id, space.data.revision, { metadata: true })
        expectOfficialResponse('getRevisionById', 200, revision.data)
        const walk = (list: typeof revision.data.pages): typeof revision.data.pages => list.flatMap((p) => [p, ...('pages' in p ? walk(p.pages) : [])])
        for (const page of walk(revision.data.pages)) {
          if (page.type !== 'document') continue
          // The page's URL resolves to its space and path, with a token of the same site.
          const resolved = await resolve(anonymous, `${siteSpace.urls.published}/${page.path}`, visitor)
          expect(resolved).toMatchObject({ site: site.id, space: space.data.id, pathname: page.path })
          const reader = client(resolved.apiToken)
          const byPath = await reader.spaces.getPageInRevisionByPath(space.data.id, space.data.revision, resolved.pathname)
          expectOfficialResponse('getPageInRevisionByPath', 200, byPath.data)
          expect(byPath.data.id).toBe(page.id)
          const links = await reader.spaces.listRevisionPageMetaLinks(space.data.id, space.data.revision, page.id)
          expectOfficialResponse('listRevisionPageMetaLinks', 200, links.data)
          const document = await reader.spaces.getPageDocumentInRevisionById(space.data.id, space.data.revision, page.id, {
            evaluated: 'deterministic-only',
            dereferenced: 'reusable-contents',
          })
          expectOfficialResponse('getPageDocumentInRevisionById', 200, document.data)
          // `<page>.md`, llms.txt and sitemap.xml: the page as markdown.
          const markdown = await reader.spaces.getPageInRevisionById(space.data.id, space.data.revision, page.id, {
            format: 'markdown',
            'format.markdown.refs': 'stable',
          })
          expectOfficialResponse('getPageInRevisionById', 200, markdown.data)
          // The body (the title is the page's, not a heading of its markdown).
          expect('markdown' in markdown.data && markdown.data.markdown.length).toBeGreaterThan(0)
          expect(document.data).toMatchObject({ object: 'document' })
          pages++
        }
      }
    }
    expect(pages).toBeGreaterThanOrEqual(9)
  })

  it('a visitor-auth site without a visitor token: the redirect to its login, as the renderer follows it', async () => {
    const { demo, client } = await setup()
    const site = (await client(demo.adminToken).orgs.getSiteById(demo.organization.id, demo.visitorAuthSite.id)).data
    const res = await client().urls.resolvePublishedContentByUrl({
      url: `${site.urls.published}/handbook`,
      visitor: { unsignedClaims: {} },
      redirectOnError: false,
    })
    expectOfficialResponse('resolvePublishedContentByUrl', 200, res.data)
    expect(res.data).toEqual({ target: 'external', site: site.id, redirect: 'https://login.acme.test/docs?location=%2Fhandbook' })
  })

  it('a path that is no page: the renderer asks the redirects (none: 404), then the path (404)', async () => {
    const { demo, client } = await setup()
    const anonymous = client()
    const site = (await client(demo.adminToken).orgs.getSiteById(demo.organization.id, demo.site.id)).data
    const resolved = await resolve(anonymous, `${site.urls.published}/no-such-page`)
    expect(resolved.pathname).toBe('no-such-page')
    const reader = client(resolved.apiToken)
    expect(await statusOf(reader.orgs.getSiteRedirectBySource(resolved.organization, resolved.site, { source: '/no-such-page' }))).toBe(404)
    // The demo's old address of the installation page redirects to it (the renderer answers a 30x to the target).
    const moved = await reader.orgs.getSiteRedirectBySource(resolved.organization, resolved.site, { source: '/install' })
    expectOfficialResponse('getSiteRedirectBySource', 200, moved.data)
    expect(moved.data.target).toBe(`${site.urls.published}/installation`)
    const space = (await reader.spaces.getSpaceById(resolved.space)).data
    expect(await statusOf(reader.spaces.getPageInRevisionByPath(space.id, space.revision, 'no-such-page'))).toBe(404)
  })

  it('the site token reads nothing but its site: another space of the organization, its settings, the user API', async () => {
    const { demo, client } = await setup()
    const site = (await client(demo.adminToken).orgs.getSiteById(demo.organization.id, demo.site.id)).data
    const reader = client((await resolve(client(), site.urls.published!)).apiToken)
    const internal = demo.spaces.find((s) => s.title === 'Internal handbook')!
    expect(await statusOf(reader.spaces.getSpaceById(internal.id))).toBe(404)
    expect(await statusOf(reader.orgs.listSiteShareLinks(demo.organization.id, demo.site.id))).toBe(403)
    expect(await statusOf(reader.user.getAuthenticatedUser())).toBe(401)
  })
})
