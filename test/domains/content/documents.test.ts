import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../../helpers.js'

/**
 * `getDocumentById` (docs/behaviour/content-and-change-requests.md): a page's `documentId` names
 * one version of its body; a change request's work in progress is read only by callers who may
 * read change requests, as its revisions are.
 */
async function setup() {
  const w = await createWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Public handbook', visibility: 'public' })
  const base = `/v1/spaces/${space.id}`
  const ada = (method: string, path: string, body?: unknown) => call(w.api, w.tokens.ada, method, `${base}${path}`, body)
  const edit = async (changes: unknown[]) => {
    const cr = (await ada('POST', '/change-requests', { subject: 'Edit' })).body
    const res = await ada('POST', `/change-requests/${cr.id}/content?compat=false`, { changes })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return { cr: cr.id as string, changes: res.body.changes }
  }
  const merge = async (cr: string) => expect((await ada('POST', `/change-requests/${cr}/merge`)).status).toBe(200)
  const document = (token: string, id: string) => call(w.api, token, 'GET', `${base}/documents/${id}`)
  return { ...w, space, base, ada, edit, merge, document }
}

describe('documents by id', () => {
  it("a change request's version of a page is hidden from a visitor until main holds it; old versions of main stay readable", async () => {
    const w = await setup()
    const first = await w.edit([{ operation: 'insert_page', title: 'Guide', document: { markdown: 'First words.' } }])
    await w.merge(first.cr)
    const page = first.changes[0].page.id as string
    const v1 = (await w.ada('GET', `/content/page/${page}`)).body
    expect(v1.documentId).toEqual(expect.any(String))
    // Olga is no member: she reads the public space as a visitor.
    expect((await w.document(w.tokens.olga, v1.documentId)).body).toEqual(v1.document)

    const second = await w.edit([{ operation: 'update_page', page, document: { markdown: 'Second words.' } }])
    const draft = (await w.ada('GET', `/change-requests/${second.cr}/content/page/${page}`)).body
    expect(draft.documentId).not.toBe(v1.documentId)
    expect((await w.document(w.tokens.ada, draft.documentId)).body).toEqual(draft.document)
    expect((await w.document(w.tokens.rita, draft.documentId)).status).toBe(200)
    const hidden = await w.document(w.tokens.olga, draft.documentId)
    expect(hidden.status).toBe(404)
    expect(hidden.body.error.message).toBe('Document not found')

    await w.merge(second.cr)
    const v2 = (await w.ada('GET', `/content/page/${page}`)).body
    expect(v2.documentId).toBe(draft.documentId)
    expect((await w.document(w.tokens.olga, v2.documentId)).body).toEqual(draft.document)
    // The first version is in an older revision of main: still readable, as that revision is.
    expect((await w.document(w.tokens.olga, v1.documentId)).body).toEqual(v1.document)
  })

  it("another space's document is not found through this space", async () => {
    const w = await setup()
    const other = await w.api.fixtures.createSpace(w.org.id, { title: 'Other' })
    const first = await w.edit([{ operation: 'insert_page', title: 'Guide', document: { markdown: 'Words.' } }])
    await w.merge(first.cr)
    const { documentId } = (await w.ada('GET', `/content/page/${first.changes[0].page.id}`)).body
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${other.id}/documents/${documentId}`)).status).toBe(404)
  })
})
