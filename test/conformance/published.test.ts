import { GitBookAPI } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { BASE, call, createWorld, type World } from '../helpers.js'
import { expectOfficialResponse } from './official.js'

/** URL resolution of published content through `@gitbook/api`, as GitBook's renderer calls it (without a token). */

const renderer = (w: World) => new GitBookAPI({ endpoint: BASE, serviceBinding: { fetch: w.api.fetch } })

async function publishedSite(w: World) {
  const guide = await w.api.fixtures.createSpace(w.org.id, { title: 'Guide' })
  const reference = await w.api.fixtures.createSpace(w.org.id, { title: 'Reference' })
  return w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [guide.id, reference.id], published: true })
}

describe('conformance: published URLs through @gitbook/api', () => {
  it('resolvePublishedContentByUrl: a site, a site-space, a section, a share link; the visitor payload', async () => {
    const w = await createWorld()
    const site = await publishedSite(w)
    const gb = renderer(w).urls
    const root = await gb.resolvePublishedContentByUrl({ url: site.urls.published! })
    expect(root.status).toBe(200)
    expect(root.data).toMatchObject({ site: site.id, organization: w.org.id, pathname: '', complete: false, canonicalUrl: site.urls.published })
    expectOfficialResponse('resolvePublishedContentByUrl', 200, root.data)
    const page = await gb.resolvePublishedContentByUrl({
      url: `${site.urls.published}/reference/api/users`,
      redirectOnError: false,
      visitor: { type: 'agent', unsignedClaims: { plan: 'pro' } },
    })
    expect(page.data).toMatchObject({ pathname: 'api/users', complete: true })
    expectOfficialResponse('resolvePublishedContentByUrl', 200, page.data)
    // With sections, the answer names the section.
    const base = `/v1/orgs/${w.org.id}/sites/${site.id}`
    const extra = await w.api.fixtures.createSpace(w.org.id, { title: 'Changelog' })
    const section = await call(w.api, w.tokens.ada, 'POST', `${base}/sections`, { spaceId: extra.id, title: 'Changelog' })
    const sectioned = await gb.resolvePublishedContentByUrl({ url: `${site.urls.published}/changelog` })
    expect('siteSection' in sectioned.data && sectioned.data.siteSection).toBe(section.body.id)
    expectOfficialResponse('resolvePublishedContentByUrl', 200, sectioned.data)
    // A share-link site: the answer carries the key.
    await call(w.api, w.tokens.ada, 'PATCH', base, { visibility: 'share-link' })
    const link = await w.client(w.tokens.ada).orgs.createSiteShareLink(w.org.id, site.id, { name: 'Partners' })
    const shared = await gb.resolvePublishedContentByUrl({ url: link.data.urls.published! })
    expect(shared.data).toMatchObject({ shareKey: expect.any(String), canonicalUrl: link.data.urls.published })
    expectOfficialResponse('resolvePublishedContentByUrl', 200, shared.data)
  })

  it('getPublishedContentByUrl: the GET form, the same answer', async () => {
    const w = await createWorld()
    const site = await publishedSite(w)
    const gb = renderer(w).urls
    const url = `${site.urls.published}/reference/intro`
    const got = await gb.getPublishedContentByUrl({ url })
    expect(got.status).toBe(200)
    expect(got.data).toEqual((await gb.resolvePublishedContentByUrl({ url })).data)
    expectOfficialResponse('getPublishedContentByUrl', 200, got.data)
    const withFlag = await gb.getPublishedContentByUrl({ url, redirectOnError: true })
    expectOfficialResponse('getPublishedContentByUrl', 200, withFlag.data)
  })

  it('a URL of no published content is a 404; a text that is no URL a 400 naming `url`', async () => {
    const w = await createWorld()
    const site = await publishedSite(w)
    const gb = renderer(w).urls
    const unknown = 'https://docs.localhost/nobody/nothing'
    await expect(gb.resolvePublishedContentByUrl({ url: unknown })).rejects.toThrow('No content found for the URL')
    await expect(gb.getPublishedContentByUrl({ url: unknown })).rejects.toThrow('No content found for the URL')
    const missing = await call(w.api, undefined, 'POST', '/v1/urls/published', { url: unknown })
    expect(missing.status).toBe(404)
    expectOfficialResponse('resolvePublishedContentByUrl', 404, missing.body)
    const missingGet = await call(w.api, undefined, 'GET', `/v1/urls/published?url=${encodeURIComponent(unknown)}`)
    expect(missingGet.status).toBe(404)
    expectOfficialResponse('getPublishedContentByUrl', 404, missingGet.body)
    // Unpublished: the same 404.
    await w.api.fixtures.publishSite(w.org.id, site.id, false)
    await expect(gb.resolvePublishedContentByUrl({ url: site.urls.published! })).rejects.toThrow('No content found for the URL')
    await expect(gb.resolvePublishedContentByUrl({ url: 'not a url' })).rejects.toThrow('body field `url`: must be a URL')
    await expect(gb.getPublishedContentByUrl({ url: 'not a url' })).rejects.toThrow('query parameter `url`: must be a URL')
    const bad = await call(w.api, undefined, 'POST', '/v1/urls/published', { url: 'not a url' })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ error: { code: 400, message: expect.stringContaining('body field `url`: must be a URL') } })
  })
})
