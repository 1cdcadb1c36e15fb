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

describe('conformance: documents and computed content through @gitbook/api', () => {
  it("getPageDocumentInRevisionById: a page's document, evaluated or not; bad input a 400 naming the field; an outsider a 404", async () => {
    const w = await setup()
    const page = (await w.gb.spaces.getPageInRevisionById(w.space.id, w.revision, w.pages.gs)).data as { document?: unknown }
    // As the renderer calls it.
    const doc = await w.gb.spaces.getPageDocumentInRevisionById(w.space.id, w.revision, w.pages.gs, {
      evaluated: 'deterministic-only',
      dereferenced: 'reusable-contents',
    })
    expect(doc.status).toBe(200)
    expect(doc.data).toEqual(page.document)
    expectOfficialResponse('getPageDocumentInRevisionById', 200, doc.data)
    expectOfficialResponse(
      'getPageDocumentInRevisionById',
      200,
      (await w.gb.spaces.getPageDocumentInRevisionById(w.space.id, w.revision, w.pages.install)).data,
    )
    const base = `/v1/spaces/${w.space.id}/revisions/${w.revision}/page/${w.pages.gs}/document`
    const bad = await call(w.api, w.tokens.ada, 'GET', `${base}?evaluated=maybe`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('evaluated')
    expectOfficialError(400, bad.body)
    const badRef = await call(w.api, w.tokens.ada, 'GET', `${base}?dereferenced=everything`)
    expect(badRef.status).toBe(400)
    expect(badRef.body.error.message).toContain('dereferenced')
    await expect(w.client(w.tokens.olga).spaces.getPageDocumentInRevisionById(w.space.id, w.revision, w.pages.gs)).rejects.toThrow('not found')
    for (const path of [
      `/v1/spaces/${w.space.id}/revisions/${w.revision}/page/nope/document`,
      `/v1/spaces/${w.space.id}/revisions/nope/page/${w.pages.gs}/document`,
    ]) {
      const res = await call(w.api, w.tokens.ada, 'GET', path)
      expect(res.status, path).toBe(404)
      expectOfficialError(404, res.body)
    }
  })

  it("getDocumentById: a page's `documentId` names its document; bad input a 400 naming the field; an outsider a 404", async () => {
    const w = await setup()
    const page = (await w.gb.spaces.getPageById(w.space.id, w.pages.install)).data as { documentId?: string; document?: unknown }
    expect(page.documentId).toEqual(expect.any(String))
    const doc = await w.gb.spaces.getDocumentById(w.space.id, page.documentId!)
    expect(doc.status).toBe(200)
    expect(doc.data).toEqual(page.document)
    expectOfficialResponse('getDocumentById', 200, doc.data)
    expect((await w.gb.spaces.getDocumentById(w.space.id, page.documentId!, { schema: 'next' })).data).toEqual(page.document)
    const bad = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/documents/${page.documentId}?schema=old`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('schema')
    expectOfficialError(400, bad.body)
    await expect(w.client(w.tokens.olga).spaces.getDocumentById(w.space.id, page.documentId!)).rejects.toThrow('not found')
    const missing = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/documents/nope`)
    expect(missing.status).toBe(404)
    expectOfficialError(404, missing.body)
  })

  it('getComputedDocument, getComputedRevision: nothing to compute here, so empty content; a source naming what is not installed is a 400 naming the field', async () => {
    const w = await setup()
    const source = { type: 'integration:faq:questions', props: { topic: 'billing' } } as const
    const computed = (kind: 'document' | 'revision', body: unknown) =>
      call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/content/computed/${kind}`, body)
    // The integration is published, then installed on the organization, then on the space: only then does its source answer.
    const publish = await call(w.api, w.tokens.ada, 'POST', '/v1/integrations/faq', {
      organization: w.org.id,
      title: 'FAQ',
      description: 'Questions as pages',
      script: 'export default {}',
      scopes: ['space:content:read'],
    })
    expect(publish.status).toBe(200)
    const refused = async (step: string) => {
      const res = await computed('document', { source, seed: 'seed-1' })
      expect(res.status, step).toBe(400)
      expect(res.body.error.message).toBe('Invalid request: body field `source.type`: the integration `faq` is not installed on this space')
      expectOfficialError(400, res.body)
    }
    await refused('published')
    const installation = await call(w.api, w.tokens.ada, 'POST', '/v1/integrations/faq/installations', { organization: w.org.id })
    expect(installation.status).toBe(201)
    await refused('installed on the organization')
    const onSpace = await call(w.api, w.tokens.ada, 'POST', `/v1/integrations/faq/installations/${installation.body.id}/spaces`, { space: w.space.id })
    expect(onSpace.status).toBe(201)
    const document = await w.gb.spaces.getComputedDocument(w.space.id, { source, seed: 'seed-1' }, { schema: 'current' })
    expect(document.status).toBe(200)
    expect(document.data.nodes).toEqual([])
    expectOfficialResponse('getComputedDocument', 200, document.data)
    const revision = await w.gb.spaces.getComputedRevision(w.space.id, { source, seed: 'seed-1' })
    expect(revision.data).toEqual({ pages: [], files: [], reusableContents: [] })
    expectOfficialResponse('getComputedRevision', 200, revision.data)
    // Built-in sources: what they name must be in the organization.
    const translation = await computed('document', {
      source: {
        type: 'builtin:translation',
        props: { space: w.space.id, document: 'd' },
        dependencies: { translation: { ref: { kind: 'translation', translation: 'nope' } } },
      },
      seed: 's',
    })
    expect(translation.status).toBe(400)
    expect(translation.body.error.message).toContain('`source.dependencies.translation.ref.translation`: no translation `nope` in this organization')
    const spec = await computed('revision', {
      source: { type: 'builtin:openapi', props: { models: true }, dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } } },
      seed: 's',
    })
    expect(spec.status).toBe(400)
    expect(spec.body.error.message).toContain('`source.dependencies.spec.ref.spec`: no OpenAPI spec `petstore` in this organization')
    // Bad input: the official shape, each a 400 naming the field.
    for (const [body, field] of [
      [{ source: { type: 'faq', props: {} }, seed: 's' }, 'source.type'],
      [{ source }, 'seed'],
      [{ source: { type: 'integration:faq:questions' }, seed: 's' }, 'source.props'],
      [
        { source: { type: 'builtin:openapi', props: {}, dependencies: { spec: { ref: { kind: 'openapi' } } } }, seed: 's' },
        'source.dependencies.spec.ref.spec',
      ],
      [
        { source: { type: 'builtin:translation', props: {}, dependencies: { translation: { ref: { kind: 'translation', translation: 't' } } } }, seed: 's' },
        'source.props.space',
      ],
    ] as const) {
      const res = await computed('document', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message).toContain(`\`${field}\``)
      expectOfficialError(400, res.body)
    }
    const olga = w.client(w.tokens.olga)
    await expect(olga.spaces.getComputedRevision(w.space.id, { source, seed: 's' })).rejects.toThrow('not found')
    await expect(olga.spaces.getComputedDocument(w.space.id, { source, seed: 's' })).rejects.toThrow('not found')
  })
})
