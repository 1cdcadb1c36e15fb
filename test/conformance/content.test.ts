import type { ChangeRequestContentUpdate } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { call, createWorld } from '../helpers.js'
import { expectOfficialError, expectOfficialResponse, expectOfficialSchema, hasOfficialOperation } from './official.js'

/** Reads of a space's main content and of its revisions, through `@gitbook/api`, checked against the official schemas. */

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

/**
 * A space whose main content holds "Getting Started" (with a picture) and its subpage "Install"
 * (linking back, to the picture and out), written through a change request and merged, as a
 * client app would.
 */
async function setup() {
  const w = await createWorld()
  const gb = w.client(w.tokens.ada)
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const cr = (await gb.spaces.createChangeRequest(space.id, { subject: 'Seed' })).data
  const first = (
    await gb.spaces.updateChangeRequestContent(
      space.id,
      cr.id,
      {
        changes: [
          { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG, ref: 'dot' }] },
          { operation: 'insert_page', document: { markdown: '---\ndescription: Start here\n---\n# Getting Started\n\nHello **world**.\n\n![a dot](./dot)\n' } },
        ],
      },
      { compat: false },
    )
  ).data as ChangeRequestContentUpdate
  const file = first.insertedFiles![0]!
  const gs = first.changes[0]!.object === 'created_page' ? first.changes[0]!.page.id : ''
  const second = (
    await gb.spaces.updateChangeRequestContent(
      space.id,
      cr.id,
      {
        changes: [
          {
            operation: 'insert_page',
            title: 'Install',
            into: gs,
            document: { markdown: `Back to [the start](/pages/${gs}), the [dot](/files/${file.id}) and [out](https://example.com/).\n` },
          },
        ],
      },
      { compat: false },
    )
  ).data as ChangeRequestContentUpdate
  const install = second.changes[0]!.object === 'created_page' ? second.changes[0]!.page.id : ''
  const merged = await gb.spaces.mergeChangeRequest(space.id, cr.id)
  expect(merged.data.result).toBe('merge')
  return { ...w, gb, space, cr, file, pages: { gs, install }, revision: merged.data.revision }
}

describe('conformance: content through @gitbook/api', () => {
  it('getCurrentRevision, listPages, getRevisionById, listPagesInRevisionById (with the metadata and computed flags)', async () => {
    const w = await setup()
    const current = await w.gb.spaces.getCurrentRevision(w.space.id)
    expect(current.status).toBe(200)
    expect(current.data.id).toBe(w.revision)
    expect(current.data.pages.map((p) => p.id)).toEqual([w.pages.gs])
    expect(current.data.files.map((f) => f.id)).toEqual([w.file.id])
    expectOfficialResponse('getCurrentRevision', 200, current.data)
    const lean = await w.gb.spaces.getCurrentRevision(w.space.id, { metadata: false, computed: false })
    expectOfficialResponse('getCurrentRevision', 200, lean.data)
    const pages = await w.gb.spaces.listPages(w.space.id)
    expect(pages.data.pages[0]).toMatchObject({ id: w.pages.gs, title: 'Getting Started', path: 'getting-started' })
    expectOfficialResponse('listPages', 200, pages.data)
    expectOfficialResponse('listPages', 200, (await w.gb.spaces.listPages(w.space.id, { metadata: false })).data)
    // An old revision: the change request's initial one (empty), then the merge result.
    const initial = await w.gb.spaces.getRevisionById(w.space.id, w.cr.revisionInitial)
    expect(initial.data.pages).toEqual([])
    expectOfficialResponse('getRevisionById', 200, initial.data)
    const merged = await w.gb.spaces.getRevisionById(w.space.id, w.revision, { computed: false })
    expect(merged.data.id).toBe(w.revision)
    expectOfficialResponse('getRevisionById', 200, merged.data)
    const revPages = await w.gb.spaces.listPagesInRevisionById(w.space.id, w.revision)
    expect(revPages.data.pages.map((p) => p.id)).toEqual([w.pages.gs])
    expectOfficialResponse('listPagesInRevisionById', 200, revPages.data)
  })

  it('listFiles, getFileById', async () => {
    const w = await setup()
    const files = await w.gb.spaces.listFiles(w.space.id, { limit: 10 })
    expect(files.data.items).toEqual([expect.objectContaining({ id: w.file.id, name: 'dot.png', contentType: 'image/png' })])
    expect(files.data.count).toBe(1)
    expectOfficialResponse('listFiles', 200, files.data)
    const file = await w.gb.spaces.getFileById(w.space.id, w.file.id)
    expect(file.data).toMatchObject({ id: w.file.id, size: 70, dimensions: { width: 1, height: 1 } })
    expectOfficialResponse('getFileById', 200, file.data)
  })

  it('getPageById, getPageByPath (nested path), getPageInRevisionById: format=document and format=markdown', async () => {
    const w = await setup()
    for (const format of [undefined, 'document', 'markdown'] as const) {
      const byId = await w.gb.spaces.getPageById(w.space.id, w.pages.gs, { format })
      expect(byId.data).toMatchObject({ id: w.pages.gs, title: 'Getting Started', description: 'Start here' })
      expectOfficialResponse('getPageById', 200, byId.data)
      const byPath = await w.gb.spaces.getPageByPath(w.space.id, 'getting-started/install', { format })
      expect(byPath.data).toMatchObject({ id: w.pages.install, path: 'getting-started/install' })
      expectOfficialResponse('getPageByPath', 200, byPath.data)
      const inRevision = await w.gb.spaces.getPageInRevisionById(w.space.id, w.revision, w.pages.install, { format })
      expect(inRevision.data.id).toBe(w.pages.install)
      expectOfficialResponse('getPageInRevisionById', 200, inRevision.data)
      const page = inRevision.data as { markdown?: string; document?: unknown }
      if (format === 'markdown') {
        expect(page.markdown).toContain(`/pages/${w.pages.gs}`)
        expect(page.document).toBeUndefined()
      } else {
        expect(page.document).toMatchObject({ object: 'document' })
        expect(page.markdown).toBeUndefined()
      }
    }
    // The path, encoded as one segment, names the same page; markdown refs as stable ids.
    const encoded = await w.gb.spaces.getPageByPath(w.space.id, encodeURIComponent('getting-started/install'), {
      format: 'markdown',
      'format.markdown.refs': 'stable',
    })
    expect(encoded.data.id).toBe(w.pages.install)
    expectOfficialResponse('getPageByPath', 200, encoded.data)
    const flags = { evaluated: true, dereferenced: 'reusable-contents', metadata: false, computed: false, cachedMetadata: true } as const
    expectOfficialResponse('getPageByPath', 200, (await w.gb.spaces.getPageByPath(w.space.id, 'getting-started', flags)).data)
    expectOfficialResponse(
      'getPageById',
      200,
      (await w.gb.spaces.getPageById(w.space.id, w.pages.gs, { evaluated: 'deterministic-only', dereferenced: false })).data,
    )
  })

  it('getPageInRevisionByPath, listFilesInRevisionById, getFileInRevisionById: a revision read by path and its files', async () => {
    const w = await setup()
    // The revision before the merge holds nothing; the merged one holds both pages and the picture.
    const first = (await w.gb.spaces.getRevisionById(w.space.id, w.revision)).data.parents[0]!
    for (const format of [undefined, 'document', 'markdown'] as const) {
      const byPath = await w.gb.spaces.getPageInRevisionByPath(w.space.id, w.revision, 'getting-started/install', { format })
      expect(byPath.data).toMatchObject({ id: w.pages.install, path: 'getting-started/install' })
      expectOfficialResponse('getPageInRevisionByPath', 200, byPath.data)
    }
    const encoded = await w.gb.spaces.getPageInRevisionByPath(w.space.id, w.revision, encodeURIComponent('getting-started/install'))
    expect(encoded.data.id).toBe(w.pages.install)
    const files = await w.gb.spaces.listFilesInRevisionById(w.space.id, w.revision, { limit: 10 })
    expect(files.data.items).toEqual([expect.objectContaining({ id: w.file.id, name: 'dot.png', contentType: 'image/png' })])
    expectOfficialResponse('listFilesInRevisionById', 200, files.data)
    const file = await w.gb.spaces.getFileInRevisionById(w.space.id, w.revision, w.file.id)
    expect(file.data).toMatchObject({ id: w.file.id, size: 70, dimensions: { width: 1, height: 1 } })
    expectOfficialResponse('getFileInRevisionById', 200, file.data)
    // The revision before the merge: no such page or file there.
    expect((await w.gb.spaces.listFilesInRevisionById(w.space.id, first)).data.items).toEqual([])
    await expect(w.gb.spaces.getFileInRevisionById(w.space.id, first, w.file.id)).rejects.toThrow('not found')
    await expect(w.gb.spaces.getPageInRevisionByPath(w.space.id, first, 'getting-started')).rejects.toThrow('not found')
    // Bad input: a 400 naming the field; no access: the space is not found.
    const bad = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/revisions/${w.revision}/files?limit=1001`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('limit')
    expectOfficialError(400, bad.body)
    const badFormat = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/revisions/${w.revision}/path/getting-started?format=html`)
    expect(badFormat.status).toBe(400)
    expect(badFormat.body.error.message).toContain('format')
    const olga = w.client(w.tokens.olga)
    for (const read of [
      () => olga.spaces.getPageInRevisionByPath(w.space.id, w.revision, 'getting-started'),
      () => olga.spaces.listFilesInRevisionById(w.space.id, w.revision),
      () => olga.spaces.getFileInRevisionById(w.space.id, w.revision, w.file.id),
    ])
      await expect(read()).rejects.toThrow('not found')
  })

  it('the error bodies of content reads: 404 for a missing page, file, revision or path, 400 for a bad format', async () => {
    // The official document declares only 200 for these reads; their error bodies are checked
    // against its shared error responses.
    const w = await setup()
    const base = `/v1/spaces/${w.space.id}`
    for (const path of [
      `${base}/content/page/nope`,
      `${base}/content/path/getting-started/nope`,
      `${base}/content/files/nope`,
      `${base}/revisions/nope`,
      `${base}/revisions/${w.revision}/page/nope`,
      `${base}/revisions/${w.revision}/path/nope`,
      `${base}/revisions/${w.revision}/files/nope`,
      '/v1/spaces/nope/content',
    ]) {
      const res = await call(w.api, w.tokens.ada, 'GET', path)
      expect(res.status, path).toBe(404)
      expectOfficialError(404, res.body)
    }
    const bad = await call(w.api, w.tokens.ada, 'GET', `${base}/content/page/${w.pages.gs}?format=html`)
    expect(bad.status).toBe(400)
    expectOfficialError(400, bad.body)
    await expect(w.gb.spaces.getPageById(w.space.id, 'nope')).rejects.toThrow('not found')
  })

  it('listSpaceLinks (no official operation): a paged list of links with stats, each target a content reference', async () => {
    const w = await setup()
    expect(hasOfficialOperation('listSpaceLinks')).toBe(false)
    const links = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/links`)
    expect(links.status).toBe(200)
    // The picture of "Getting Started"; the page, file and URL links of "Install".
    expect(links.body.items.map((l: any) => [l.source.page, l.relation, l.status])).toEqual([
      [w.pages.gs, 'file', 'ok'],
      [w.pages.install, 'page', 'ok'],
      [w.pages.install, 'file', 'ok'],
      [w.pages.install, 'url', 'ok'],
    ])
    expect(links.body.stats).toEqual({ total: 4, broken: { total: 0, changeRequest: 0 } })
    expectOfficialSchema('List', links.body)
    for (const link of links.body.items) expectOfficialSchema('ContentRef', link.targetReference)
    const paged = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/links?limit=1`)
    expect(paged.body.items).toHaveLength(1)
    expect(paged.body.next?.page).toEqual(expect.any(String))
    expectOfficialSchema('List', paged.body)
    const broken = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/links?status=broken`)
    expect(broken.body.items).toEqual([])
    const bad = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/links?status=lost`)
    expect(bad.status).toBe(400)
    expectOfficialError(400, bad.body)
  })
})
