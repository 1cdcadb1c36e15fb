import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { createMemoryBlobs } from '../../../src/storage/blobs.js'
import { call, expectError } from '../../helpers.js'
import { testStorage } from '../../test-storage.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { addMember, counters, edit, merge, openCr, setup } from './helpers.js'

describe('change requests: lifecycle and counters', () => {
  it('numbers change requests per space, addresses them by id or number, and keeps the counters exact', async () => {
    const w = await setup()
    const a = await openCr(w, 'First')
    const b = await openCr(w, 'Second')
    expect([a.number, b.number]).toEqual([1, 2])
    expectOfficialResponse('createChangeRequest', 201, a)
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/2`)).body.id).toBe(b.id)
    expect(counters(w, w.space.id)).toEqual({ total: 2, open: 2, draft: 0 })
    const draft = await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/change-requests/${a.id}`, { status: 'draft', subject: 'First!' })
    expect(draft.body).toMatchObject({ status: 'draft', subject: 'First!' })
    expectOfficialResponse('updateChangeRequestById', 200, draft.body)
    expect(counters(w, w.space.id)).toEqual({ total: 2, open: 1, draft: 1 })
    await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/change-requests/${b.id}`, { status: 'archived' })
    expect(counters(w, w.space.id)).toEqual({ total: 2, open: 0, draft: 1 })
    const list = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests`)
    expect(list.body.items).toEqual([])
    const drafts = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests?status=draft`)
    expect(drafts.body.items.map((c: any) => c.id)).toEqual([a.id])
    expectOfficialResponse('listChangeRequestsForSpace', 200, drafts.body)
    expectError(await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/change-requests/${a.id}`, { status: 'merged' }), 400, 'status')
    expectError(await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/99`), 404, 'Change request not found')
  })

  it('refuses readers (403) and hides change requests from outsiders (404); the org list shows only readable spaces', async () => {
    const w = await setup()
    const cr = await openCr(w)
    expectError(await call(w.api, w.tokens.rita, 'POST', `${w.base}/change-requests`, { subject: 'x' }), 403, 'edit')
    expect((await call(w.api, w.tokens.rita, 'GET', `${w.base}/change-requests/${cr.id}`)).status).toBe(200)
    expectError(await call(w.api, w.tokens.olga, 'GET', `${w.base}/change-requests/${cr.id}`), 404, 'not found')
    expectError(await call(w.api, w.tokens.olga, 'POST', `${w.base}/change-requests/${cr.id}/merge`), 404, 'not found')
    const before = w.api.dump()
    expectError(await edit(w, cr.id, [{ operation: 'insert_page', document: { markdown: '# A' } }], w.tokens.rita), 403, 'edit')
    expect(w.api.dump()).toEqual(before)
    const orgList = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/change-requests`)
    expect(orgList.body.items.map((c: any) => c.id)).toEqual([cr.id])
    expectOfficialResponse('listChangeRequestsForOrganization', 200, orgList.body)
    const guestList = await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/change-requests`)
    expect(guestList.body.items).toEqual([])
    // Invited to the space, the guest sees its change requests (and only those).
    await w.api.fixtures
      .createSpace(w.org.id, { title: 'Other' })
      .then((other) => call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${other.id}/change-requests`, {}))
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/permissions`, { role: 'read', users: [w.users.gina.id] })
    const invited = await call(w.api, w.tokens.gina, 'GET', `/v1/orgs/${w.org.id}/change-requests`)
    expect(invited.body.items.map((c: any) => c.id)).toEqual([cr.id])
  })
})

describe('change requests: roles and counters', () => {
  it('editors create, edit and update from main but neither review nor merge (403); reviewers review and merge', async () => {
    const w = await setup()
    const eddie = await addMember(w, 'Eddie Editor', 'edit')
    const rev = await addMember(w, 'Rev Iewer', 'review')
    const cr = await openCr(w, 'By an editor', eddie.token)
    expect(cr.createdBy.id).toBe(eddie.user.id)
    expect((await edit(w, cr.id, [{ operation: 'insert_page', title: 'Draft', document: {} }], eddie.token)).status).toBe(200)
    const other = await openCr(w, 'Moves main')
    await edit(w, other.id, [{ operation: 'insert_page', title: 'Main', document: {} }])
    await merge(w, other.id, rev.token)
    const updated = await call(w.api, eddie.token, 'POST', `${w.base}/change-requests/${cr.id}/update`)
    expect(updated.body.result).toBe('update')
    expectOfficialResponse('updateChangeRequest', 200, updated.body)
    const patched = await call(w.api, eddie.token, 'PATCH', `${w.base}/change-requests/${cr.id}`, { subject: 'Renamed by the editor' })
    expect(patched.status).toBe(200)
    const before = w.api.dump()
    expectError(await call(w.api, eddie.token, 'POST', `${w.base}/change-requests/${cr.id}/reviews`, { status: 'approved' }), 403, 'review')
    expectError(await merge(w, cr.id, eddie.token), 403, 'review')
    expect(w.api.dump()).toEqual(before)
    const reviewed = await call(w.api, rev.token, 'POST', `${w.base}/change-requests/${cr.id}/reviews`, { status: 'approved' })
    expect(reviewed.status).toBe(201)
    expectOfficialResponse('submitChangeRequestReview', 201, reviewed.body)
    const merged = await merge(w, cr.id, rev.token)
    expect(merged.body.result).toBe('merge')
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}`)).body).toMatchObject({
      status: 'merged',
      mergedBy: { id: rev.user.id },
    })
    const contributors = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/contributors`)).body.items
    expect(contributors.map((c: any) => [c.user.id, c.count])).toEqual([[eddie.user.id, 1]])
  })

  it('keeps changeRequests, changeRequestsOpen and changeRequestsDraft exact: draft → merged, archived → draft → open', async () => {
    const w = await setup()
    const space = async () => {
      const res = await call(w.api, w.tokens.ada, 'GET', w.base)
      expectOfficialResponse('getSpaceById', 200, res.body)
      return { total: res.body.changeRequests, open: res.body.changeRequestsOpen, draft: res.body.changeRequestsDraft }
    }
    const patch = (cr: string, status: string) => call(w.api, w.tokens.ada, 'PATCH', `${w.base}/change-requests/${cr}`, { status })
    const a = await openCr(w, 'Drafted then merged')
    const b = await openCr(w, 'Archived, drafted, reopened')
    expect(await space()).toEqual({ total: 2, open: 2, draft: 0 })
    await patch(a.id, 'draft')
    expect(await space()).toEqual({ total: 2, open: 1, draft: 1 })
    expect((await merge(w, a.id)).body.result).toBe('merge')
    expect(await space()).toEqual({ total: 2, open: 1, draft: 0 })
    await patch(b.id, 'archived')
    expect(await space()).toEqual({ total: 2, open: 0, draft: 0 })
    await patch(b.id, 'draft')
    expect(await space()).toEqual({ total: 2, open: 0, draft: 1 })
    await patch(b.id, 'open')
    expect(await space()).toEqual({ total: 2, open: 1, draft: 0 })
    // Setting the status it has changes no counter; a merged change request keeps its status.
    await patch(b.id, 'open')
    expectError(await patch(a.id, 'open'), 409, 'merged')
    expect(await space()).toEqual({ total: 2, open: 1, draft: 0 })
    expect(counters(w, w.space.id)).toEqual({ total: 2, open: 1, draft: 0 })
  })
})

describe('change request content', () => {
  it('inserts pages from markdown, reads them by id and path, and leaves main unchanged until merge', async () => {
    const w = await setup()
    const cr = await openCr(w)
    const res = await edit(w, cr.id, [
      { operation: 'insert_page', document: { markdown: '---\ndescription: Start here\n---\n# Getting Started\n\nHello **world**.\n' }, ref: 'gs' },
      { operation: 'insert_page', title: 'Install', into: undefined, document: { markdown: 'See [the start](./gs.md).' } },
    ])
    expect(res.status).toBe(200)
    expectOfficialResponse('updateChangeRequestContent', 200, res.body)
    const [gs, install] = res.body.changes
    expect(gs).toMatchObject({ object: 'created_page', ref: 'gs' })
    const moved = await edit(w, cr.id, [{ operation: 'update_page', page: install.page.id, into: gs.page.id }])
    expect(moved.status).toBe(200)
    const page = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/page/${gs.page.id}`)
    expect(page.body).toMatchObject({ title: 'Getting Started', slug: 'getting-started', path: 'getting-started', description: 'Start here' })
    expect(page.body.pages.map((p: any) => p.path)).toEqual(['getting-started/install'])
    expectOfficialResponse('getPageInChangeRequestById', 200, page.body)
    const raw = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/path/getting-started/install?format=markdown`)
    const encoded = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/path/getting-started%2Finstall?format=markdown`)
    expect(raw.body.id).toBe(install.page.id)
    expect(encoded.body.id).toBe(install.page.id)
    expect(raw.body.markdown).toContain(`/pages/${gs.page.id}`)
    expect(raw.body.document).toBeUndefined()
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/content/pages`)).body.pages).toEqual([])
    const merged = await merge(w, cr.id)
    expect(merged.body.result).toBe('merge')
    expectOfficialResponse('mergeChangeRequest', 200, merged.body)
    const main = await call(w.api, w.tokens.ada, 'GET', `${w.base}/content`)
    expectOfficialResponse('getCurrentRevision', 200, main.body)
    expect(main.body.type).toBe('merge')
    expect(main.body.mergedFrom.id).toBe(cr.id)
    expect(main.body.pages[0].id).toBe(gs.page.id)
    const byPath = await call(w.api, w.tokens.rita, 'GET', `${w.base}/content/path/getting-started/install`)
    expect(byPath.body.id).toBe(install.page.id)
    expectOfficialResponse('getPageByPath', 200, byPath.body)
    const after = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}`)
    expect(after.body).toMatchObject({ status: 'merged', revisionMerged: main.body.id })
    expect(counters(w, w.space.id)).toEqual({ total: 1, open: 0, draft: 0 })
    expectError(await merge(w, cr.id), 409, 'already merged')
    expectError(await edit(w, cr.id, [{ operation: 'insert_page', document: {} }]), 409, 'merged')
    const old = await call(w.api, w.tokens.ada, 'GET', `${w.base}/revisions/${cr.revisionInitial}`)
    expect(old.body.pages).toEqual([])
  })

  it('revert_page puts a page back as in the base (body, title, place), and removes a page the change request added', async () => {
    const w = await setup()
    const first = await openCr(w)
    const ins = await edit(w, first.id, [
      { operation: 'insert_page', title: 'Alpha', document: { markdown: 'original' } },
      { operation: 'insert_page', title: 'Beta', document: {} },
    ])
    const [alpha, beta] = ins.body.changes.map((c: any) => c.page.id)
    await merge(w, first.id)
    const cr = await openCr(w)
    const added = (await edit(w, cr.id, [{ operation: 'insert_page', title: 'New', document: {} }])).body.changes[0].page.id
    await edit(w, cr.id, [{ operation: 'update_page', page: alpha, title: 'Renamed', at: 1, document: { markdown: 'changed' } }])
    const reverted = await edit(w, cr.id, [
      { operation: 'revert_page', page: alpha },
      { operation: 'revert_page', page: added },
    ])
    expect(reverted.body.changes).toEqual([
      expect.objectContaining({ object: 'updated_page', page: expect.objectContaining({ id: alpha }) }),
      { object: 'deleted_page', page: added },
    ])
    const pages = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/pages`)).body.pages
    expect(pages.map((p: any) => [p.id, p.title, p.slug])).toEqual([
      [alpha, 'Alpha', 'alpha'],
      [beta, 'Beta', 'beta'],
    ])
    const page = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/page/${alpha}?format=markdown`)
    expect(page.body.markdown.trim()).toBe('original')
  })

  it('revert_page to a named revision: an old revision of the space works; one the space lacks is a 400 naming changes[i].revision', async () => {
    const w = await setup()
    const first = await openCr(w)
    const alpha = (await edit(w, first.id, [{ operation: 'insert_page', title: 'Alpha', document: { markdown: 'v1' } }])).body.changes[0].page.id
    await merge(w, first.id)
    const v1 = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/content`)).body.id
    const second = await openCr(w)
    await edit(w, second.id, [{ operation: 'update_page', page: alpha, document: { markdown: 'v2' } }])
    await merge(w, second.id)
    const cr = await openCr(w)
    const elsewhere = await w.api.fixtures.createSpace(w.org.id, { title: 'Elsewhere' })
    const before = w.api.dump()
    for (const revision of ['nope', elsewhere.revision]) {
      const bad = await edit(w, cr.id, [
        { operation: 'update_page', page: alpha, title: 'Touched' },
        { operation: 'revert_page', page: alpha, revision },
      ])
      expectError(bad, 400, `changes[1].revision\`: no revision "${revision}" in the space`)
    }
    expect(w.api.dump()).toEqual(before)
    expect((await edit(w, cr.id, [{ operation: 'revert_page', page: alpha, revision: v1 }])).status).toBe(200)
    const page = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/page/${alpha}?format=markdown`)
    expect(page.body.markdown.trim()).toBe('v1')
  })

  it('revert_page with block reverts only the listed blocks (modified, added, deleted), leaving the rest and the metadata', async () => {
    const w = await setup()
    const first = await openCr(w)
    const page = (await edit(w, first.id, [{ operation: 'insert_page', title: 'Alpha', document: { markdown: 'one\n\ntwo\n\nthree' } }])).body.changes[0].page
      .id
    await merge(w, first.id)
    const cr = await openCr(w)
    const read = async () => (await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/page/${page}?format=document`)).body
    const doc = (await read()).document
    const [one, two, three] = doc.nodes
    const text = (node: any) => node.nodes.map((t: any) => t.leaves.map((l: any) => l.text).join('')).join('')
    const paragraph = (key: string, value: string) => ({
      object: 'block',
      type: 'paragraph',
      key,
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] }],
    })
    // The change request edits "two", deletes "three", adds "four" first and "five" last, and retitles the page.
    const edited = { ...doc, nodes: [paragraph('k4', 'four'), one, paragraph(two.key, 'TWO'), paragraph('k5', 'five')] }
    expect((await edit(w, cr.id, [{ operation: 'update_page', page, title: 'Renamed', document: { document: edited } }])).status).toBe(200)
    const reverted = await edit(w, cr.id, [{ operation: 'revert_page', page, block: [two.key, three.key, 'k4'] }])
    expect(reverted.status).toBe(200)
    const after = await read()
    expect(after.title).toBe('Renamed')
    expect(after.document.nodes.map(text)).toEqual(['one', 'two', 'three', 'five'])
    expect(after.document.nodes.map((n: any) => n.key)).toEqual([one.key, two.key, three.key, 'k5'])
    const unknown = await edit(w, cr.id, [{ operation: 'revert_page', page, block: ['nope'] }])
    expectError(unknown, 400, 'changes[0].block[0]')
    expect((await read()).document).toEqual(after.document)
  })

  it('revert_page of a page whose old parent is now below it puts it at the root, not under its own subpage', async () => {
    // Regression: X (under P in the base) moved to the root, P moved under X, then X reverted:
    // X went back under P, P and X were each other's parents, and both left the page tree.
    const w = await setup()
    const first = await openCr(w)
    const p = (await edit(w, first.id, [{ operation: 'insert_page', title: 'P', document: {} }])).body.changes[0].page.id
    const x = (await edit(w, first.id, [{ operation: 'insert_page', title: 'X', into: p, document: { markdown: 'original' } }])).body.changes[0].page.id
    await merge(w, first.id)
    const cr = await openCr(w)
    await edit(w, cr.id, [{ operation: 'update_page', page: x, into: null, title: 'X moved', document: { markdown: 'changed' } }])
    await edit(w, cr.id, [{ operation: 'update_page', page: p, into: x }])
    expect((await edit(w, cr.id, [{ operation: 'revert_page', page: x }])).status).toBe(200)
    const pages = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/pages`)).body.pages
    expect(pages.map((q: any) => [q.id, q.title, q.pages.map((c: any) => c.id)])).toEqual([[x, 'X', [p]]])
    expect(pages[0].pages[0].pages).toEqual([])
  })

  it('a batch is atomic: one bad change writes nothing', async () => {
    const w = await setup()
    const cr = await openCr(w)
    await edit(w, cr.id, [{ operation: 'insert_page', title: 'Intro', document: {} }])
    const before = w.api.dump()
    const bad = await edit(w, cr.id, [
      { operation: 'insert_page', title: 'Other', document: {} },
      { operation: 'insert_page', title: 'Clash', slug: 'intro', document: {} },
    ])
    expectError(bad, 400, 'changes[1].slug')
    expect(w.api.dump()).toEqual(before)
    expectError(await edit(w, cr.id, [{ operation: 'delete_page', page: 'nope' }]), 400, 'changes[0].page')
    expectError(await edit(w, cr.id, [{ operation: 'launch' }]), 400, 'operation')
  })

  it('refuses markdown that cannot be stored (bad frontmatter, nesting past the limits) with a 400 naming it, and writes nothing', async () => {
    const w = await setup()
    const cr = await openCr(w)
    const before = w.api.dump()
    const cases: Array<[string, string]> = [
      ['---\ntitle: [unclosed\n---\nText', 'has frontmatter that is not valid YAML'],
      [`${'>'.repeat(20_000)} deep`, 'nests more than 64 quotes or lists on line 1'],
      [`${'- '.repeat(70)}deep`, 'nests more than 64 quotes or lists'],
      [Array.from({ length: 70 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n'), 'gives a document beyond the limits: it must nest at most 128 levels'],
    ]
    for (const [markdown, message] of cases) {
      const res = await edit(w, cr.id, [
        { operation: 'insert_page', title: 'Fine', document: {} },
        { operation: 'insert_page', document: { markdown } },
      ])
      expectError(res, 400, `changes[1].document.markdown\`: ${message}`)
    }
    expect(w.api.dump()).toEqual(before)
  })

  it('merges edits to different paragraphs of one page from both sides, and reports true conflicts without writing', async () => {
    const w = await setup()
    const setupCr = await openCr(w)
    const ins = await edit(w, setupCr.id, [{ operation: 'insert_page', title: 'Doc', document: { markdown: 'one\n\ntwo\n\nthree\n\nfour\n\nfive\n' } }])
    const pageId = ins.body.changes[0].page.id
    await merge(w, setupCr.id)
    const a = await openCr(w, 'A')
    const b = await openCr(w, 'B')
    await edit(w, a.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'ONE\n\ntwo\n\nthree\n\nfour\n\nfive\n' } }])
    await edit(w, b.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'one\n\ntwo\n\nthree\n\nfour\n\nFIVE\n' } }])
    expect((await merge(w, a.id)).body.result).toBe('merge')
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${b.id}`)).body.outdated).toBe(true)
    expect((await merge(w, b.id)).body.result).toBe('merge')
    const page = await call(w.api, w.tokens.ada, 'GET', `${w.base}/content/page/${pageId}?format=markdown`)
    expect(page.body.markdown).toContain('ONE')
    expect(page.body.markdown).toContain('FIVE')
    // Both sides rewrite the same paragraph: a conflict, nothing changes.
    const c = await openCr(w, 'C')
    const d = await openCr(w, 'D')
    await edit(w, c.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'ONE\n\ntwo\n\nTHREE-C\n\nfour\n\nFIVE\n' } }])
    await edit(w, d.id, [{ operation: 'update_page', page: pageId, document: { markdown: 'ONE\n\ntwo\n\nTHREE-D\n\nfour\n\nFIVE\n' } }])
    await merge(w, c.id)
    const before = w.api.dump()
    const conflict = await merge(w, d.id)
    expect(conflict.body.result).toBe('conflicts')
    expect(conflict.body.conflicts[0].page).toBe(pageId)
    expect(w.api.dump()).toEqual(before)
    const upd = await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${d.id}/update`)
    expect(upd.body.result).toBe('conflicts')
    expectOfficialResponse('updateChangeRequest', 200, upd.body)
  })

  it('two change requests moving pages under each other conflict: the merge writes no cycle', async () => {
    // Regression: parents merged field by field made X the parent of Y and Y (through its
    // subpage) the parent of X; the merge answered `merge`, both pages left the tree, and reading
    // one of them walked its path forever.
    const w = await setup()
    const first = await openCr(w)
    const [x, y] = (
      await edit(w, first.id, [
        { operation: 'insert_page', title: 'X', document: {} },
        { operation: 'insert_page', title: 'Y', document: {} },
      ])
    ).body.changes.map((c: any) => c.page.id)
    const xc = (await edit(w, first.id, [{ operation: 'insert_page', title: 'X child', into: x, document: {} }])).body.changes[0].page.id
    await merge(w, first.id)
    for (const [moveA, moveB] of [
      [
        { page: x, into: y },
        { page: y, into: x },
      ],
      [
        { page: x, into: y },
        { page: y, into: xc },
      ],
    ]) {
      const a = await openCr(w, 'A')
      const b = await openCr(w, 'B')
      await edit(w, a.id, [{ operation: 'update_page', ...moveA }])
      await edit(w, b.id, [{ operation: 'update_page', ...moveB }])
      expect((await merge(w, a.id)).body.result).toBe('merge')
      const before = w.api.dump()
      const res = await merge(w, b.id)
      expect(res.body.result).toBe('conflicts')
      expect(res.body.conflicts).toContainEqual({ page: y, reason: expect.stringContaining('moved its new parent below it') })
      expect(w.api.dump()).toEqual(before)
      expect((await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${b.id}/update`)).body.result).toBe('conflicts')
      expect(w.api.dump()).toEqual(before)
      // Back to the first main for the next pair.
      const undo = await openCr(w, 'Undo')
      await edit(w, undo.id, [{ operation: 'update_page', page: x, into: null, at: 0 }])
      await merge(w, undo.id)
      const pages = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/content/pages`)).body.pages
      expect(pages.map((p: any) => [p.id, p.pages.map((c: any) => c.id)])).toEqual([
        [x, [xc]],
        [y, []],
      ])
    }
  })

  it('updates a change request from main (rebase): it is no longer outdated and keeps its own edits', async () => {
    const w = await setup()
    const a = await openCr(w, 'A')
    const b = await openCr(w, 'B')
    await edit(w, a.id, [{ operation: 'insert_page', title: 'From A', document: {} }])
    await edit(w, b.id, [{ operation: 'insert_page', title: 'From B', document: {} }])
    await merge(w, a.id)
    const upd = await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${b.id}/update`)
    expect(upd.body.result).toBe('update')
    const after = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${b.id}`)
    expect(after.body.outdated).toBe(false)
    expect(after.body.revisionMergedAncestor).toBe(w.api.store.read((tx) => tx.get('spaces', w.space.id)!.revision))
    const pages = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${b.id}/content/pages`)
    expect(pages.body.pages.map((p: any) => p.title)).toEqual(['From A', 'From B'])
    expectOfficialResponse('listPagesInChangeRequest', 200, pages.body)
  })

  it("keeps main's changes when main changed only its files: no fast-forward over them", async () => {
    const w = await setup()
    const a = await openCr(w, 'A')
    const b = await openCr(w, 'B')
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
    const file = (await edit(w, a.id, [{ operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: png }] }])).body
      .insertedFiles[0]
    await edit(w, b.id, [{ operation: 'insert_page', title: 'From B', document: {} }])
    expect((await merge(w, a.id)).body.result).toBe('merge')
    expect((await merge(w, b.id)).body.result).toBe('merge')
    const main = await call(w.api, w.tokens.ada, 'GET', `${w.base}/content`)
    expect(main.body.files.map((f: any) => f.id)).toEqual([file.id])
    expect(main.body.pages.map((p: any) => p.title)).toEqual(['From B'])
  })

  it('inserts files from base64 (size, type, dimensions) served at an absolute downloadURL; refuses private URLs', async () => {
    const w = await setup()
    const cr = await openCr(w)
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
    const res = await edit(w, cr.id, [
      { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: png, ref: 'dot' }] },
      { operation: 'insert_page', title: 'Pic', document: { markdown: '![a dot](./dot)' } },
    ])
    expect(res.status).toBe(200)
    const file = res.body.insertedFiles[0]
    expect(file).toMatchObject({ name: 'dot.png', contentType: 'image/png', size: 70, dimensions: { width: 1, height: 1 } })
    const download = await w.api.fetch(file.downloadURL)
    expect(download.headers.get('content-type')).toBe('image/png')
    expect((await download.arrayBuffer()).byteLength).toBe(70)
    const listed = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/files`)
    expect(listed.body.items.map((f: any) => f.id)).toEqual([file.id])
    expectOfficialResponse('listFilesInChangeRequestById', 200, listed.body)
    const backlinks = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/content/files/${file.id}/backlinks`)
    expect(backlinks.body.items).toHaveLength(1)
    const refused = await edit(w, cr.id, [{ operation: 'insert_files', files: [{ name: 'x.png', url: 'http://169.254.169.254/latest' }] }])
    expectError(refused, 400, 'changes[0].files[0].url')
  })

  it('answers link lists with stats, and broken links once a target is gone', async () => {
    const w = await setup()
    const cr = await openCr(w)
    const res = await edit(w, cr.id, [
      { operation: 'insert_page', title: 'Target', document: {}, ref: 't' },
      { operation: 'insert_page', title: 'Source', document: { markdown: '[to target](./t.md) and [out](https://example.com/)' } },
    ])
    const [target, source] = res.body.changes.map((c: any) => c.page.id)
    await merge(w, cr.id)
    const links = await call(w.api, w.tokens.ada, 'GET', `${w.base}/links`)
    expect(links.body.stats).toEqual({ total: 2, broken: { total: 0, changeRequest: 0 } })
    const cr2 = await openCr(w)
    await edit(w, cr2.id, [{ operation: 'delete_page', page: target }])
    const pageLinks = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr2.id}/content/page/${source}/links?status=broken`)
    expect(pageLinks.body.items).toHaveLength(1)
    expect(pageLinks.body.stats).toEqual({ total: 2, broken: { total: 1, changeRequest: 1 } })
  })

  it('serves a PDF of the change request by URL, without a token, for an hour', async () => {
    const w = await setup()
    const cr = await openCr(w)
    await edit(w, cr.id, [{ operation: 'insert_page', title: 'Printed', document: { markdown: 'Hello PDF' } }])
    const res = await call(w.api, w.tokens.rita, 'GET', `${w.base}/change-requests/${cr.id}/pdf`)
    expectOfficialResponse('getChangeRequestPDF', 200, res.body)
    const pdf = await w.api.fetch(res.body.url)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-')
    w.clock.advance(2 * 60 * 60 * 1000)
    expect((await w.api.fetch(res.body.url)).status).toBe(404)
  })

  it('locked spaces refuse content edits, updates from main and merges, until the admin unlocks', async () => {
    const w = await setup()
    const cr = await openCr(w)
    // Main moves past the change request, so an update from main would rewrite its content.
    const other = await openCr(w, 'Other')
    await edit(w, other.id, [{ operation: 'insert_page', title: 'Main page', document: {} }])
    await merge(w, other.id)
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}`)).body.outdated).toBe(true)
    const locked = await call(w.api, w.tokens.ada, 'PATCH', w.base, { editMode: 'locked' })
    expect(locked.body.editMode).toBe('locked')
    const before = w.api.dump()
    expectError(await edit(w, cr.id, [{ operation: 'insert_page', document: {} }]), 403, 'locked')
    expectError(await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${cr.id}/update`), 403, 'locked')
    expectError(await merge(w, cr.id), 403, 'locked')
    expect(w.api.dump()).toEqual(before)
    // Reading still works; the admin unlocks (a space PATCH is not a content edit), then all three do.
    expect((await call(w.api, w.tokens.rita, 'GET', `${w.base}/change-requests/${cr.id}/content`)).status).toBe(200)
    const unlocked = await call(w.api, w.tokens.ada, 'PATCH', w.base, { editMode: 'live' })
    expect(unlocked.status).toBe(200)
    expectOfficialResponse('updateSpaceById', 200, unlocked.body)
    const updated = await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${cr.id}/update`)
    expect(updated.body.result).toBe('update')
    expectOfficialResponse('updateChangeRequest', 200, updated.body)
    expect((await edit(w, cr.id, [{ operation: 'insert_page', title: 'Unlocked', document: {} }])).status).toBe(200)
    expect((await merge(w, cr.id)).body.result).toBe('merge')
    const pages = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/content/pages`)).body.pages
    expect(pages.map((p: any) => p.title)).toEqual(['Main page', 'Unlocked'])
  })
})

describe('files: the prepare step before the transaction', () => {
  it('fetches nothing for a caller who may not edit, and deletes the blobs of a batch that fails', async () => {
    const live = new Set<string>()
    const storage = await testStorage()
    const inner = storage.blobs ?? createMemoryBlobs()
    const blobs = {
      put: (bytes: Uint8Array, type: string) => {
        const key = inner.put(bytes, type)
        live.add(key)
        return key
      },
      get: (key: string) => inner.get(key),
      delete: (key: string) => (live.delete(key), inner.delete(key)),
    }
    const fetched: string[] = []
    const fakeFetch = (async (input: string | URL | Request) => {
      fetched.push(String(input))
      return new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'application/octet-stream' } })
    }) as typeof fetch
    const api = createDocsApi({ baseUrl: 'http://localhost:4000', store: storage.store, blobs, fetch: fakeFetch })
    const ada = await api.fixtures.createUser({ displayName: 'Ada' })
    const rita = await api.fixtures.createUser({ displayName: 'Rita' })
    const org = await api.fixtures.createOrganization({
      title: 'Acme',
      members: [
        { user: ada.id, role: 'admin' },
        { user: rita.id, role: 'read' },
      ],
    })
    const [adaToken, ritaToken] = [await api.fixtures.createToken(ada.id), await api.fixtures.createToken(rita.id)]
    const space = await api.fixtures.createSpace(org.id, { title: 'Files' })
    const cr = (await call(api, adaToken, 'POST', `/v1/spaces/${space.id}/change-requests`, {})).body
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}/content`
    const files = { operation: 'insert_files', files: [{ name: 'a.bin', url: 'https://example.com/a.bin' }] }
    expectError(await call(api, ritaToken, 'POST', path, { changes: [files] }), 403, 'edit')
    expect(fetched).toEqual([])
    const failed = await call(api, adaToken, 'POST', path, { changes: [files, { operation: 'delete_page', page: 'nope' }] })
    expectError(failed, 400, 'changes[1].page')
    expect(fetched).toEqual(['https://example.com/a.bin'])
    expect(live.size).toBe(0)
    expect((await call(api, adaToken, 'POST', path, { changes: [files] })).status).toBe(200)
    expect(live.size).toBe(1)
  })
})

describe('files: nothing is fetched before the target is checked', () => {
  /** A world whose API fetches through a fake that records every URL: `reachable` answers bytes, anything else fails. */
  async function world() {
    const fetched: string[] = []
    const fakeFetch = (async (input: string | URL | Request) => {
      const url = String(input)
      fetched.push(url)
      if (url !== 'https://files.example.com/reachable.bin') throw new TypeError('fetch failed')
      return new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'application/octet-stream' } })
    }) as typeof fetch
    const api = createDocsApi({ fetch: fakeFetch })
    const ada = await api.fixtures.createUser({ displayName: 'Ada' })
    const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
    const token = await api.fixtures.createToken(ada.id)
    const space = await api.fixtures.createSpace(org.id, { title: 'Files' })
    return { api, token, base: `/v1/spaces/${space.id}`, fetched }
  }
  const batch = (url: string) => ({ changes: [{ operation: 'insert_files', files: [{ name: 'a.bin', url }] }] })

  it('answers an unknown change request 404 whatever the URL, without fetching it', async () => {
    const w = await world()
    for (const url of ['https://files.example.com/reachable.bin', 'https://files.example.com/unreachable.bin']) {
      for (const cr of ['nope', '42'])
        expectError(await call(w.api, w.token, 'POST', `${w.base}/change-requests/${cr}/content`, batch(url)), 404, 'Change request not found')
    }
    expect(w.fetched).toEqual([])
  })

  it('answers a merged or archived change request, or a locked space, as the handler would, without fetching', async () => {
    const w = await world()
    const open = async () => (await call(w.api, w.token, 'POST', `${w.base}/change-requests`, { subject: 'Files' })).body
    const merged = await open()
    await call(w.api, w.token, 'POST', `${w.base}/change-requests/${merged.id}/content`, { changes: [{ operation: 'insert_page', title: 'P', document: {} }] })
    expect((await call(w.api, w.token, 'POST', `${w.base}/change-requests/${merged.id}/merge`)).body.result).toBe('merge')
    const archived = await open()
    await call(w.api, w.token, 'PATCH', `${w.base}/change-requests/${archived.id}`, { status: 'archived' })
    const fetchedBefore = w.fetched.length
    for (const url of ['https://files.example.com/reachable.bin', 'https://files.example.com/unreachable.bin']) {
      expectError(await call(w.api, w.token, 'POST', `${w.base}/change-requests/${merged.id}/content`, batch(url)), 409, 'is merged')
      expectError(await call(w.api, w.token, 'POST', `${w.base}/change-requests/${archived.id}/content`, batch(url)), 409, 'is archived')
    }
    const locked = await open()
    await call(w.api, w.token, 'PATCH', w.base, { editMode: 'locked' })
    expectError(
      await call(w.api, w.token, 'POST', `${w.base}/change-requests/${locked.id}/content`, batch('https://files.example.com/unreachable.bin')),
      403,
      'locked',
    )
    expect(w.fetched).toHaveLength(fetchedBefore)
    // The same batch on a change request that can take it does fetch.
    await call(w.api, w.token, 'PATCH', w.base, { editMode: 'live' })
    expect(
      (await call(w.api, w.token, 'POST', `${w.base}/change-requests/${locked.id}/content`, batch('https://files.example.com/reachable.bin'))).status,
    ).toBe(200)
    expect(w.fetched.slice(fetchedBefore)).toEqual(['https://files.example.com/reachable.bin'])
  })
})

describe('reviews and merge rules', () => {
  it('require_specific_reviewers blocks merging until each listed user approves; earlier reviews become outdated', async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'PATCH', w.base, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [w.users.ada.id] }] },
    })
    const cr = await openCr(w)
    expectError(await merge(w, cr.id), 403, 'Ada Lovelace')
    const req = await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${cr.id}/requested-reviewers`, { users: [w.users.ada.id] })
    expect(req.status).toBe(200)
    expectOfficialResponse('requestReviewersForChangeRequest', 200, req.body)
    const first = await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${cr.id}/reviews`, { status: 'changes-requested' })
    expect(first.status).toBe(201)
    expectOfficialResponse('submitChangeRequestReview', 201, first.body)
    expectError(await merge(w, cr.id), 403, 'require_specific_reviewers')
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${cr.id}/reviews`, { status: 'approved' })
    const reviews = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/reviews`)
    expect(reviews.body.items.map((r: any) => [r.status, r.outdated])).toEqual([
      ['changes-requested', true],
      ['approved', false],
    ])
    expectOfficialResponse('getReviewsByChangeRequestId', 200, reviews.body)
    const reviewsOf = async (q: string) => (await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/reviews?${q}`)).body
    expect((await reviewsOf('outdated=true')).items.map((r: any) => r.status)).toEqual(['changes-requested'])
    expect(await reviewsOf('outdated=false&limit=1')).toMatchObject({ count: 1, items: [{ status: 'approved' }] })
    expectError(await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/reviews?outdated=yes`), 400, 'outdated')
    expect((await merge(w, cr.id)).body.result).toBe('merge')
    expectError(await call(w.api, w.tokens.rita, 'POST', `${w.base}/change-requests/${cr.id}/reviews`, { status: 'approved' }), 403, 'review')
  })

  it("requesting a review again from a user outdates that user's reviews (not others'); they count again once they review anew", async () => {
    const w = await setup()
    const rev = await addMember(w, 'Rev Iewer', 'review')
    await call(w.api, w.tokens.ada, 'PATCH', w.base, { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [rev.user.id] }] } })
    const cr = await openCr(w)
    const path = `${w.base}/change-requests/${cr.id}`
    const reviewsOf = async (q: string) => {
      const res = await call(w.api, w.tokens.ada, 'GET', `${path}/reviews?${q}`)
      expectOfficialResponse('getReviewsByChangeRequestId', 200, res.body)
      return res.body.items.map((r: any) => [r.reviewer.id, r.status])
    }
    await call(w.api, rev.token, 'POST', `${path}/reviews`, { status: 'approved' })
    await call(w.api, w.tokens.ada, 'POST', `${path}/reviews`, { status: 'changes-requested' })
    expect(await reviewsOf('outdated=true')).toEqual([])
    // A request that fails (a non-member in the list) outdates nothing.
    const before = w.api.dump()
    expectError(await call(w.api, w.tokens.ada, 'POST', `${path}/requested-reviewers`, { users: [rev.user.id, w.users.olga.id] }), 400, 'users[1]')
    expect(w.api.dump()).toEqual(before)
    const requested = await call(w.api, w.tokens.ada, 'POST', `${path}/requested-reviewers`, { users: [rev.user.id] })
    expectOfficialResponse('requestReviewersForChangeRequest', 200, requested.body)
    expect(await reviewsOf('outdated=true')).toEqual([[rev.user.id, 'approved']])
    expect(await reviewsOf('outdated=false')).toEqual([[w.users.ada.id, 'changes-requested']])
    // The approval no longer counts for the merge rules, until the reviewer reviews again.
    expectError(await merge(w, cr.id), 403, `require_specific_reviewers: it needs the approval of Rev Iewer (${rev.user.id})`)
    const again = await call(w.api, rev.token, 'POST', `${path}/reviews`, { status: 'approved' })
    expect(again.body.requestedBy.id).toBe(w.users.ada.id)
    expect(await reviewsOf('outdated=false')).toEqual([
      [w.users.ada.id, 'changes-requested'],
      [rev.user.id, 'approved'],
    ])
    // Requested once more, both of their reviews are outdated.
    await call(w.api, w.tokens.ada, 'POST', `${path}/requested-reviewers`, { users: [rev.user.id] })
    expect(await reviewsOf('outdated=true')).toEqual([
      [rev.user.id, 'approved'],
      [rev.user.id, 'approved'],
    ])
    expect((await call(w.api, rev.token, 'POST', `${path}/reviews`, { status: 'approved' })).status).toBe(201)
    expect((await merge(w, cr.id)).body.result).toBe('merge')
  })

  it('removes requested reviewers (205, then 204) and lists contributors', async () => {
    const w = await setup()
    const cr = await openCr(w)
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${cr.id}/requested-reviewers`, { users: [w.users.rita.id] })
    const listed = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/requested-reviewers`)
    expect(listed.body.items[0].user.id).toBe(w.users.rita.id)
    expectOfficialResponse('getRequestedReviewersByChangeRequestId', 200, listed.body)
    expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/change-requests/${cr.id}/requested-reviewers/${w.users.rita.id}`)).status).toBe(205)
    expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/change-requests/${cr.id}/requested-reviewers/${w.users.rita.id}`)).status).toBe(204)
    expectError(
      await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${cr.id}/requested-reviewers`, { users: [w.users.olga.id] }),
      400,
      'users[0]',
    )
    await edit(w, cr.id, [{ operation: 'insert_page', document: {} }])
    await edit(w, cr.id, [{ operation: 'insert_page', document: {} }])
    const contributors = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr.id}/contributors`)
    expect(contributors.body.items).toEqual([expect.objectContaining({ count: 2, actionType: 'edit', user: expect.objectContaining({ id: w.users.ada.id }) })])
    expectOfficialResponse('getContributorsByChangeRequestId', 200, contributors.body)
  })
})
