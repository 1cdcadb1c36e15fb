import { GitBookAPIError, type PublishedSiteContent, type RevisionPageDocument } from '@gitbook/api'
import { BASE, rendererWorld } from './renderer-world.js'
import { describe, expect, it } from 'vitest'
import { expectOfficialResponse } from './official.js'
import { expectOfficialChanges } from './semantic-official.js'

/**
 * The renderer's change request preview (GitBook Open: lib/data/urls.ts reads `~/changes/<id>/`
 * out of the URL, middleware.ts resolves it with the member's API token on a preview host,
 * lib/context.ts reads the change request and its revision with the site token of the answer,
 * AdminToolbar/changedPages.ts asks what it changed), replayed over the demo data through
 * `@gitbook/api`. docs/behaviour/published.md, "Previews".
 */

async function setup() {
  const { api, demo, client, admin, site } = await rendererWorld()
  const space = demo.spaces[0]!
  const revision = (await admin.spaces.getRevisionById(space.id, (await admin.spaces.getSpaceById(space.id)).data.revision)).data
  const page = revision.pages.find((p): p is RevisionPageDocument => p.type === 'document' && p.path !== '')!
  // A change request editing one page of the Acme Docs site's first space.
  const opened = (await admin.spaces.createChangeRequest(space.id, { subject: 'Better words' })).data
  await admin.spaces.updateChangeRequestContent(space.id, opened.id, {
    changes: [{ operation: 'update_page', page: page.id, document: { markdown: 'Reworded.\n' } }],
  })
  const cr = (await admin.spaces.getChangeRequestById(space.id, opened.id)).data
  return { api, demo, client, admin, site, space, page, cr }
}

const statusOf = (call: Promise<{ status: number }>) =>
  call.then(
    (res) => res.status,
    (error: GitBookAPIError) => error.code,
  )

describe('contract: the renderer previews a change request', () => {
  it("a member resolves the preview URL; with the answer's token the renderer reads the change request, its content and what it changed", async () => {
    const { demo, client, site, space, page, cr } = await setup()
    // The reader (role read) previews: the renderer on a preview host passes the member's token to the resolution.
    const member = client(demo.readerToken)
    const res = await member.urls.resolvePublishedContentByUrl({
      url: `${site.urls.published}/~/changes/${cr.id}/${page.path}`,
      visitor: { unsignedClaims: {} },
    })
    expectOfficialResponse('resolvePublishedContentByUrl', 200, res.data)
    const data = res.data as PublishedSiteContent
    expect(data).toMatchObject({ space: space.id, changeRequest: cr.id, pathname: page.path, preview: true })
    expect(data.basePath.endsWith(`/~/changes/${cr.id}/`)).toBe(true)
    expect(data.canonicalUrl).toBe(`${site.urls.published}/${page.path}`)

    // lib/context.ts: the space, the change request, its revision, with the answer's token.
    const renderer = client(data.apiToken)
    expectOfficialResponse('getSpaceById', 200, (await renderer.spaces.getSpaceById(space.id)).data)
    const changeRequest = (await renderer.spaces.getChangeRequestById(space.id, data.changeRequest!)).data
    expectOfficialResponse('getChangeRequestById', 200, changeRequest)
    const revision = (await renderer.spaces.getRevisionById(space.id, changeRequest.revision, { metadata: true })).data
    expectOfficialResponse('getRevisionById', 200, revision)
    // The page's document in the change request is the edited one.
    const document = (await renderer.spaces.getPageDocumentInRevisionById(space.id, changeRequest.revision, page.id, { evaluated: 'deterministic-only' })).data
    expectOfficialResponse('getPageDocumentInRevisionById', 200, document)
    expect(JSON.stringify(document)).toContain('Reworded.')
    // AdminToolbar/changedPages.ts: the page shows as changed.
    const changes = (await renderer.spaces.getChangeRequestChanges(space.id, changeRequest.id, { limit: 100 })).data
    expectOfficialChanges('getChangeRequestChanges', changes)
    expect(changes.changes).toEqual([expect.objectContaining({ type: 'page_edited', page: expect.objectContaining({ id: page.id, type: 'document' }) })])

    // The renderer's own lookup strips `~/changes/<id>` before resolving (lib/data/urls.ts): the member's token still reads it.
    const stripped = (await member.urls.resolvePublishedContentByUrl({ url: site.urls.published!, visitor: { unsignedClaims: {} } }))
      .data as PublishedSiteContent
    expect(stripped.changeRequest).toBeUndefined()
    expect(await statusOf(client(stripped.apiToken).spaces.getChangeRequestChanges(space.id, cr.id))).toBe(200)
  })

  it('a visitor without rights does not see the change request: the preview URL is a 404, and a visitor token reads none of it', async () => {
    const { client, site, space, page, cr } = await setup()
    const anonymous = client()
    const preview = `${site.urls.published}/~/changes/${cr.id}/${page.path}`
    expect(await statusOf(anonymous.urls.resolvePublishedContentByUrl({ url: preview, visitor: { unsignedClaims: {} } }))).toBe(404)
    const visitor = (await anonymous.urls.resolvePublishedContentByUrl({ url: `${site.urls.published}/${page.path}`, visitor: { unsignedClaims: {} } }))
      .data as PublishedSiteContent
    const reader = client(visitor.apiToken)
    expect(await statusOf(reader.spaces.getChangeRequestById(space.id, cr.id))).toBe(403)
    expect(await statusOf(reader.spaces.getChangeRequestChanges(space.id, cr.id))).toBe(403)
    expect(await statusOf(reader.spaces.getRevisionById(space.id, cr.revision))).toBe(404)
  })

  it('an unknown change request or revision in a preview URL is a 404, for a member too', async () => {
    const { demo, client, site } = await setup()
    const member = client(demo.readerToken)
    for (const url of [`${site.urls.published}/~/changes/nope/x`, `${site.urls.published}/~/revisions/nope/x`]) {
      expect(await statusOf(member.urls.resolvePublishedContentByUrl({ url, visitor: { unsignedClaims: {} } }))).toBe(404)
    }
  })

  it("a revision preview: the revision in the answer, and what it changed for the member's token", async () => {
    const { demo, client, site, space } = await setup()
    const member = client(demo.readerToken)
    const main = (await member.spaces.getSpaceById(space.id)).data.revision
    const res = await member.urls.resolvePublishedContentByUrl({ url: `${site.urls.published}/~/revisions/${main}/`, visitor: { unsignedClaims: {} } })
    expectOfficialResponse('resolvePublishedContentByUrl', 200, res.data)
    const data = res.data as PublishedSiteContent
    expect(data).toMatchObject({ revision: main, pathname: '', preview: true })
    const changes = await client(data.apiToken).spaces.getRevisionSemanticChanges(space.id, main, { computed: false, metadata: false, limit: 100 })
    expectOfficialChanges('getRevisionSemanticChanges', changes.data)
    expect(changes.data.changes.length).toBeGreaterThan(0)
  })

  it('the preview token reads as its member does, no longer: removed from the organization, it reads no change request', async () => {
    const { api, demo, client, site, space, cr } = await setup()
    const data = (await client(demo.readerToken).urls.resolvePublishedContentByUrl({ url: site.urls.published!, visitor: { unsignedClaims: {} } }))
      .data as PublishedSiteContent
    const renderer = client(data.apiToken)
    expect(await statusOf(renderer.spaces.getChangeRequestChanges(space.id, cr.id))).toBe(200)
    const rita = (await client(demo.readerToken).user.getAuthenticatedUser()).data
    const removed = await api.fetch(
      new Request(`${BASE}/v1/orgs/${demo.organization.id}/members/${rita.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${demo.adminToken}` } }),
    )
    expect(removed.status).toBe(204)
    expect(await statusOf(renderer.spaces.getChangeRequestChanges(space.id, cr.id))).toBe(403)
  })

  it("the renderer's preview host (`previewUrl`, https://sites.gitbook.com/preview/<site id>): members with the preview link's token, published or not; nobody else", async () => {
    const { api, demo, client, site, space, page, cr } = await setup()
    const member = client(demo.readerToken)
    const url = `https://sites.gitbook.com/preview/${site.id}/${page.path}`
    const res = await member.urls.resolvePublishedContentByUrl({ url, visitor: { unsignedClaims: {} } })
    expectOfficialResponse('resolvePublishedContentByUrl', 200, res.data)
    const data = res.data as PublishedSiteContent
    expect(data).toMatchObject({ site: site.id, space: space.id, pathname: page.path, basePath: `/preview/${site.id}/` })
    expect(data.canonicalUrl).toBe(`${site.urls.published}/${page.path}`)
    // The renderer strips `~/changes/<id>` and reads the change request with the answer's token.
    const renderer = client(data.apiToken)
    expect(await statusOf(renderer.spaces.getChangeRequestChanges(space.id, cr.id))).toBe(200)
    // Anonymous callers, site tokens and outsiders get the 404 of a URL naming nothing.
    expect(await statusOf(client().urls.resolvePublishedContentByUrl({ url, visitor: { unsignedClaims: {} } }))).toBe(404)
    expect(await statusOf(renderer.urls.resolvePublishedContentByUrl({ url, visitor: { unsignedClaims: {} } }))).toBe(404)
    // Unpublished, the site still previews for its members, and the preview token keeps reading it.
    const unpublish = await api.fetch(
      new Request(`${BASE}/v1/orgs/${demo.organization.id}/sites/${site.id}/unpublish`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demo.adminToken}` },
      }),
    )
    expect(unpublish.status).toBe(200)
    expect(await statusOf(member.urls.resolvePublishedContentByUrl({ url, visitor: { unsignedClaims: {} } }))).toBe(200)
    expect(await statusOf(renderer.spaces.getSpaceById(space.id))).toBe(200)
    expect(await statusOf(client().urls.resolvePublishedContentByUrl({ url: `${site.urls.published}/${page.path}`, visitor: { unsignedClaims: {} } }))).toBe(
      404,
    )
  })
})
