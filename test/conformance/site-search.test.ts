import { GitBookAPIError, type SearchSpaceResult } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call } from '../helpers.js'
import { askWorld } from '../domains/ask/helpers.js'
import { expectOfficialResponse } from './official.js'

/**
 * Site search through the official client (`@gitbook/api`, `serviceBinding` to `api.fetch`), as
 * GitBook's renderer calls it: with the site token a published URL resolves to, every answer
 * checked against the official schema of its operation (docs/behaviour/search.md).
 */

const status = (call: Promise<{ status: number }>) =>
  call.then(
    (res) => res.status,
    (error: unknown) => (error instanceof GitBookAPIError ? error.code : Promise.reject(error)),
  )

async function world() {
  const w = await askWorld()
  const site = await call(w.api, w.tokens.ada, 'POST', `${w.base}/publish`)
  expect(site.status).toBe(200)
  const resolved = await w.client(w.tokens.ada).urls.resolvePublishedContentByUrl({ url: site.body.urls.published, visitor: { unsignedClaims: {} } })
  expectOfficialResponse('resolvePublishedContentByUrl', 200, resolved.data)
  const apiToken = 'apiToken' in resolved.data ? resolved.data.apiToken : ''
  expect(apiToken).not.toBe('')
  return { ...w, visitor: w.client(apiToken) }
}

describe('conformance: site search through @gitbook/api', () => {
  it('searchSiteContent with a site token: the official shape, every body form the official document allows, with paging', async () => {
    const w = await world()
    const search = (body: Parameters<typeof w.visitor.orgs.searchSiteContent>[2], query?: { page?: string; limit?: number }) =>
      w.visitor.orgs.searchSiteContent(w.org.id, w.site.id, body, query)
    const all = await search({ query: 'lantern', scope: { mode: 'all' } })
    expect(all.status).toBe(200)
    expectOfficialResponse('searchSiteContent', 200, all.data)
    const spaces = all.data.items as SearchSpaceResult[]
    expect(spaces.map((s) => s.title).sort()).toEqual(['Api', 'Handbook', 'Recipes'])
    expect(all.data.count).toBe(3)
    for (const space of spaces)
      for (const page of space.pages) {
        expect(page.sections!.length).toBeLessThanOrEqual(1)
        expect(page.urls.app).toMatch(/^http/)
      }
    // Paging: `limit` counts spaces; ranks stay those of the whole ranking.
    const first = await search({ query: 'lantern', scope: { mode: 'all' } }, { limit: 1 })
    expectOfficialResponse('searchSiteContent', 200, first.data)
    const second = await search({ query: 'lantern', scope: { mode: 'all' } }, { limit: 1, page: first.data.next!.page })
    expectOfficialResponse('searchSiteContent', 200, second.data)
    expect([...first.data.items, ...second.data.items].map((s) => s.id)).toEqual(spaces.slice(0, 2).map((s) => s.id))
    // The scope forms: official, and deprecated.
    for (const body of [
      { query: 'installer', scope: { mode: 'default' as const, currentSiteSpace: w.siteSpaces.handbook, restrictTo: 'currentSiteSpace' as const } },
      { query: 'installer', scope: { mode: 'specific' as const, siteSpaceIds: [w.siteSpaces.handbook] } },
      { query: 'installer', mode: 'current' as const, siteSpaceId: w.siteSpaces.handbook },
      { query: 'installer', siteSpaceIds: [w.siteSpaces.handbook] },
      { query: 'installer', mode: 'all' as const },
    ]) {
      const res = await search(body)
      expectOfficialResponse('searchSiteContent', 200, res.data)
      expect(
        (res.data.items as SearchSpaceResult[]).flatMap((s) => s.pages.map((p) => p.title)),
        JSON.stringify(body),
      ).toEqual(['Install'])
    }
  })

  it('prewarmSiteSearch: 204, no body', async () => {
    const w = await world()
    const res = await w.visitor.orgs.prewarmSiteSearch(w.org.id, w.site.id)
    expect(res.status).toBe(204)
    expectOfficialResponse('prewarmSiteSearch', 204, undefined)
  })

  it('bad input: 400 naming the field; no access: 404', async () => {
    const w = await world()
    const refused = async (body: unknown, field: string) => {
      const error = await w.visitor.orgs.searchSiteContent(w.org.id, w.site.id, body as never).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(GitBookAPIError)
      expect((error as GitBookAPIError).code).toBe(400)
      expect((error as GitBookAPIError).message).toContain(`body field \`${field}\``)
    }
    await refused({ query: 'q'.repeat(513), scope: { mode: 'all' } }, 'query')
    await refused({ query: 'lantern', scope: { mode: 'specific', siteSpaceIds: ['nope'] } }, 'scope.siteSpaceIds[0]')
    await refused({ query: 'lantern', scope: { mode: 'default', currentSiteSpace: 'nope' } }, 'scope.currentSiteSpace')
    await refused({ query: 'lantern', mode: 'current', siteSpaceId: 'nope' }, 'siteSpaceId')
    const body = { query: 'lantern', scope: { mode: 'all' as const } }
    expect(await status(w.client(w.tokens.olga).orgs.searchSiteContent(w.org.id, w.site.id, body))).toBe(404)
    expect(await status(w.client(w.tokens.gina).orgs.searchSiteContent(w.org.id, w.site.id, body))).toBe(404)
    expect(await status(w.client(w.tokens.olga).orgs.prewarmSiteSearch(w.org.id, w.site.id))).toBe(404)
    expect(await status(w.visitor.orgs.searchSiteContent(w.org.id, 'no-such-site', body))).toBe(404)
  })
})
