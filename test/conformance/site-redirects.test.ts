import { SiteRedirectOrderBy } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, expectError } from '../helpers.js'
import { external, redirectWorld } from '../domains/site-redirects/helpers.js'
import { expectOfficialResponse } from './official.js'

describe('conformance: site redirects through @gitbook/api', () => {
  it('createSiteRedirect, getSiteRedirectBySource, updateSiteRedirectById, listSiteRedirects', async () => {
    const w = await redirectWorld()
    const gb = w.client(w.tokens.ada).orgs
    const created = await gb.createSiteRedirect(w.org.id, w.site.id, {
      source: '/old-linux',
      destination: { kind: 'path', spaceId: w.spaces.guide.id, path: 'install/linux' },
    })
    expect(created.status).toBe(201)
    expect(created.data).toEqual({
      object: 'site-redirect',
      id: expect.any(String),
      source: '/old-linux',
      draft: false,
      captureWildcard: false,
      permanent: false,
      // A page named by space and path is stored as the site's page it names.
      destination: { kind: 'site-page', siteSpaceId: w.siteSpaces.guide.id, pageId: w.pages.linux },
      createdAt: expect.any(String),
    })
    expectOfficialResponse('createSiteRedirect', 201, created.data)

    // The renderer asks with the visited path and a site's share key; the answer's `target` is the URL it redirects to.
    const resolved = await w.client(w.tokens.rita).orgs.getSiteRedirectBySource(w.org.id, w.site.id, { source: '/Old-Linux' })
    expect(resolved.status).toBe(200)
    expect(resolved.data).toEqual({ redirect: created.data, target: `${w.siteUrl}/install/linux` })
    expectOfficialResponse('getSiteRedirectBySource', 200, resolved.data)

    w.clock.advance(1000)
    const updated = await gb.updateSiteRedirectById(w.org.id, w.site.id, created.data.id, {
      permanent: true,
      destination: { kind: 'site-space', siteSpaceId: w.siteSpaces.api.id },
    })
    expect(updated.status).toBe(200)
    expect(updated.data).toEqual({
      ...created.data,
      permanent: true,
      destination: { kind: 'site-space', siteSpaceId: w.siteSpaces.api.id },
      updatedAt: w.clock.now().toISOString(),
    })
    expectOfficialResponse('updateSiteRedirectById', 200, updated.data)

    const draft = await gb.createSiteRedirect(w.org.id, w.site.id, { source: '/later', draft: true, destination: external('https://example.com/later') })
    expectOfficialResponse('createSiteRedirect', 201, draft.data)
    const live = await gb.listSiteRedirects(w.org.id, w.site.id)
    expect(live.data).toEqual({ items: [updated.data], count: 1 })
    expectOfficialResponse('listSiteRedirects', 200, live.data)
    const drafts = await gb.listSiteRedirects(w.org.id, w.site.id, { draft: true, orderBy: SiteRedirectOrderBy.Source, limit: 1 })
    expect(drafts.data.items).toEqual([draft.data])
    expectOfficialResponse('listSiteRedirects', 200, drafts.data)
  })

  it('bulkUpsertSiteRedirects answers a result per item', async () => {
    const w = await redirectWorld()
    const gb = w.client(w.tokens.ada).orgs
    await gb.createSiteRedirect(w.org.id, w.site.id, { source: '/gone', destination: external('https://example.com/gone') })
    await gb.createSiteRedirect(w.org.id, w.site.id, { source: '/soon', draft: true, destination: external('https://example.com/soon') })
    const res = await gb.bulkUpsertSiteRedirects(w.org.id, w.site.id, {
      redirects: [
        { source: '/new', destination: external('https://example.com/new') },
        { source: '/gone', destination: null },
        { source: '/soon', intent: 'publish' },
        { source: '/missing', intent: 'draft', destination: null },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.data.results).toEqual([
      { status: 'created', source: '/new', draft: false, id: expect.any(String) },
      { status: 'deleted', source: '/gone', draft: false },
      { status: 'published', source: '/soon', draft: false, id: expect.any(String) },
      { status: 'error', source: '/missing', draft: true, error: 'no draft redirect of this source to delete' },
    ])
    expectOfficialResponse('bulkUpsertSiteRedirects', 200, res.data)
  })

  it('deleteSiteRedirectById answers 205, and 204 when there is no such redirect', async () => {
    const w = await redirectWorld()
    const gb = w.client(w.tokens.ada).orgs
    const created = await gb.createSiteRedirect(w.org.id, w.site.id, { source: '/x', destination: external('https://example.com/') })
    const res = await gb.deleteSiteRedirectById(w.org.id, w.site.id, created.data.id)
    expect(res.status).toBe(205)
    expectOfficialResponse('deleteSiteRedirectById', 205, undefined)
    expect((await gb.deleteSiteRedirectById(w.org.id, w.site.id, created.data.id)).status).toBe(204)
    expectOfficialResponse('deleteSiteRedirectById', 204, undefined)
  })

  it('bad input is a 400 naming the field; a source with no redirect a 404', async () => {
    const w = await redirectWorld()
    const gb = w.client(w.tokens.ada).orgs
    await expect(gb.createSiteRedirect(w.org.id, w.site.id, { source: 'no-slash', destination: external('https://example.com/') })).rejects.toThrow(
      'body field `source`: must be a path starting with `/`',
    )
    await expect(gb.createSiteRedirect(w.org.id, w.site.id, { source: '/a/', destination: external('https://example.com/') })).rejects.toThrow(
      'body field `source`',
    )
    await expect(gb.createSiteRedirect(w.org.id, w.site.id, { source: '/a', destination: external('javascript:alert(1)') })).rejects.toThrow(
      'body field `destination.url`: must be an http or https URL',
    )
    await expect(
      gb.createSiteRedirect(w.org.id, w.site.id, {
        source: '/a',
        destination: { kind: 'site-page', siteSpaceId: w.siteSpaces.guide.id, pageId: w.pages.reference },
      }),
    ).rejects.toThrow(`body field \`destination.pageId\`: no page ${w.pages.reference} in the space of site-space ${w.siteSpaces.guide.id}`)
    await expect(
      gb.bulkUpsertSiteRedirects(w.org.id, w.site.id, { redirects: [{ source: '/a', destination: { kind: 'path', spaceId: w.spaces.api.id, path: 'nope' } }] }),
    ).rejects.toThrow(`body field \`redirects[0].destination.path\`: no page at this path in space ${w.spaces.api.id}`)
    await expect(gb.getSiteRedirectBySource(w.org.id, w.site.id, { source: '/nothing' })).rejects.toMatchObject({ code: 404 })
  })

  it('an outsider gets 404, a reader 403 on changes, a guest 404', async () => {
    const w = await redirectWorld()
    const created = await w.client(w.tokens.ada).orgs.createSiteRedirect(w.org.id, w.site.id, { source: '/x', destination: external('https://example.com/') })
    const body = { source: '/y', destination: external('https://example.com/y') }
    await expect(w.client(w.tokens.olga).orgs.listSiteRedirects(w.org.id, w.site.id)).rejects.toMatchObject({ code: 404 })
    await expect(w.client(w.tokens.olga).orgs.getSiteRedirectBySource(w.org.id, w.site.id, { source: '/x' })).rejects.toMatchObject({ code: 404 })
    await expect(w.client(w.tokens.olga).orgs.createSiteRedirect(w.org.id, w.site.id, body)).rejects.toMatchObject({ code: 404 })
    await expect(w.client(w.tokens.gina).orgs.getSiteRedirectBySource(w.org.id, w.site.id, { source: '/x' })).rejects.toMatchObject({ code: 404 })
    const rita = w.client(w.tokens.rita).orgs
    expect((await rita.listSiteRedirects(w.org.id, w.site.id)).data.count).toBe(1)
    await expect(rita.createSiteRedirect(w.org.id, w.site.id, body)).rejects.toMatchObject({ code: 403 })
    await expect(rita.bulkUpsertSiteRedirects(w.org.id, w.site.id, { redirects: [body] })).rejects.toMatchObject({ code: 403 })
    await expect(rita.updateSiteRedirectById(w.org.id, w.site.id, created.data.id, { permanent: true })).rejects.toMatchObject({ code: 403 })
    expectError(await call(w.api, w.tokens.rita, 'DELETE', `${w.base}/redirects/${created.data.id}`), 403, 'You need the edit role on this site')
  })
})
