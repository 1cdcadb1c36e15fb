import {
  ChangeRequestOrderBy,
  ChangeRequestReviewStatus,
  ChangeRequestStatus,
  type ChangeRequest,
  type ChangeRequestContentChange,
  type ChangeRequestContentUpdate,
} from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { call, createWorld } from '../helpers.js'
import { expectOfficialError, expectOfficialResponse, expectOfficialSchema, hasOfficialOperation } from './official.js'

/** Change requests, their content, merges, reviews and reviewers, through `@gitbook/api`, checked against the official schemas. */

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

async function setup() {
  const w = await createWorld()
  const gb = w.client(w.tokens.ada)
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const base = `/v1/spaces/${space.id}`
  /** One batch of changes with `compat=false` (the answer that lists the affected pages). */
  const edit = async (cr: string, changes: ChangeRequestContentChange[]) => {
    const res = await gb.spaces.updateChangeRequestContent(space.id, cr, { changes }, { compat: false })
    expect(res.status).toBe(200)
    expectOfficialResponse('updateChangeRequestContent', 200, res.data)
    return res.data as ChangeRequestContentUpdate
  }
  const open = async (subject = 'Edit') => (await gb.spaces.createChangeRequest(space.id, { subject })).data
  return { ...w, gb, space, base, edit, open }
}

type Setup = Awaited<ReturnType<typeof setup>>
const created = (update: ChangeRequestContentUpdate, i = 0) => {
  const change = update.changes[i]!
  if (change.object !== 'created_page') throw new Error(`change ${i} is ${change.object}`)
  return change.page.id
}

/** Main content with "Getting Started" and its subpage "Install", merged from a first change request. */
async function withMain(w: Setup) {
  const seed = await w.open('Seed')
  const gs = created(await w.edit(seed.id, [{ operation: 'insert_page', title: 'Getting Started', document: { markdown: 'Hello.\n' } }]))
  const install = created(await w.edit(seed.id, [{ operation: 'insert_page', title: 'Install', into: gs, document: { markdown: 'one\n\ntwo\n' } }]))
  expect((await w.gb.spaces.mergeChangeRequest(w.space.id, seed.id)).data.result).toBe('merge')
  return { gs, install }
}

describe('conformance: change requests through @gitbook/api', () => {
  it('a subject is at most 100 characters (official ChangeRequestSubject) wherever it is set, so every answer carrying the change request holds', async () => {
    const w = await setup()
    const long = 'x'.repeat(101)
    await expect(w.gb.spaces.createChangeRequest(w.space.id, { subject: long })).rejects.toThrow('body field `subject`: must be at most 100 characters')
    const cr = await w.gb.spaces.createChangeRequest(w.space.id, { subject: 'x'.repeat(100) })
    expectOfficialResponse('createChangeRequest', 201, cr.data)
    await expect(w.gb.spaces.updateChangeRequestById(w.space.id, cr.data.id, { subject: long })).rejects.toThrow(
      'body field `subject`: must be at most 100 characters',
    )
    const reviewers = call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${cr.data.id}/requested-reviewers`, {
      users: [w.users.rita.id],
      subject: long,
    })
    expect((await reviewers).body.error.message).toContain('body field `subject`: must be at most 100 characters')
    const list = await w.gb.spaces.listChangeRequestsForSpace(w.space.id)
    expectOfficialResponse('listChangeRequestsForSpace', 200, list.data)
    expect(list.data.items.map((c) => c.subject)).toEqual(['x'.repeat(100)])
    // A state document is held to the same rule.
    const dump = w.api.dump()
    const seed = { ...dump, changeRequests: dump.changeRequests!.map((row) => ({ ...row, subject: long })) }
    expect(() => createDocsApi({ seed })).toThrow(/subject/)
  })

  it('createChangeRequest, getChangeRequestById (id and number), updateChangeRequestById, listChangeRequestsForSpace, listChangeRequestsForOrganization', async () => {
    const w = await setup()
    const first = await w.gb.spaces.createChangeRequest(w.space.id, { subject: 'First' })
    expect(first.status).toBe(201)
    expect(first.data).toMatchObject({ object: 'change-request', number: 1, status: 'open', subject: 'First' })
    expectOfficialResponse('createChangeRequest', 201, first.data)
    const second = await w.gb.spaces.createChangeRequest(w.space.id, {})
    expect(second.data.number).toBe(2)
    expectOfficialResponse('createChangeRequest', 201, second.data)
    const got = await w.gb.spaces.getChangeRequestById(w.space.id, first.data.id)
    expect(got.data.id).toBe(first.data.id)
    expectOfficialResponse('getChangeRequestById', 200, got.data)
    const byNumber = await w.gb.spaces.getChangeRequestById(w.space.id, '2')
    expect(byNumber.data.id).toBe(second.data.id)
    expectOfficialResponse('getChangeRequestById', 200, byNumber.data)
    const patched = await w.gb.spaces.updateChangeRequestById(w.space.id, first.data.id, {
      subject: 'First!',
      status: 'draft',
      description: {
        object: 'document',
        data: {},
        nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why', marks: [] }] }] }],
      },
    })
    expect(patched.data).toMatchObject({ subject: 'First!', status: 'draft' })
    // The official body also takes `links` (external links); the reference's PATCH body is subject,
    // description and status, and the reference wins: `links` is refused as an unknown key.
    const withLinks = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/change-requests/${first.data.id}`, { links: [] })
    expect(withLinks.status).toBe(400)
    expectOfficialError(400, withLinks.body)
    expectOfficialResponse('updateChangeRequestById', 200, patched.data)
    // Prefer: return=minimal, where the official document declares a 204 (through `call`: the client parses a body).
    const quiet = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/change-requests/${second.data.id}`, { subject: 'Quiet' }, { prefer: 'return=minimal' })
    expect(quiet.status).toBe(204)
    expectOfficialResponse('updateChangeRequestById', 204, quiet.body)
    const list = await w.gb.spaces.listChangeRequestsForSpace(w.space.id)
    expect(list.data.items.map((c) => c.id)).toEqual([second.data.id])
    expectOfficialResponse('listChangeRequestsForSpace', 200, list.data)
    const drafts = await w.gb.spaces.listChangeRequestsForSpace(w.space.id, {
      status: ChangeRequestStatus.Draft,
      orderBy: ChangeRequestOrderBy.CreatedAt,
      creator: w.users.ada.id,
      limit: 1,
    })
    expect(drafts.data.items.map((c) => c.id)).toEqual([first.data.id])
    expectOfficialResponse('listChangeRequestsForSpace', 200, drafts.data)
    const org = await w.gb.orgs.listChangeRequestsForOrganization(w.org.id, { limit: 1 })
    expect(org.data.items.map((c) => c.id)).toEqual([second.data.id])
    expectOfficialResponse('listChangeRequestsForOrganization', 200, org.data)
    // A list of statuses here (the official document's array; test/conformance/array-query.test.ts tries several).
    const orgDrafts = await w.gb.orgs.listChangeRequestsForOrganization(w.org.id, {
      status: [ChangeRequestStatus.Draft],
      orderBy: ChangeRequestOrderBy.UpdatedAt,
    })
    expect(orgDrafts.data.items.map((c) => c.id)).toEqual([first.data.id])
    expectOfficialResponse('listChangeRequestsForOrganization', 200, orgDrafts.data)
  })

  it('updateChangeRequestContent: the compat answer (a change request) and compat=false answers for insert_page (markdown and document), update_page, delete_page, revert_page, insert_files', async () => {
    const w = await setup()
    const { gs, install } = await withMain(w)
    const cr = await w.open()
    // compat=true, the default: the answer is the change request.
    const compat = await w.gb.spaces.updateChangeRequestContent(w.space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Compat', document: {} }] })
    expect(compat.status).toBe(200)
    expect((compat.data as ChangeRequest).object).toBe('change-request')
    expectOfficialResponse('updateChangeRequestContent', 200, compat.data)
    const markdown = await w.edit(cr.id, [
      { operation: 'insert_page', ref: 'faq', document: { markdown: '---\ndescription: Questions\n---\n# FAQ\n\nAsk **away**.\n' } },
    ])
    expect(markdown.changes).toEqual([expect.objectContaining({ object: 'created_page', ref: 'faq' })])
    expect(markdown.changeRequest.id).toBe(cr.id)
    // A JSON document, as a client copies a page it read with format=document.
    const read = await w.gb.spaces.getPageInChangeRequestById(w.space.id, cr.id, created(markdown), { format: 'document' })
    const document = 'document' in read.data ? read.data.document : undefined
    expect(document).toMatchObject({ object: 'document' })
    const copy = await w.edit(cr.id, [{ operation: 'insert_page', title: 'FAQ copy', into: gs, at: 0, document: { document: document! } }])
    const copied = await w.gb.spaces.getPageInChangeRequestById(w.space.id, cr.id, created(copy), { format: 'markdown' })
    expect((copied.data as { markdown: string }).markdown).toContain('**away**')
    const updated = await w.edit(cr.id, [
      { operation: 'update_page', page: install, title: 'Installing', emoji: '1f680', hidden: true, into: null, document: { markdown: 'one\n\nTWO\n' } },
    ])
    expect(updated.changes).toEqual([expect.objectContaining({ object: 'updated_page', page: expect.objectContaining({ id: install }) })])
    const deleted = await w.edit(cr.id, [{ operation: 'delete_page', page: created(copy) }])
    expect(deleted.changes).toEqual([{ object: 'deleted_page', page: created(copy) }])
    const reverted = await w.edit(cr.id, [{ operation: 'revert_page', page: install }])
    expect(reverted.changes).toEqual([expect.objectContaining({ object: 'updated_page' })])
    const files = await w.edit(cr.id, [
      { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG, ref: 'dot' }] },
      { operation: 'insert_page', title: 'Pic', document: { markdown: '![a dot](./dot)' } },
    ])
    expect(files.insertedFiles).toEqual([expect.objectContaining({ name: 'dot.png', contentType: 'image/png', size: 70, dimensions: { width: 1, height: 1 } })])
    expect(files.changes).toHaveLength(1)
  })

  it("reads of a change request's content: revision, pages, files, a page by id and by nested path (both formats), and the same revision through the revision reads", async () => {
    const w = await setup()
    const { gs, install } = await withMain(w)
    const cr = await w.open()
    const added = await w.edit(cr.id, [
      { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG, ref: 'dot' }] },
      { operation: 'insert_page', title: 'Setup', into: install, document: { markdown: `![a dot](./dot)\n\nBack to [the start](/pages/${gs}).\n` } },
    ])
    const file = added.insertedFiles![0]!
    const setupPage = created(added)
    const revision = await w.gb.spaces.getRevisionOfChangeRequestById(w.space.id, cr.id)
    expect(revision.data.id).toBe(added.changeRequest.revision)
    expect(revision.data.files.map((f) => f.id)).toEqual([file.id])
    expectOfficialResponse('getRevisionOfChangeRequestById', 200, revision.data)
    expectOfficialResponse(
      'getRevisionOfChangeRequestById',
      200,
      (await w.gb.spaces.getRevisionOfChangeRequestById(w.space.id, cr.id, { metadata: false, computed: false })).data,
    )
    const pages = await w.gb.spaces.listPagesInChangeRequest(w.space.id, cr.id)
    expect(pages.data.pages[0]!.id).toBe(gs)
    expectOfficialResponse('listPagesInChangeRequest', 200, pages.data)
    const files = await w.gb.spaces.listFilesInChangeRequestById(w.space.id, cr.id, { limit: 5 })
    expect(files.data.items.map((f) => f.id)).toEqual([file.id])
    expectOfficialResponse('listFilesInChangeRequestById', 200, files.data)
    const one = await w.gb.spaces.getFileInChangeRequestById(w.space.id, cr.id, file.id)
    expect(one.data).toMatchObject({ id: file.id, name: 'dot.png' })
    expectOfficialResponse('getFileInChangeRequestById', 200, one.data)
    for (const format of [undefined, 'document', 'markdown'] as const) {
      const byId = await w.gb.spaces.getPageInChangeRequestById(w.space.id, cr.id, setupPage, { format })
      expect(byId.data).toMatchObject({ id: setupPage, path: 'getting-started/install/setup' })
      expectOfficialResponse('getPageInChangeRequestById', 200, byId.data)
      const byPath = await w.gb.spaces.getPageInChangeRequestByPath(w.space.id, cr.id, 'getting-started/install/setup', { format })
      expect(byPath.data.id).toBe(setupPage)
      expectOfficialResponse('getPageInChangeRequestByPath', 200, byPath.data)
      const body = byPath.data as { markdown?: string; document?: unknown }
      if (format === 'markdown')
        expect([body.markdown, body.document]).toEqual([`![a dot](/files/${file.id})\n\nBack to [the start](/pages/${gs}).\n`, undefined])
      else expect([body.markdown, body.document !== undefined]).toEqual([undefined, true])
    }
    const encoded = await w.gb.spaces.getPageInChangeRequestByPath(w.space.id, cr.id, encodeURIComponent('getting-started/install'), {
      format: 'markdown',
      'format.markdown.refs': 'stable',
    })
    expect(encoded.data.id).toBe(install)
    expectOfficialResponse('getPageInChangeRequestByPath', 200, encoded.data)
    // The change request's revision is a revision of the space: the revision reads answer it too.
    const rev = await w.gb.spaces.getRevisionById(w.space.id, revision.data.id)
    expectOfficialResponse('getRevisionById', 200, rev.data)
    expectOfficialResponse('listPagesInRevisionById', 200, (await w.gb.spaces.listPagesInRevisionById(w.space.id, revision.data.id)).data)
    const revPage = await w.gb.spaces.getPageInRevisionById(w.space.id, revision.data.id, setupPage, { format: 'markdown' })
    expect(revPage.data.id).toBe(setupPage)
    expectOfficialResponse('getPageInRevisionById', 200, revPage.data)
  })

  it('mergeChangeRequest, updateChangeRequest (rebase), and both answering conflicts', async () => {
    const w = await setup()
    const { install } = await withMain(w)
    const a = await w.open('A')
    const b = await w.open('B')
    await w.edit(a.id, [{ operation: 'update_page', page: install, document: { markdown: 'ONE\n\ntwo\n' } }])
    await w.edit(b.id, [{ operation: 'insert_page', title: 'From B', document: {} }])
    const merged = await w.gb.spaces.mergeChangeRequest(w.space.id, a.id)
    expect(merged.status).toBe(200)
    expect(merged.data.result).toBe('merge')
    expectOfficialResponse('mergeChangeRequest', 200, merged.data)
    expect((await w.gb.spaces.getChangeRequestById(w.space.id, b.id)).data.outdated).toBe(true)
    const rebased = await w.gb.spaces.updateChangeRequest(w.space.id, b.id)
    expect(rebased.status).toBe(200)
    expect(rebased.data.result).toBe('update')
    expectOfficialResponse('updateChangeRequest', 200, rebased.data)
    const after = await w.gb.spaces.getChangeRequestById(w.space.id, b.id)
    expect(after.data).toMatchObject({ outdated: false, revisionMergedAncestor: merged.data.revision })
    expectOfficialResponse('getChangeRequestById', 200, after.data)
    // Both sides rewrite the same paragraph: conflicts, from the merge and from the update.
    const c = await w.open('C')
    const d = await w.open('D')
    await w.edit(c.id, [{ operation: 'update_page', page: install, document: { markdown: 'ONE-C\n\ntwo\n' } }])
    await w.edit(d.id, [{ operation: 'update_page', page: install, document: { markdown: 'ONE-D\n\ntwo\n' } }])
    await w.gb.spaces.mergeChangeRequest(w.space.id, c.id)
    const conflict = await w.gb.spaces.mergeChangeRequest(w.space.id, d.id)
    expect(conflict.data.result).toBe('conflicts')
    expectOfficialResponse('mergeChangeRequest', 200, conflict.data)
    const updateConflict = await w.gb.spaces.updateChangeRequest(w.space.id, d.id)
    expect(updateConflict.data.result).toBe('conflicts')
    expectOfficialResponse('updateChangeRequest', 200, updateConflict.data)
  })

  it('reviews: submitChangeRequestReview, getReviewsByChangeRequestId (formats, outdated), getChangeRequestReviewById', async () => {
    const w = await setup()
    const cr = await w.open()
    const first = await w.gb.spaces.submitChangeRequestReview(w.space.id, cr.id, {
      status: ChangeRequestReviewStatus.ChangesRequested,
      comment: { markdown: 'Please **fix** the title.' },
    })
    expect(first.status).toBe(201)
    expect(first.data).toMatchObject({ object: 'change-request-review', status: 'changes-requested', outdated: false })
    expectOfficialResponse('submitChangeRequestReview', 201, first.data)
    // The comment is accepted but not kept: the answer has no `comment` (optional in the official schema).
    expect(first.data.comment).toBeUndefined()
    const second = await w.gb.spaces.submitChangeRequestReview(w.space.id, cr.id, { status: ChangeRequestReviewStatus.Approved })
    expectOfficialResponse('submitChangeRequestReview', 201, second.data)
    for (const format of [undefined, 'document', 'markdown'] as const) {
      const list = await w.gb.spaces.getReviewsByChangeRequestId(w.space.id, cr.id, { format })
      expect(list.data.items.map((r) => [r.id, r.outdated])).toEqual([
        [first.data.id, true],
        [second.data.id, false],
      ])
      expectOfficialResponse('getReviewsByChangeRequestId', 200, list.data)
      const one = await w.gb.spaces.getChangeRequestReviewById(w.space.id, cr.id, first.data.id, { format })
      expect(one.data.id).toBe(first.data.id)
      expectOfficialResponse('getChangeRequestReviewById', 200, one.data)
    }
    // `outdated` (official) filters on the flag.
    const current = await w.gb.spaces.getReviewsByChangeRequestId(w.space.id, cr.id, { outdated: false, limit: 1 })
    expect([current.data.items.map((r) => r.id), current.data.count, current.data.next]).toEqual([[second.data.id], 1, undefined])
    expectOfficialResponse('getReviewsByChangeRequestId', 200, current.data)
    const outdated = await w.gb.spaces.getReviewsByChangeRequestId(w.space.id, cr.id, { outdated: true })
    expect(outdated.data.items.map((r) => r.id)).toEqual([first.data.id])
    expectOfficialResponse('getReviewsByChangeRequestId', 200, outdated.data)
  })

  it('requested reviewers: requestReviewersForChangeRequest, getRequestedReviewersByChangeRequestId, removeRequestedReviewerFromChangeRequest (205, then 204); getContributorsByChangeRequestId', async () => {
    const w = await setup()
    const cr = await w.open()
    const eddie = await w.api.fixtures.createUser({ displayName: 'Eddie Editor', email: 'eddie@acme.test' })
    await w.api.fixtures.addMember(w.org.id, eddie.id, 'review')
    const requested = await w.gb.spaces.requestReviewersForChangeRequest(w.space.id, cr.id, { users: [eddie.id], subject: 'Please look' })
    expect(requested.status).toBe(200)
    expect(requested.data.users?.map((u) => u.kind === 'user' && u.user.id)).toEqual([eddie.id])
    expectOfficialResponse('requestReviewersForChangeRequest', 200, requested.data)
    const listed = await w.gb.spaces.getRequestedReviewersByChangeRequestId(w.space.id, cr.id, { limit: 10 })
    expect(listed.data.items.map((r) => r.kind === 'user' && r.user.id)).toEqual([eddie.id])
    expectOfficialResponse('getRequestedReviewersByChangeRequestId', 200, listed.data)
    const removed = await w.gb.spaces.removeRequestedReviewerFromChangeRequest(w.space.id, cr.id, eddie.id)
    expect(removed.status).toBe(205)
    expectOfficialResponse('removeRequestedReviewerFromChangeRequest', 205, undefined)
    const again = await w.gb.spaces.removeRequestedReviewerFromChangeRequest(w.space.id, cr.id, eddie.id)
    expect(again.status).toBe(204)
    expectOfficialResponse('removeRequestedReviewerFromChangeRequest', 204, undefined)
    await w.edit(cr.id, [{ operation: 'insert_page', title: 'One', document: {} }])
    await w.edit(cr.id, [{ operation: 'insert_page', title: 'Two', document: {} }])
    const contributors = await w.gb.spaces.getContributorsByChangeRequestId(w.space.id, cr.id)
    expect(contributors.data.items).toEqual([expect.objectContaining({ count: 2, actionType: 'edit', user: expect.objectContaining({ id: w.users.ada.id }) })])
    expectOfficialResponse('getContributorsByChangeRequestId', 200, contributors.data)
  })

  it('getChangeRequestPDF (the client calls it getChangeRequestPdf), for the whole change request and for one page', async () => {
    const w = await setup()
    const { gs } = await withMain(w)
    const cr = await w.open()
    await w.edit(cr.id, [{ operation: 'insert_page', title: 'Printed', document: { markdown: 'Hello PDF' } }])
    const whole = await w.client(w.tokens.rita).spaces.getChangeRequestPdf(w.space.id, cr.id)
    expect(whole.status).toBe(200)
    expectOfficialResponse('getChangeRequestPDF', 200, whole.data)
    const page = await w.gb.spaces.getChangeRequestPdf(w.space.id, cr.id, { page: gs, only: true })
    expectOfficialResponse('getChangeRequestPDF', 200, page.data)
    const pdf = await w.api.fetch(page.data.url)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
  })

  it('listChangeRequestPageLinks and listChangeRequestFileBacklinks (no official operations): lists as the official List, with content references', async () => {
    const w = await setup()
    const { install } = await withMain(w)
    const cr = await w.open()
    const added = await w.edit(cr.id, [
      { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG, ref: 'dot' }] },
      {
        operation: 'insert_page',
        title: 'Linker',
        document: { markdown: `![a dot](./dot)\n\n[install](/pages/${install}) and [out](https://example.com/)\n` },
      },
    ])
    const [file, linker] = [added.insertedFiles![0]!, created(added)]
    await w.edit(cr.id, [{ operation: 'delete_page', page: install }])
    expect(hasOfficialOperation('listChangeRequestPageLinks')).toBe(false)
    const links = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/page/${linker}/links`)
    expect(links.status).toBe(200)
    expect(links.body.items.map((l: any) => [l.relation, l.status])).toEqual([
      ['file', 'ok'],
      ['page', 'broken'],
      ['url', 'ok'],
    ])
    expect(links.body.stats).toEqual({ total: 3, broken: { total: 1, changeRequest: 1 } })
    expectOfficialSchema('List', links.body)
    for (const link of links.body.items) expectOfficialSchema('ContentRef', link.targetReference)
    const gone = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/page/${install}/links`)
    expect(gone.status).toBe(404)
    expectOfficialError(404, gone.body)
    expect(hasOfficialOperation('listChangeRequestFileBacklinks')).toBe(false)
    const backlinks = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/files/${file.id}/backlinks`)
    expect(backlinks.status).toBe(200)
    expect(backlinks.body.items).toEqual([expect.objectContaining({ kind: 'page', page: linker, file: file.id })])
    expectOfficialSchema('List', backlinks.body)
    // The nearest official shape is a page reference (ContentRefPage): the reference gives a
    // backlink's organization, space and page as ids, not the objects of the official ContentLocationPage.
    for (const item of backlinks.body.items) expectOfficialSchema('ContentRefPage', item)
  })
})

describe('conformance: change request error bodies', () => {
  it('the 404s the official document declares (getChangeRequestById, getReviewsByChangeRequestId, getChangeRequestReviewById, getContributorsByChangeRequestId, updateChangeRequestContent)', async () => {
    const w = await setup()
    const cr = await w.open()
    const missing = `${w.base}/change-requests/99`
    const cases = [
      ['getChangeRequestById', 'GET', missing, undefined],
      ['getReviewsByChangeRequestId', 'GET', `${missing}/reviews`, undefined],
      ['getChangeRequestReviewById', 'GET', `${w.base}/change-requests/${cr.id}/reviews/nope`, undefined],
      ['getContributorsByChangeRequestId', 'GET', `${missing}/contributors`, undefined],
      ['updateChangeRequestContent', 'POST', `${missing}/content`, { changes: [{ operation: 'insert_page', document: {} }] }],
      // An outsider does not see the space: a 404 as well.
      ['getChangeRequestById', 'GET', `${w.base}/change-requests/${cr.id}`, undefined, w.tokens.olga],
    ] as const
    for (const [op, method, path, body, token] of cases) {
      const res = await call(w.api, token ?? w.tokens.ada, method, path, body)
      expect(res.status, `${op} ${path}`).toBe(404)
      expectOfficialResponse(op, 404, res.body)
    }
    await expect(w.gb.spaces.getChangeRequestById(w.space.id, '99')).rejects.toThrow('Change request not found')
  })

  it('400, 401, 403 and 409 (not declared per operation): bodies as the official shared error responses', async () => {
    const w = await setup()
    const cr = await w.open()
    const path = `${w.base}/change-requests/${cr.id}`
    const anonymous = await call(w.api, undefined, 'GET', `${w.base}/change-requests`)
    expect(anonymous.status).toBe(401)
    expectOfficialError(401, anonymous.body)
    const bad = [
      ['PATCH', path, { status: 'merged' }],
      ['POST', `${path}/content?compat=false`, { changes: [{ operation: 'delete_page', page: 'nope' }] }],
      ['POST', `${path}/content`, { changes: [] }],
      ['POST', `${path}/reviews`, { status: 'maybe' }],
      ['POST', `${path}/requested-reviewers`, { users: [w.users.olga.id] }],
      ['GET', `${w.base}/change-requests?status=closed`, undefined],
      ['GET', `${path}/pdf?only=yes`, undefined],
    ] as const
    for (const [method, url, body] of bad) {
      const res = await call(w.api, w.tokens.ada, method, url, body)
      expect(res.status, `${method} ${url}`).toBe(400)
      expectOfficialError(400, res.body)
    }
    // A reader may read change requests but not open, edit, review or merge them.
    const forbidden = [
      ['POST', `${w.base}/change-requests`, { subject: 'x' }],
      ['POST', `${path}/content`, { changes: [{ operation: 'insert_page', document: {} }] }],
      ['POST', `${path}/reviews`, { status: 'approved' }],
      ['POST', `${path}/merge`, undefined],
      ['POST', `${path}/update`, undefined],
      ['DELETE', `${path}/requested-reviewers/${w.users.ada.id}`, undefined],
    ] as const
    for (const [method, url, body] of forbidden) {
      const res = await call(w.api, w.tokens.rita, method, url, body)
      expect(res.status, `${method} ${url}`).toBe(403)
      expectOfficialError(403, res.body)
    }
    await expect(w.client(w.tokens.rita).spaces.mergeChangeRequest(w.space.id, cr.id)).rejects.toThrow('You need the review role')
    // Once merged, a change request cannot be merged, edited or reopened.
    expect((await w.gb.spaces.mergeChangeRequest(w.space.id, cr.id)).data.result).toBe('merge')
    const conflicts = [
      ['POST', `${path}/merge`, undefined],
      ['POST', `${path}/content`, { changes: [{ operation: 'insert_page', document: {} }] }],
      ['PATCH', path, { status: 'open' }],
    ] as const
    for (const [method, url, body] of conflicts) {
      const res = await call(w.api, w.tokens.ada, method, url, body)
      expect(res.status, `${method} ${url}`).toBe(409)
      expectOfficialError(409, res.body)
    }
  })
})
