import type { ChangeRequestContentUpdate, JSONDocument } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../helpers.js'
import { expectOfficialError, expectOfficialResponse } from './official.js'

/**
 * Reusable contents through `@gitbook/api` (docs/behaviour/content-and-change-requests.md, "Reusable contents"):
 * created in a change request (the batch operations beyond the official ones), merged, then read
 * by the official operations, answers checked against the official schemas.
 */

type Change = Record<string, unknown>

async function setup() {
  const w = await createWorld()
  const gb = w.client(w.tokens.ada)
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const cr = (await gb.spaces.createChangeRequest(space.id, { subject: 'Seed' })).data
  const batch = async (changes: Change[], crId = cr.id) => {
    const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${crId}/content?compat=false`, { changes })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body as ChangeRequestContentUpdate
  }
  const first = await batch([
    { operation: 'insert_reusable_content', title: 'Support', ref: 'support', document: { markdown: 'Write to **support@example.com**.\n' } },
    {
      operation: 'insert_page',
      title: 'Getting Started',
      document: {
        document: {
          object: 'document',
          data: {},
          nodes: [
            { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Before.', marks: [] }] }] },
            { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: 'support' } } },
          ],
        },
      },
    },
  ])
  const page = first.changes[0]!.object === 'created_page' ? first.changes[0]!.page.id : ''
  const crRevision = (await gb.spaces.getChangeRequestById(space.id, cr.id)).data.revision
  const reusable = (await gb.spaces.getRevisionById(space.id, crRevision)).data.reusableContents[0]!
  const merged = await gb.spaces.mergeChangeRequest(space.id, cr.id)
  expect(merged.data.result).toBe('merge')
  return { ...w, gb, space, cr, batch, page, reusable, revision: merged.data.revision }
}

describe('conformance: reusable contents through @gitbook/api', () => {
  it("getReusableContentById, getReusableContentInRevisionById, getReusableContentDocumentInRevisionById and the revision's reusableContents", async () => {
    const w = await setup()
    expect(w.reusable).toMatchObject({ title: 'Support' })
    const revision = await w.gb.spaces.getCurrentRevision(w.space.id)
    expect(revision.data.reusableContents).toEqual([{ id: w.reusable.id, title: 'Support', document: expect.any(String) }])
    expectOfficialResponse('getCurrentRevision', 200, revision.data)
    const current = await w.gb.spaces.getReusableContentById(w.space.id, w.reusable.id)
    expect(current.data).toEqual(revision.data.reusableContents[0])
    expectOfficialResponse('getReusableContentById', 200, current.data)
    const inRevision = await w.gb.spaces.getReusableContentInRevisionById(w.space.id, w.revision, w.reusable.id, { metadata: false })
    expect(inRevision.data).toEqual(current.data)
    expectOfficialResponse('getReusableContentInRevisionById', 200, inRevision.data)
    for (const evaluated of [undefined, true, 'deterministic-only'] as const) {
      const document = await w.gb.spaces.getReusableContentDocumentInRevisionById(w.space.id, w.revision, w.reusable.id, { evaluated })
      expect(JSON.stringify(document.data)).toContain('support@example.com')
      expectOfficialResponse('getReusableContentDocumentInRevisionById', 200, document.data)
    }
    // Its `document` is a document id, as a page's `documentId`.
    const byId = await w.gb.spaces.getDocumentById(w.space.id, (current.data as { document: string }).document)
    expect(JSON.stringify(byId.data)).toContain('support@example.com')
  })

  it('getReusableContentInChangeRequestById: the change request sees its own edit, main keeps its version', async () => {
    const w = await setup()
    const cr = (await w.gb.spaces.createChangeRequest(w.space.id, { subject: 'Rename' })).data
    await w.batch([{ operation: 'update_reusable_content', reusableContent: w.reusable.id, title: 'Help' }], cr.id)
    const inCr = await w.gb.spaces.getReusableContentInChangeRequestById(w.space.id, cr.id, w.reusable.id)
    expect(inCr.data).toMatchObject({ id: w.reusable.id, title: 'Help' })
    expectOfficialResponse('getReusableContentInChangeRequestById', 200, inCr.data)
    expect((await w.gb.spaces.getReusableContentById(w.space.id, w.reusable.id)).data.title).toBe('Support')
  })

  it('dereferenced=reusable-contents inlines the reusable content into the page document (and its page answers)', async () => {
    const w = await setup()
    const stored = await w.gb.spaces.getPageDocumentInRevisionById(w.space.id, w.revision, w.page)
    expect((stored.data as JSONDocument).nodes.map((n) => n.type)).toEqual(['paragraph', 'reusable-content'])
    for (const dereferenced of ['reusable-contents', true] as const) {
      const doc = await w.gb.spaces.getPageDocumentInRevisionById(w.space.id, w.revision, w.page, { evaluated: 'deterministic-only', dereferenced })
      expect((doc.data as JSONDocument).nodes.map((n) => n.type)).toEqual(['paragraph', 'paragraph'])
      expect(JSON.stringify(doc.data)).toContain('support@example.com')
      expectOfficialResponse('getPageDocumentInRevisionById', 200, doc.data)
    }
    const page = await w.gb.spaces.getPageById(w.space.id, w.page, { dereferenced: 'reusable-contents' })
    expect(JSON.stringify(page.data)).toContain('support@example.com')
    expectOfficialResponse('getPageById', 200, page.data)
  })

  it('bad input: a 400 naming the field', async () => {
    const w = await setup()
    const bad = await call(
      w.api,
      w.tokens.ada,
      'GET',
      `/v1/spaces/${w.space.id}/revisions/${w.revision}/reusable-contents/${w.reusable.id}/document?evaluated=maybe`,
    )
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('`evaluated`')
    expectOfficialError(400, bad.body)
    const cr = (await w.gb.spaces.createChangeRequest(w.space.id, { subject: 'Bad' })).data
    const path = `/v1/spaces/${w.space.id}/change-requests/${cr.id}/content`
    const noTitle = await call(w.api, w.tokens.ada, 'POST', path, { changes: [{ operation: 'insert_reusable_content', title: '' }] })
    expect(noTitle.status).toBe(400)
    expect(noTitle.body.error.message).toContain('`changes[0].title`')
    const unknown = await call(w.api, w.tokens.ada, 'POST', path, { changes: [{ operation: 'delete_reusable_content', reusableContent: 'nope' }] })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.message).toContain('`changes[0].reusableContent`: no reusable content "nope"')
    // A failed batch changes nothing.
    expect((await w.gb.spaces.getChangeRequestById(w.space.id, cr.id)).data.revision).toBe(cr.revision)
  })

  it('no access: 404 for an outsider, 404 for a reusable content the revision does not hold', async () => {
    const w = await setup()
    const olga = w.client(w.tokens.olga)
    for (const read of [
      () => olga.spaces.getReusableContentById(w.space.id, w.reusable.id),
      () => olga.spaces.getReusableContentInRevisionById(w.space.id, w.revision, w.reusable.id),
      () => olga.spaces.getReusableContentDocumentInRevisionById(w.space.id, w.revision, w.reusable.id),
      () => olga.spaces.getReusableContentInChangeRequestById(w.space.id, w.cr.id, w.reusable.id),
    ])
      await expect(read()).rejects.toMatchObject({ code: 404 })
    const missing = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/reusable-contents/nope`)
    expect(missing.status).toBe(404)
    expectOfficialError(404, missing.body)
    // The change request's first revision (before the batch) holds none.
    const before = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/revisions/${w.cr.revisionInitial}/reusable-contents/${w.reusable.id}`)
    expect(before.status).toBe(404)
  })
})
