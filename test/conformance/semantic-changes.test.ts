import type { ChangeRequestContentChange, ChangeRequestContentUpdate } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld, siteToken } from '../helpers.js'
import { expectOfficialError } from './official.js'
import { expectOfficialChanges } from './semantic-official.js'

/**
 * getChangeRequestChanges and getRevisionSemanticChanges through `@gitbook/api`, checked against
 * the official schemas (semantic-official.ts: an edited page part by part). Who reads them and
 * the kinds answered: docs/behaviour/content-and-change-requests.md, "Semantic changes".
 */

async function setup() {
  const w = await createWorld()
  const gb = w.client(w.tokens.ada)
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook', visibility: 'public' })
  const edit = async (cr: string, changes: ChangeRequestContentChange[]) =>
    (await gb.spaces.updateChangeRequestContent(space.id, cr, { changes }, { compat: false })).data as ChangeRequestContentUpdate
  const seed = (await gb.spaces.createChangeRequest(space.id, { subject: 'Seed' })).data
  const update = await edit(seed.id, [
    { operation: 'insert_page', title: 'Guide', document: { markdown: 'Guide.\n' } },
    { operation: 'insert_page', title: 'Reference', document: { markdown: 'Ref.\n' } },
  ])
  const [guide, reference] = update.changes.map((c) => ('page' in c && typeof c.page === 'object' ? c.page.id : ''))
  await gb.spaces.mergeChangeRequest(space.id, seed.id)
  const cr = (await gb.spaces.createChangeRequest(space.id, { subject: 'Edit' })).data
  await edit(cr.id, [
    { operation: 'insert_page', title: 'News', document: { markdown: 'New.\n' } },
    { operation: 'update_page', page: guide!, title: 'Guides', document: { markdown: 'Edited.\n' } },
    { operation: 'update_page', page: reference!, into: guide! },
    { operation: 'insert_files', files: [{ name: 'a.txt', base64: 'aGk=', contentType: 'text/plain' }] },
  ])
  // A reusable content: written with this API's batch operation (the official batch has none for them).
  await w.api.fetch(
    new Request(`http://localhost:4000/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.tokens.ada}`, 'content-type': 'application/json' },
      body: JSON.stringify({ changes: [{ operation: 'insert_reusable_content', title: 'Support', document: { markdown: 'Write to us.\n' } }] }),
    }),
  )
  return { ...w, gb, space, cr, guide: guide!, reference: reference!, base: `/v1/spaces/${space.id}` }
}

describe('conformance: semantic changes through @gitbook/api', () => {
  it("getChangeRequestChanges: a change request's changes against its base, each kind in the official shape", async () => {
    const w = await setup()
    const res = await w.gb.spaces.getChangeRequestChanges(w.space.id, w.cr.id, { limit: 100 })
    expect(res.status).toBe(200)
    expectOfficialChanges('getChangeRequestChanges', res.data)
    expect(res.data.changes.map((c) => c.type).sort()).toEqual(['file_created', 'page_created', 'page_edited', 'page_moved', 'reusable_content_created'])
    // The default limit is 10; a smaller one counts the rest in `more`.
    const one = await w.gb.spaces.getChangeRequestChanges(w.space.id, w.cr.id, { limit: 1 })
    expectOfficialChanges('getChangeRequestChanges', one.data)
    expect(one.data.changes).toHaveLength(1)
    expect(one.data.more).toBe(4)
  })

  it('getRevisionSemanticChanges: what a merge revision brought, with the change request it merged', async () => {
    const w = await setup()
    await w.gb.spaces.mergeChangeRequest(w.space.id, w.cr.id)
    const main = (await w.gb.spaces.getSpaceById(w.space.id)).data.revision
    const res = await w.gb.spaces.getRevisionSemanticChanges(w.space.id, main, { computed: false, metadata: false, limit: 100 })
    expect(res.status).toBe(200)
    expectOfficialChanges('getRevisionSemanticChanges', res.data)
    expect(res.data.mergedFrom?.id).toBe(w.cr.id)
    expect(res.data.changes.map((c) => c.type).sort()).toEqual(['file_created', 'page_created', 'page_edited', 'page_moved', 'reusable_content_created'])
  })

  it('bad input: a `limit` that is not a whole number from 0 to 1000 is a 400 naming it; an unknown change request or revision a 404', async () => {
    const w = await setup()
    for (const [limit, rule] of [
      ['ten', 'must be a whole number written in decimal digits'],
      ['-1', 'must be at least 0'],
      ['1001', 'must be at most 1000'],
      ['1.5', 'must be a whole number written in decimal digits'],
    ]) {
      for (const path of [`${w.base}/change-requests/${w.cr.id}/changes`, `${w.base}/revisions/${w.cr.revision}/changes`]) {
        const res = await call(w.api, w.tokens.ada, 'GET', `${path}?limit=${limit}`)
        expect(res.status, `${path}?limit=${limit}`).toBe(400)
        expectOfficialError(400, res.body)
        expect(res.body.error.message).toBe(`Invalid request: query parameter \`limit\`: ${rule}`)
      }
    }
    for (const path of [`${w.base}/change-requests/nope/changes`, `${w.base}/revisions/nope/changes`, `/v1/spaces/nope/change-requests/${w.cr.id}/changes`]) {
      const res = await call(w.api, w.tokens.ada, 'GET', path)
      expect(res.status, path).toBe(404)
      expectOfficialError(404, res.body)
    }
  })

  it('no access: an outsider gets 404; a visitor of the public space and a site token 403; a reader reads them', async () => {
    const w = await setup()
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs', spaces: [w.space.id], published: true })
    const visitorToken = await siteToken(w.api, site.urls.published!)
    const main = (await w.gb.spaces.getSpaceById(w.space.id)).data.revision
    const paths = [`${w.base}/change-requests/${w.cr.id}/changes`, `${w.base}/revisions/${main}/changes`]
    for (const path of paths) {
      // The space is public: an outsider sees it, as a visitor, but not what changed.
      expect((await call(w.api, w.tokens.olga, 'GET', path)).status, path).toBe(403)
      expect((await call(w.api, visitorToken, 'GET', path)).status, path).toBe(403)
      expect((await call(w.api, w.tokens.rita, 'GET', path)).status, path).toBe(200)
    }
    // A private space is hidden from the outsider altogether.
    const privateSpace = await w.api.fixtures.createSpace(w.org.id, { title: 'Private' })
    const cr = (await w.gb.spaces.createChangeRequest(privateSpace.id, { subject: 'x' })).data
    const hidden = await call(w.api, w.tokens.olga, 'GET', `/v1/spaces/${privateSpace.id}/change-requests/${cr.id}/changes`)
    expect(hidden.status).toBe(404)
    expectOfficialError(404, hidden.body)
  })
})
