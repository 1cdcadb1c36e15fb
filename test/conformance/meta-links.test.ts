import { describe, expect, it } from 'vitest'
import { call } from '../helpers.js'
import { metaLinksWorld } from '../domains/meta-links/helpers.js'
import { expectOfficialError, expectOfficialResponse } from './official.js'

/** A page's meta links through `@gitbook/api` (in a revision, in the main content, in a change request), checked against the official schemas. */
async function setup() {
  const w = await metaLinksWorld()
  const en = await w.space('English', ['Getting Started', 'Install'], { visibility: 'public' })
  const fr = await w.space('Français', ['Getting Started', 'Install'])
  const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [en.id, fr.id], published: true })
  const urls = await w.siteSpaceUrls(site.id)
  const revision = (await w.ada('GET', `/v1/spaces/${en.id}/content`)).body.id as string
  return { ...w, gb: w.client(w.tokens.ada), en, fr, site, urls, revision }
}

describe('conformance: meta links through @gitbook/api', () => {
  it('listRevisionPageMetaLinks, listSpacePageMetaLinks, listChangeRequestPageMetaLinks', async () => {
    const w = await setup()
    const expected = { canonical: { kind: 'url', url: `${w.urls[w.en.id]}/install` }, alternates: [{ kind: 'url', url: `${w.urls[w.fr.id]}/install` }] }
    // As the renderer calls it.
    const inRevision = await w.gb.spaces.listRevisionPageMetaLinks(w.en.id, w.revision, w.en.pages.Install!)
    expect(inRevision.status).toBe(200)
    expect(inRevision.data).toEqual(expected)
    expectOfficialResponse('listRevisionPageMetaLinks', 200, inRevision.data)
    const inSpace = await w.gb.spaces.listSpacePageMetaLinks(w.en.id, w.en.pages.Install!)
    expect(inSpace.data).toEqual(expected)
    expectOfficialResponse('listSpacePageMetaLinks', 200, inSpace.data)
    // A change request's page: the published URLs of the page at its path there.
    const cr = (await w.gb.spaces.createChangeRequest(w.en.id, { subject: 'More' })).data
    const inCr = await w.gb.spaces.listChangeRequestPageMetaLinks(w.en.id, cr.id, w.en.pages.Install!)
    expect(inCr.data).toEqual(expected)
    expectOfficialResponse('listChangeRequestPageMetaLinks', 200, inCr.data)
    const added = await w.ada('POST', `/v1/spaces/${w.en.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: 'Not published yet.' } }],
    })
    const draft = added.body.changes[0].page.id
    const unpublished = await w.gb.spaces.listChangeRequestPageMetaLinks(w.en.id, cr.id, draft)
    expect(unpublished.data).toEqual({ alternates: [] })
    expectOfficialResponse('listChangeRequestPageMetaLinks', 200, unpublished.data)
  })

  it('a missing page, revision or change request is a 404; an outsider gets 404, a visitor of the public space 403 on change requests', async () => {
    const w = await setup()
    const space = `/v1/spaces/${w.en.id}`
    const cr = (await w.gb.spaces.createChangeRequest(w.en.id, { subject: 'More' })).data
    for (const path of [
      `${space}/revisions/${w.revision}/page/nope/meta-links`,
      `${space}/revisions/nope/page/${w.en.pages.Install}/meta-links`,
      `${space}/content/page/nope/meta-links`,
      `${space}/change-requests/nope/content/page/${w.en.pages.Install}/meta-links`,
      `/v1/spaces/nope/content/page/${w.en.pages.Install}/meta-links`,
    ]) {
      const res = await call(w.api, w.tokens.ada, 'GET', path)
      expect(res.status, path).toBe(404)
      expectOfficialError(404, res.body)
    }
    // Olga is no member: the English space is public (she is its visitor), the French one is private.
    const olga = w.client(w.tokens.olga)
    await expect(olga.spaces.listSpacePageMetaLinks(w.fr.id, w.fr.pages.Install!)).rejects.toThrow('not found')
    await expect(olga.spaces.listRevisionPageMetaLinks(w.fr.id, w.revision, w.fr.pages.Install!)).rejects.toThrow('not found')
    expect((await olga.spaces.listSpacePageMetaLinks(w.en.id, w.en.pages.Install!)).status).toBe(200)
    const visitor = await call(w.api, w.tokens.olga, 'GET', `${space}/change-requests/${cr.id}/content/page/${w.en.pages.Install}/meta-links`)
    expect(visitor.status).toBe(403)
    expectOfficialError(403, visitor.body)
  })
})
