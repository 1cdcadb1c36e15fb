import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { BASE, call, createWorld, expectError } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { edit, merge, openCr, rowsOfSpace, setup } from './helpers.js'
import { TEST_STORE } from '../../test-storage.js'

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

/** A space with every kind of row: merged content with a file, an open change request with an edit, a review request, a review and comments. */
async function filledSpace() {
  const w = await setup()
  const first = await openCr(w, 'Fill')
  const filled = await edit(w, first.id, [
    { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG, ref: 'dot' }] },
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '![a dot](./dot)' } },
    { operation: 'insert_page', into: 'guide', title: 'Setup', document: { markdown: 'Install it.' } },
  ])
  expect(filled.status).toBe(200)
  expect((await merge(w, first.id)).body.result).toBe('merge')
  const open = await openCr(w, 'Open')
  expect((await edit(w, open.id, [{ operation: 'update_page', page: filled.body.changes[0].page.id, title: 'Guide 2' }])).status).toBe(200)
  expect((await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${open.id}/requested-reviewers`, { users: [w.users.rita.id] })).status).toBe(200)
  expect((await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${open.id}/reviews`, { status: 'approved' })).status).toBe(201)
  const comment = await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${open.id}/comments`, { body: { markdown: 'Looks good' } })
  expect(
    (await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${open.id}/comments/${comment.body.id}/replies`, { body: { markdown: 'Thanks' } }))
      .status,
  ).toBe(200)
  expect((await call(w.api, w.tokens.ada, 'POST', `${w.base}/comments`, { body: { markdown: 'On main' } })).status).toBe(200)
  return { ...w, file: filled.body.insertedFiles[0], open }
}

describe('purging a space removes every row of it', () => {
  it('removes content, change requests, reviews, review requests and comments; a duplicate keeps its own; the dump loads again', async () => {
    const w = await filledSpace()
    const dup = (await call(w.api, w.tokens.ada, 'POST', `${w.base}/duplicate`)).body
    const buckets = w.api.store.read((tx) =>
      tx
        .all('revisions')
        .filter((r) => r.space === w.space.id)
        .flatMap((r) => r.buckets.filter((b) => b !== '')),
    )
    expect(buckets.length).toBeGreaterThan(0)
    expect(rowsOfSpace(w, w.space.id)).toMatchObject({
      revisions: 4,
      pageVersions: 3,
      files: 1,
      changeRequests: 2,
      reviews: 1,
      requestedReviewers: 1,
      comments: 2,
      commentReplies: 1,
    })
    const dupRows = rowsOfSpace(w, dup.id)
    expect(dupRows).toMatchObject({ revisions: 1, pageVersions: 2, files: 1 })

    expect((await call(w.api, w.tokens.ada, 'DELETE', w.base)).status).toBe(204)
    w.clock.advance(8 * 24 * 60 * 60 * 1000)
    expectError(await call(w.api, w.tokens.ada, 'POST', `${w.base}/restore`), 404, 'Space not found')

    expect(rowsOfSpace(w, w.space.id)).toEqual({})
    w.api.store.read((tx) => {
      expect(tx.get('spaces', w.space.id)).toBeUndefined()
      expect(buckets.filter((b) => tx.get('contentBuckets', b))).toEqual([])
      expect(tx.all('changeRequests').filter((cr) => cr.id === w.open.id)).toEqual([])
    })
    // The duplicate is untouched: its rows, its content, its file's bytes.
    expect(rowsOfSpace(w, dup.id)).toEqual(dupRows)
    const copy = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${dup.id}/content`)
    expectOfficialResponse('getCurrentRevision', 200, copy.body)
    expect(copy.body.pages.map((p: any) => [p.title, p.pages.map((c: any) => c.title)])).toEqual([['Guide', ['Setup']]])
    expect((await w.api.fetch(copy.body.files[0].downloadURL)).status).toBe(200)

    // The state document loads again, and reads the same.
    const dump = w.api.dump()
    const reloaded = createDocsApi({ baseUrl: BASE, seed: dump })
    expect(reloaded.dump()).toEqual(dump)
    const again = await call(reloaded, w.tokens.ada, 'GET', `/v1/spaces/${dup.id}/content`)
    expect(again.body).toEqual(copy.body)
  })

  it.skipIf(TEST_STORE === 'postgres')("a purged space's download URLs answer 404 once no file names their bytes", async () => {
    const w = await filledSpace()
    const url = w.file.downloadURL
    expect((await w.api.fetch(url)).status).toBe(200)
    const snapshot = w.api.snapshot()
    expect((await call(w.api, w.tokens.ada, 'DELETE', w.base)).status).toBe(204)
    w.clock.advance(8 * 24 * 60 * 60 * 1000)
    expectError(await call(w.api, w.tokens.ada, 'POST', `${w.base}/restore`), 404, 'Space not found')
    const gone = await w.api.fetch(url)
    expect(gone.status).toBe(404)
    expect(await gone.json()).toEqual({ error: { code: 404, message: 'File not found' } })
    // Back to a state whose rows name them: served again (the bytes never left the blob port).
    w.api.restore(snapshot)
    expect((await w.api.fetch(url)).status).toBe(200)
  })

  it('a state document whose content rows another space shares, or no revision reaches, is refused', async () => {
    const w = await filledSpace()
    const other = await w.api.fixtures.createSpace(w.org.id, { title: 'Other' })
    const dump = w.api.dump()
    const rev = dump.revisions!.find((r) => r.space === w.space.id && r.buckets.length > 0)!
    const index = rev.buckets.findIndex((b) => b !== '')
    const sharing = { ...dump, revisions: [...dump.revisions!, { ...rev, id: 'shared', space: other.id, files: [] }] }
    expect(() => createDocsApi({ seed: sharing })).toThrow(
      `\`revisions[${dump.revisions!.length}].buckets.${index}\`: content bucket "${rev.buckets[index]}" holds pages of space "${w.space.id}"`,
    )
    const version = dump.pageVersions![0]!
    const orphan = { ...dump, pageVersions: [...dump.pageVersions!, { ...version, id: 'orphan' }] }
    expect(() => createDocsApi({ seed: orphan })).toThrow('`pageVersions[id=orphan]`: no content bucket holds this page version')
    const bucket = dump.contentBuckets![0]!
    const unnamed = { ...dump, contentBuckets: [...dump.contentBuckets!, { ...bucket, id: 'unnamed' }] }
    expect(() => createDocsApi({ seed: unnamed })).toThrow('`contentBuckets[id=unnamed]`: no revision names this bucket')
    const mixed = {
      ...dump,
      pageVersions: [...dump.pageVersions!, { ...version, id: 'elsewhere', space: other.id }],
      contentBuckets: [
        ...dump.contentBuckets!,
        { id: 'mixed', entries: { [version.page]: 'elsewhere', [dump.pageVersions![1]!.page]: dump.pageVersions![1]!.id } },
      ],
    }
    expect(() => createDocsApi({ seed: mixed })).toThrow('a bucket holds the pages of one space')
    const empty = { ...dump, contentBuckets: [...dump.contentBuckets!, { id: 'empty', entries: {} }] }
    expect(() => createDocsApi({ seed: empty })).toThrow('`contentBuckets[')
  })
})

describe('transferring a space takes its change requests along', () => {
  it('lists them under the new organization, in every status, and no longer under the old one; the dump loads', async () => {
    const w = await setup()
    const beta = await w.api.fixtures.createOrganization({
      title: 'Beta',
      members: [
        { user: w.users.ada.id, role: 'admin' },
        { user: w.users.rita.id, role: 'read' },
      ],
    })
    const merged = await openCr(w, 'Merged')
    expect((await merge(w, merged.id)).body.result).toBe('merge')
    const open = await openCr(w, 'Open')
    const draft = await openCr(w, 'Draft')
    await call(w.api, w.tokens.ada, 'PATCH', `${w.base}/change-requests/${draft.id}`, { status: 'draft' })
    const stays = await w.api.fixtures.createSpace(w.org.id, { title: 'Stays' })
    const kept = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${stays.id}/change-requests`, { subject: 'Kept' })).body
    const listed = async (org: string, status: string) => {
      const res = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${org}/change-requests?status=${status}`)
      expectOfficialResponse('listChangeRequestsForOrganization', 200, res.body)
      return res.body.items.map((c: any) => c.id)
    }
    expect(await listed(w.org.id, 'open')).toEqual([kept.id, open.id])

    expect((await call(w.api, w.tokens.ada, 'POST', `${w.base}/transfer`, { organization: beta.id })).status).toBe(200)
    expect(await listed(w.org.id, 'open')).toEqual([kept.id])
    expect(await listed(w.org.id, 'draft')).toEqual([])
    expect(await listed(w.org.id, 'merged')).toEqual([])
    expect(await listed(beta.id, 'open')).toEqual([open.id])
    expect(await listed(beta.id, 'draft')).toEqual([draft.id])
    expect(await listed(beta.id, 'merged')).toEqual([merged.id])
    // A reader of the new organization sees them there; the old organization's reader no longer does.
    const rita = await call(w.api, w.tokens.rita, 'GET', `/v1/orgs/${beta.id}/change-requests`)
    expect(rita.body.items.map((c: any) => c.id)).toEqual([open.id])
    expect(
      w.api.store.read((tx) =>
        tx
          .all('changeRequests')
          .filter((c) => c.space === w.space.id)
          .map((c) => c.organization),
      ),
    ).toEqual([beta.id, beta.id, beta.id])
    // Within one organization (another collection), nothing of theirs changes.
    const docs = await w.api.fixtures.createCollection(beta.id, { title: 'Docs' })
    const rows = w.api.store.read((tx) => tx.all('changeRequests'))
    expect((await call(w.api, w.tokens.ada, 'POST', `${w.base}/transfer`, { organization: beta.id, parent: docs.id })).status).toBe(200)
    expect(w.api.store.read((tx) => tx.all('changeRequests'))).toEqual(rows)
    const dump = w.api.dump()
    expect(createDocsApi({ baseUrl: BASE, seed: dump }).dump()).toEqual(dump)
  })
})

describe("a change request's revisions are read only by who may read change requests", () => {
  it('visitors of a public space get 404 on them (edits and updates from main), members read them; main revisions stay open', async () => {
    const world = await createWorld()
    const space = await world.api.fixtures.createSpace(world.org.id, { title: 'Open', visibility: 'public' })
    const w = { ...world, space, base: `/v1/spaces/${space.id}` }
    const first = await openCr(w, 'Main')
    const main1 = (await edit(w, first.id, [{ operation: 'insert_page', title: 'Public', document: { markdown: 'Open text' } }])).body
    await merge(w, first.id)
    const mainRev = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/content`)).body
    const cr = await openCr(w, 'Secret')
    const edited = await edit(w, cr.id, [{ operation: 'insert_page', title: 'Secret plan', document: { markdown: 'Not yet public' } }])
    const secretPage = edited.body.changes[0].page.id
    const editRev = edited.body.changeRequest.revision
    // Main moves on; the update from main makes another revision for the change request.
    const other = await openCr(w, 'Other')
    await edit(w, other.id, [{ operation: 'update_page', page: main1.changes[0].page.id, title: 'Public 2' }])
    await merge(w, other.id)
    const update = await call(w.api, w.tokens.ada, 'POST', `${w.base}/change-requests/${cr.id}/update`)
    expect(update.body.result).toBe('update')
    const updateRev = update.body.revision
    expect(updateRev).not.toBe(editRev)

    const paths = (rev: string) => [`${w.base}/revisions/${rev}`, `${w.base}/revisions/${rev}/pages`, `${w.base}/revisions/${rev}/page/${secretPage}`]
    const before = w.api.dump()
    for (const token of [w.tokens.olga, w.tokens.gina]) {
      expect((await call(w.api, token, 'GET', `${w.base}/change-requests/${cr.id}`)).status).toBe(403)
      for (const path of [...paths(editRev), ...paths(updateRev)]) expectError(await call(w.api, token, 'GET', path), 404, 'Revision not found')
      // Main's revisions, the current and an older one, stay readable at the space's view level.
      for (const rev of [mainRev.id, (await call(w.api, w.tokens.ada, 'GET', `${w.base}/content`)).body.id]) {
        const res = await call(w.api, token, 'GET', `${w.base}/revisions/${rev}`)
        expect(res.status).toBe(200)
        expectOfficialResponse('getRevisionById', 200, res.body)
      }
    }
    expect(w.api.dump()).toEqual(before)
    // A reader of the organization reads them, as they read the change request.
    for (const rev of [editRev, updateRev]) {
      const [one, pages, page] = await Promise.all(paths(rev).map((path) => call(w.api, w.tokens.rita, 'GET', path)))
      expectOfficialResponse('getRevisionById', 200, one!.body)
      expectOfficialResponse('listPagesInRevisionById', 200, pages!.body)
      expectOfficialResponse('getPageInRevisionById', 200, page!.body)
      expect(page!.body.title).toBe('Secret plan')
    }
    // Merged, the change request's content is main's: the merge revision opens; its edit revisions stay closed.
    expect((await merge(w, cr.id)).body.result).toBe('merge')
    const merged = (await call(w.api, w.tokens.olga, 'GET', `${w.base}/content`)).body
    expect((await call(w.api, w.tokens.olga, 'GET', `${w.base}/revisions/${merged.id}/page/${secretPage}`)).status).toBe(200)
    expectError(await call(w.api, w.tokens.olga, 'GET', `${w.base}/revisions/${editRev}`), 404, 'Revision not found')
    // The mark travels in state documents.
    const dump = w.api.dump()
    expect(dump.revisions!.filter((r) => r.changeRequest === cr.id).map((r) => r.id)).toEqual([editRev, updateRev])
    const reloaded = createDocsApi({ baseUrl: BASE, seed: dump })
    expectError(await call(reloaded, w.tokens.olga, 'GET', `${w.base}/revisions/${updateRev}`), 404, 'Revision not found')
    const wrong = { ...dump, revisions: dump.revisions!.map((r) => (r.id === editRev ? { ...r, changeRequest: 'nope' } : r)) }
    expect(() => createDocsApi({ seed: wrong })).toThrow(`\`revisions[id=${editRev}].changeRequest\`: no change request "nope"`)
  })
})

describe('transferring a collection takes the change requests of its spaces along', () => {
  it('lists them under the new organization and no longer under the old one, as transferring the space itself does', async () => {
    const w = await setup()
    const beta = await w.api.fixtures.createOrganization({ title: 'Beta', members: [{ user: w.users.ada.id, role: 'admin' }] })
    const guides = await w.api.fixtures.createCollection(w.org.id, { title: 'Guides' })
    const nested = await w.api.fixtures.createCollection(w.org.id, { title: 'Nested', parent: guides.id })
    await w.api.fixtures.moveSpace(w.space.id, nested.id)
    const open = await openCr(w, 'Open')
    const listed = async (org: string) =>
      (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${org}/change-requests?status=open`)).body.items.map((c: any) => c.id)
    expect(await listed(w.org.id)).toEqual([open.id])

    expect((await call(w.api, w.tokens.ada, 'POST', `/v1/collections/${guides.id}/transfer`, { organization: beta.id })).status).toBe(200)
    expect(await listed(w.org.id)).toEqual([])
    expect(await listed(beta.id)).toEqual([open.id])
    expect(w.api.store.read((tx) => tx.get('changeRequests', open.id)!.organization)).toBe(beta.id)
  })
})
