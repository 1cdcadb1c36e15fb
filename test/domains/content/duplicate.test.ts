import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

describe('duplicateSpace copies the content', () => {
  it('copies pages (ids, bodies, tree) and files into an independent space', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    const base = `/v1/spaces/${space.id}`
    const cr = (await call(w.api, w.tokens.ada, 'POST', `${base}/change-requests`, { subject: 'Fill' })).body
    const filled = await call(w.api, w.tokens.ada, 'POST', `${base}/change-requests/${cr.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG, ref: 'dot' }] },
        { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'Read [the setup](./setup).\n\n![a dot](./dot)' } },
        { operation: 'insert_page', ref: 'setup', into: 'guide', title: 'Setup', document: { markdown: 'Install it.' } },
      ],
    })
    expect(filled.status).toBe(200)
    expect(filled.body.changes).toHaveLength(2)
    expect((await call(w.api, w.tokens.ada, 'POST', `${base}/change-requests/${cr.id}/merge`)).body.result).toBe('merge')
    const original = (await call(w.api, w.tokens.ada, 'GET', `${base}/content`)).body

    const dup = await call(w.api, w.tokens.ada, 'POST', `${base}/duplicate`)
    expect(dup.status).toBe(201)
    const copyBase = `/v1/spaces/${dup.body.id}`
    const copy = (await call(w.api, w.tokens.ada, 'GET', `${copyBase}/content`)).body
    expectOfficialResponse('getCurrentRevision', 200, copy)
    expect(copy.id).toBe(dup.body.revision)
    expect(copy.id).not.toBe(original.id)
    expect(copy.parents).toEqual([])
    // The same pages with the same ids, titles, paths and bodies (the image pointing at the copy's file).
    const outline = (pages: any[]): unknown[] => pages.map((p) => [p.id, p.title, p.path, p.document, outline(p.pages)])
    const [guideId, setupId] = [original.pages[0].id, original.pages[0].pages[0].id]
    expect(copy.files).toHaveLength(1)
    const [fileId, copyFileId] = [original.files[0].id, copy.files[0].id]
    expect(copyFileId).not.toBe(fileId)
    expect(outline(copy.pages)).toEqual(JSON.parse(JSON.stringify(outline(original.pages)).replaceAll(`"${fileId}"`, `"${copyFileId}"`)))
    const guide = await call(w.api, w.tokens.ada, 'GET', `${copyBase}/content/page/${guideId}?format=markdown`)
    expect(guide.body.markdown).toContain(`/files/${copyFileId}`)
    // The file is a new file of the copy, with the same bytes.
    expect(copy.files[0]).toMatchObject({ name: 'dot.png', size: 70, dimensions: { width: 1, height: 1 } })
    const bytes = await (await w.api.fetch(copy.files[0].downloadURL)).arrayBuffer()
    expect(bytes.byteLength).toBe(70)
    expect((await call(w.api, w.tokens.ada, 'GET', `${copyBase}/content/files/${copyFileId}`)).status).toBe(200)
    expect((await call(w.api, w.tokens.ada, 'GET', `${base}/content/files/${copyFileId}`)).status).toBe(404)
    // The page link still points at the page inside the copy: no broken link.
    const links = await call(w.api, w.tokens.ada, 'GET', `${copyBase}/links`)
    expect(links.body.stats.broken.total).toBe(0)
    expect(links.body.items.find((l: any) => l.relation === 'page')?.targetReference).toMatchObject({ kind: 'page', page: setupId })

    // Independent: an edit merged in the copy does not show in the original, and back.
    const cr2 = (await call(w.api, w.tokens.ada, 'POST', `${copyBase}/change-requests`, { subject: 'Edit copy' })).body
    expect(cr2.number).toBe(1)
    await call(w.api, w.tokens.ada, 'POST', `${copyBase}/change-requests/${cr2.id}/content`, {
      changes: [
        { operation: 'update_page', page: guideId, title: 'Copied guide' },
        { operation: 'delete_page', page: setupId },
      ],
    })
    expect((await call(w.api, w.tokens.ada, 'POST', `${copyBase}/change-requests/${cr2.id}/merge`)).body.result).toBe('merge')
    const after = (await call(w.api, w.tokens.ada, 'GET', `${base}/content`)).body
    expect(after).toEqual(original)
    const copyAfter = (await call(w.api, w.tokens.ada, 'GET', `${copyBase}/content`)).body
    expect(copyAfter.pages.map((p: any) => [p.title, p.pages.length])).toEqual([['Copied guide', 0]])
    // Change requests are not copied: each space counts its own.
    expect((await call(w.api, w.tokens.ada, 'GET', copyBase)).body.changeRequests).toBe(1)
    expect((await call(w.api, w.tokens.ada, 'GET', base)).body.changeRequests).toBe(1)
  })

  it('a space with no content gives a copy with no content', async () => {
    const w = await createWorld()
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Empty' })
    const dup = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/duplicate`)
    const copy = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${dup.body.id}/content`)
    expect(copy.status).toBe(200)
    expect(copy.body).toMatchObject({ id: dup.body.revision, pages: [], files: [] })
  })
})
