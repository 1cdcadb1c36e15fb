import { describe, expect, it } from 'vitest'
import { findSiteRedirect } from '../../../src/domains/site-redirects/resolve.js'
import { call, expectError } from '../../helpers.js'
import { external, redirectWorld, type RedirectWorld } from './helpers.js'

/**
 * Resolving a path of a site to its redirect (docs/behaviour/site-redirects.md): sources compared
 * case-insensitively and in one percent-encoding, exact sources before wildcards, the longest
 * wildcard first, live redirects only; the target URL of each kind of destination.
 */

const create = async (w: RedirectWorld, body: object) => {
  const res = await w.http('POST', '/redirects', body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}
const resolve = (w: RedirectWorld, source: string, token = w.tokens.ada) => w.http('GET', `/redirect?source=${encodeURIComponent(source)}`, undefined, token)
const targetOf = async (w: RedirectWorld, source: string) => {
  const res = await resolve(w, source)
  expect(res.status, `${source}: ${JSON.stringify(res.body)}`).toBe(200)
  return res.body.target as string
}

describe('site redirects: resolving a path', () => {
  it('compares sources case-insensitively and in one percent-encoding: one live and one draft redirect per source', async () => {
    const w = await redirectWorld()
    const row = await create(w, { source: '/Caf%C3%A9/Menu', destination: external('https://example.com/menu') })
    expect(row.source).toBe('/Caf%C3%A9/Menu')
    for (const source of ['/caf%c3%a9/menu', '/CAF%C3%A9/MENU', '/caf%C3%A9/menu']) expect((await resolve(w, source)).body.redirect.id).toBe(row.id)
    // The lookup URL resolution uses takes a path as a URL has it: decoded, with a trailing slash, a query.
    expect(w.api.store.read((tx) => findSiteRedirect(tx, w.site.id, 'café/MENU/?lang=fr#top'))?.id).toBe(row.id)
    expectError(
      await w.http('POST', '/redirects', { source: '/caf%c3%a9/menu', destination: external('https://example.com/') }),
      409,
      'already has a live redirect',
    )
    // A draft of the same source is another redirect.
    await create(w, { source: '/caf%c3%a9/menu', draft: true, destination: external('https://example.com/draft') })
    expectError(
      await w.http('POST', '/redirects', { source: '/CAF%C3%A9/menu', draft: true, destination: external('https://example.com/') }),
      409,
      'already has a draft redirect',
    )
  })

  it('answers live redirects only, and 404 when no redirect matches', async () => {
    const w = await redirectWorld()
    await create(w, { source: '/soon', draft: true, destination: external('https://example.com/') })
    expectError(await resolve(w, '/soon'), 404, 'No redirect for this source')
    expectError(await resolve(w, '/nothing'), 404, 'No redirect for this source')
    // The official pattern holds on the query as on bodies.
    expectError(await resolve(w, 'soon'), 400, 'query parameter `source`')
  })

  it('an exact source before any wildcard, then the longest wildcard; `/docs/*` is under /docs/, `/changelog*` any path starting so', async () => {
    const w = await redirectWorld()
    const docs = await create(w, { source: '/docs/*', destination: external('https://example.com/docs') })
    const deep = await create(w, { source: '/docs/v1/*', destination: external('https://example.com/v1') })
    const exact = await create(w, { source: '/docs/v1/intro', destination: external('https://example.com/intro') })
    const changelog = await create(w, { source: '/changelog*', destination: external('https://example.com/changes') })
    const matched = async (source: string) => (await resolve(w, source)).body.redirect?.id
    expect(await matched('/docs/a')).toBe(docs.id)
    expect(await matched('/docs/v1/a/b')).toBe(deep.id)
    expect(await matched('/docs/v1/intro')).toBe(exact.id)
    expect(await matched('/DOCS/V1/INTRO')).toBe(exact.id)
    expectError(await resolve(w, '/docs'), 404, 'No redirect')
    for (const path of ['/changelog', '/changelog-2024', '/changelog/v2']) expect(await matched(path)).toBe(changelog.id)
    // A source given with its `*` names that wildcard redirect itself.
    expect(await matched('/docs/v1/*')).toBe(deep.id)
    expectError(await resolve(w, '/docs/v1/intro*'), 404, 'No redirect')
  })

  it('captureWildcard appends what the wildcard matched to the destination, its case kept; without it every path goes to one place', async () => {
    const w = await redirectWorld()
    await create(w, { source: '/docs/*', captureWildcard: true, destination: external('https://example.com/help?from=docs') })
    await create(w, { source: '/changelog*', captureWildcard: true, destination: { kind: 'site-space', siteSpaceId: w.siteSpaces.api.id } })
    await create(w, { source: '/old/*', destination: { kind: 'site-space', siteSpaceId: w.siteSpaces.api.id } })
    expect(await targetOf(w, '/docs/Install/Linux')).toBe('https://example.com/help/Install/Linux?from=docs')
    expect(await targetOf(w, '/changelog-2024')).toBe(`${w.siteUrl}/api-2024`)
    expect(await targetOf(w, '/changelog/v2')).toBe(`${w.siteUrl}/api/v2`)
    expect(await targetOf(w, '/changelog')).toBe(`${w.siteUrl}/api`)
    expect(await targetOf(w, '/old/anything/at/all')).toBe(`${w.siteUrl}/api`)
  })

  it('targets: the published URL of a section, a site-space, a page (a first page at its site-space URL), or the external URL as given', async () => {
    const w = await redirectWorld()
    const guide = w.siteSpaces.guide.id
    await create(w, { source: '/a', destination: { kind: 'site-page', siteSpaceId: guide, pageId: w.pages.intro } })
    await create(w, { source: '/b', destination: { kind: 'site-page', siteSpaceId: guide, pageId: w.pages.install } })
    await create(w, { source: '/c', destination: { kind: 'site-space', siteSpaceId: w.siteSpaces.api.id } })
    await create(w, { source: '/d', destination: external('https://example.com') })
    expect(await targetOf(w, '/a')).toBe(w.siteUrl)
    expect(await targetOf(w, '/b')).toBe(`${w.siteUrl}/install`)
    expect(await targetOf(w, '/c')).toBe(`${w.siteUrl}/api`)
    expect(await targetOf(w, '/d')).toBe('https://example.com')
    // Sections: the default one (the first, which takes the root site-spaces) at the site's URL, another at its path.
    await w.http('POST', '/sections', { spaceId: w.spaces.guide.id, title: 'Guides' })
    const section = (await w.http('POST', '/sections', { spaceId: w.spaces.api.id, title: 'Reference' })).body
    const sections = (await w.http('GET', '/sections')).body.items as Array<{ id: string; default: boolean; path: string }>
    await create(w, { source: '/e', destination: { kind: 'site-section', siteSectionId: section.id } })
    await create(w, { source: '/f', destination: { kind: 'site-section', siteSectionId: sections.find((s) => s.default)!.id } })
    expect(await targetOf(w, '/e')).toBe(`${w.siteUrl}/${section.path}`)
    expect(await targetOf(w, '/f')).toBe(w.siteUrl)
  })

  it('on a share-link site the target carries the key the request holds', async () => {
    const w = await redirectWorld()
    await w.http('PATCH', '', { visibility: 'share-link' })
    const link = (await w.http('POST', '/share-links', { name: 'Partners' })).body
    const key = decodeURIComponent(new URL(link.urls.published).pathname.split('/').pop()!)
    await create(w, { source: '/old', destination: { kind: 'site-page', siteSpaceId: w.siteSpaces.guide.id, pageId: w.pages.linux } })
    const res = await w.http('GET', `/redirect?source=/old&shareKey=${key}`)
    expect(res.body.target).toBe(`${w.siteUrl}/${key}/install/linux`)
    expect(await targetOf(w, '/old')).toBe(`${w.siteUrl}/install/linux`)
  })

  it('a redirect whose page, site-space or section is gone leads nowhere: 404, and it stays listed', async () => {
    const w = await redirectWorld()
    const page = await create(w, { source: '/p', destination: { kind: 'site-page', siteSpaceId: w.siteSpaces.guide.id, pageId: w.pages.linux } })
    await create(w, { source: '/s', destination: { kind: 'site-space', siteSpaceId: w.siteSpaces.api.id } })
    await w.merge(w.spaces.guide.id, [{ operation: 'delete_page', page: w.pages.linux }])
    expectError(await resolve(w, '/p'), 404, 'No redirect for this source')
    expect(await targetOf(w, '/s')).toBe(`${w.siteUrl}/api`)
    expect((await w.http('DELETE', `/site-spaces/${w.siteSpaces.api.id}`)).status).toBe(204)
    expectError(await resolve(w, '/s'), 404, 'No redirect for this source')
    expect((await w.http('GET', '/redirects')).body.items.map((r: { source: string }) => r.source)).toEqual(['/s', '/p'])
    expect((await w.http('GET', '/redirects')).body.items[1]).toEqual(page)
  })

  it('members with a role resolve; guests and outsiders get 404', async () => {
    const w = await redirectWorld()
    await create(w, { source: '/old', destination: external('https://example.com/') })
    expect((await resolve(w, '/old', w.tokens.rita)).status).toBe(200)
    expectError(await resolve(w, '/old', w.tokens.gina), 404, 'Site not found')
    expectError(await resolve(w, '/old', w.tokens.olga), 404, 'Organization not found')
    expectError(await call(w.api, undefined, 'GET', `${w.base}/redirect?source=/old`), 401, '')
  })
})
