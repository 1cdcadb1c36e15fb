import { describe, expect, it } from 'vitest'
import { BASE, call, createWorld, expectError } from '../../helpers.js'
import { createUrls } from '../../../src/core/context.js'
import type { ReadContext } from '../../../src/domains/context.js'
import { encodePage } from '../../../src/domains/content/encode.js'
import { pageIn } from '../../../src/domains/content/revision.js'
import { expectOfficialResponse } from '../../conformance/official.js'

/**
 * Page metadata read from markdown is held to the rules of the same fields; slugs are path
 * segments; page URLs are URIs whatever the script of the titles; anchors and file blocks.
 */
async function setup() {
  const w = await createWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const base = `/v1/spaces/${space.id}`
  const cr = (await call(w.api, w.tokens.ada, 'POST', `${base}/change-requests`, { subject: 'Edit' })).body
  const edit = (changes: unknown[]) => call(w.api, w.tokens.ada, 'POST', `${base}/change-requests/${cr.id}/content?compat=false`, { changes })
  const page = (id: string, query = '') => call(w.api, w.tokens.ada, 'GET', `${base}/change-requests/${cr.id}/content/page/${id}${query}`)
  return { ...w, space, base, cr, edit, page }
}

describe('page metadata from markdown', () => {
  it('refuses frontmatter values past the field rules, naming the key and the rule; writes nothing', async () => {
    const w = await setup()
    const before = w.api.dump()
    const md = (markdown: string) => w.edit([{ operation: 'insert_page', document: { markdown } }])
    expectError(await md('---\ntitle: ""\n---\nBody'), 400, 'changes[0].document.markdown`: frontmatter `title` must not be empty')
    expectError(await md(`---\nemoji: "${'x'.repeat(80)}"\n---\nBody`), 400, 'frontmatter `emoji` must be at most 50 characters')
    expectError(await md(`---\ntitle: "${'t'.repeat(600)}"\n---\nBody`), 400, 'frontmatter `title` must be at most 500 characters')
    expectError(await md('---\nslug: a/b\n---\nBody'), 400, 'frontmatter `slug` must be one path segment')
    expectError(await md(`# ${'h'.repeat(600)}\n\nBody`), 400, "the leading heading, read as the page's title, must be at most 500 characters")
    expect(w.api.dump()).toEqual(before)
  })

  it('a heading with no text gives no title and stays in the body; a numeric frontmatter title is text', async () => {
    const w = await setup()
    const res = await w.edit([
      { operation: 'insert_page', title: 'Kept', document: { markdown: '# \n\nBody' } },
      { operation: 'insert_page', document: { markdown: '---\ntitle: 2024\n---\nBody' } },
    ])
    expect(res.status).toBe(200)
    const [a, b] = res.body.changes.map((c: any) => c.page.id)
    const first = (await w.page(a)).body
    expect(first.title).toBe('Kept')
    expect(first.document.nodes[0].type).toBe('heading-1')
    expectOfficialResponse('getPageInChangeRequestById', 200, first)
    expect((await w.page(b)).body.title).toBe('2024')
  })

  it('update_page reads only the frontmatter: a leading heading stays in the body and the title stays', async () => {
    const w = await setup()
    const inserted = await w.edit([{ operation: 'insert_page', title: 'Real Title', document: { markdown: 'Intro' } }])
    const id = inserted.body.changes[0].page.id
    const updated = await w.edit([{ operation: 'update_page', page: id, document: { markdown: '# Section\n\nText' } }])
    expect(updated.status).toBe(200)
    const page = (await w.page(id, '?format=markdown')).body
    expect(page.title).toBe('Real Title')
    expect(page.markdown).toBe('# Section\n\nText\n')
    // The frontmatter still sets metadata on an update.
    await w.edit([{ operation: 'update_page', page: id, document: { markdown: '---\ntitle: New\n---\nText' } }])
    expect((await w.page(id)).body.title).toBe('New')
  })
})

describe('slugs and paths', () => {
  it('refuses explicit slugs that are not one path segment (400 naming the field)', async () => {
    const w = await setup()
    const before = w.api.dump()
    for (const slug of ['a/b', '', '100%', 'a b', '.', '..', 'q?x', 'h#x']) {
      expectError(await w.edit([{ operation: 'insert_page', title: 'P', slug, document: { markdown: 'x' } }]), 400, 'changes[0].slug')
    }
    expect(w.api.dump()).toEqual(before)
    expect((await w.edit([{ operation: 'insert_page', title: 'P', slug: 'v1.2_notes', document: { markdown: 'x' } }])).status).toBe(200)
  })

  it('pages titled in any script have a URI for urls.app and are found by path raw and encoded', async () => {
    const w = await setup()
    const res = await w.edit([
      { operation: 'insert_page', ref: 'p', title: 'Café über', document: { markdown: 'x' } },
      { operation: 'insert_page', title: '中文 页面', into: 'p', document: { markdown: 'y' } },
    ])
    const [parent, child] = res.body.changes.map((c: any) => c.page.id)
    const page = (await w.page(child)).body
    expect(page.path).toBe('cafe-uber/中文-页面')
    expect(page.urls.app).toBe(`http://localhost:4000/app/s/${w.space.id}/cafe-uber/${encodeURIComponent('中文-页面')}`)
    expectOfficialResponse('getPageInChangeRequestById', 200, page)
    const byPath = `${w.base}/change-requests/${w.cr.id}/content/path/`
    const raw = await call(w.api, w.tokens.ada, 'GET', `${byPath}${encodeURI('cafe-uber/中文-页面')}`)
    expect(raw.body.id).toBe(child)
    const encoded = await call(w.api, w.tokens.ada, 'GET', `${byPath}${encodeURIComponent('cafe-uber/中文-页面')}`)
    expect(encoded.body.id).toBe(child)
    expectOfficialResponse('getPageInChangeRequestByPath', 200, encoded.body)
    const listed = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${w.cr.id}/content/pages`)
    expect(listed.body.pages[0].id).toBe(parent)
    expectOfficialResponse('listPagesInChangeRequest', 200, listed.body)
  })
})

describe('links: anchors', () => {
  it('reads `#a` and `/pages/<id>#a` as anchors, writes them back, and an anchor into a deleted page is broken', async () => {
    const w = await setup()
    const target = (await w.edit([{ operation: 'insert_page', title: 'Target', document: { markdown: '## Install\n\nSteps' } }])).body.changes[0].page.id
    const source = (
      await w.edit([{ operation: 'insert_page', title: 'Source', document: { markdown: `See [here](#intro) and [there](/pages/${target}#install).` } }])
    ).body.changes[0].page.id
    const doc = (await w.page(source)).body.document
    const refs = doc.nodes[0].nodes.filter((n: any) => n.type === 'link').map((n: any) => n.data.ref)
    expect(refs).toEqual([
      { kind: 'anchor', anchor: 'intro' },
      { kind: 'anchor', anchor: 'install', page: target },
    ])
    expect((await w.page(source, '?format=markdown')).body.markdown).toBe(`See [here](#intro) and [there](/pages/${target}#install).\n`)
    const links = () => call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${w.cr.id}/content/page/${source}/links`)
    expect((await links()).body.items.map((l: any) => l.status)).toEqual(['ok', 'ok'])
    await w.edit([{ operation: 'delete_page', page: target }])
    const after = (await links()).body
    expect(after.items.map((l: any) => [l.status, l.targetReference.anchor])).toEqual([
      ['ok', 'intro'],
      ['broken', 'install'],
    ])
    expect(after.stats.broken.total).toBe(1)
  })
})

describe('files', () => {
  const png1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

  it('a file block reads back in markdown as a link named after the file', async () => {
    const w = await setup()
    const up = await w.edit([
      { operation: 'insert_files', files: [{ ref: 'f', name: 'report.pdf', contentType: 'application/pdf', base64: btoa('%PDF-1.4 x') }] },
    ])
    const file = up.body.insertedFiles[0].id
    const doc = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file } } }] }
    const page = (await w.edit([{ operation: 'insert_page', title: 'F', document: { document: doc } }])).body.changes[0].page.id
    expect((await w.page(page, '?format=markdown')).body.markdown).toBe(`[report.pdf](/files/${file})\n`)
  })

  it('takes a base64 file of 1 MB decoded (the batch body may pass 1 MiB), and refuses more naming the field', async () => {
    const w = await setup()
    const bytes = new Uint8Array(1000 * 1000).fill(65)
    let bin = ''
    for (const b of bytes) bin += String.fromCharCode(b)
    const ok = await w.edit([{ operation: 'insert_files', files: [{ name: 'big.txt', contentType: 'text/plain', base64: btoa(bin) }] }])
    expect(ok.status).toBe(200)
    expect(ok.body.insertedFiles[0].size).toBe(1_000_000)
    const tooBig = await w.edit([
      { operation: 'insert_files', files: [{ name: 'big.txt', contentType: 'text/plain', base64: btoa(bin + 'x'.repeat(50_000)) }] },
    ])
    expectError(tooBig, 400, 'changes[0].files[0].base64')
  })

  it('downloads: a malformed key is a 404 (never a throw); bytes carry nosniff, a safe disposition and CORS headers when on', async () => {
    const w = await setup()
    const res = await w.api.fetch('http://localhost:4000/files/%E0%A4%A/x')
    expect(res.status).toBe(404)
    const up = await w.edit([
      {
        operation: 'insert_files',
        files: [
          { name: 'a.png', contentType: 'image/png', base64: png1x1 },
          { name: 'page.html', contentType: 'text/html', base64: btoa('<script>alert(1)</script>') },
        ],
      },
    ])
    const [png, html] = up.body.insertedFiles
    const image = await w.api.fetch(png.downloadURL)
    expect(image.headers.get('x-content-type-options')).toBe('nosniff')
    expect(image.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''a.png")
    const page = await w.api.fetch(html.downloadURL)
    expect(page.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''page.html")
    expect(page.headers.get('content-security-policy')).toContain('sandbox')
    expect(image.headers.get('access-control-allow-origin')).toBeNull()
    const withCors = w.api.fork({ cors: true })
    const cross = await withCors.fetch(new Request(png.downloadURL, { headers: { origin: 'https://app.example' } }))
    expect(cross.status).toBe(200)
    expect(cross.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('slugs among siblings across batches', () => {
  it('a chain of batches sees the slugs each earlier batch freed, took or moved (counts kept per revision)', async () => {
    const w = await setup()
    const ids = async (changes: unknown[]) => (await w.edit(changes)).body.changes.map((c: any) => c.page.id)
    const [a] = await ids([{ operation: 'insert_page', title: 'Alpha', document: { markdown: 'x' } }])
    const [a2] = await ids([{ operation: 'insert_page', title: 'Alpha', document: { markdown: 'x' } }])
    expect((await w.page(a2)).body.slug).toBe('alpha-2')
    // Renaming the first frees `alpha`: a new Alpha takes it.
    await w.edit([{ operation: 'update_page', page: a, title: 'Beta' }])
    expect((await w.page(a)).body.slug).toBe('beta')
    const [a3] = await ids([{ operation: 'insert_page', title: 'Alpha', document: { markdown: 'x' } }])
    expect((await w.page(a3)).body.slug).toBe('alpha')
    // An explicit slug taken by a sibling is refused; one freed by a move is not.
    expectError(await w.edit([{ operation: 'update_page', page: a3, slug: 'beta' }]), 400, 'is taken by a sibling page')
    await w.edit([{ operation: 'update_page', page: a, into: a2 }])
    expect((await w.edit([{ operation: 'update_page', page: a3, slug: 'beta' }])).status).toBe(200)
    // Under its new parent the moved page keeps its slug; a sibling there with the same derived slug gets -2.
    const [b2] = await ids([{ operation: 'insert_page', title: 'Beta', into: a2, document: { markdown: 'x' } }])
    expect((await w.page(b2)).body.slug).toBe('beta-2')
    // Deleting frees a slug in the next batch.
    await w.edit([{ operation: 'delete_page', page: a }])
    const [b3] = await ids([{ operation: 'insert_page', title: 'Beta', into: a2, document: { markdown: 'x' } }])
    expect((await w.page(b3)).body.slug).toBe('beta')
  })
})

describe('format.markdown.refs', () => {
  it('relative writes page links as links between page files; written back, they are page links again; stable (the default) writes ids', async () => {
    const w = await setup()
    const res = await w.edit([
      { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'Start' } },
      { operation: 'insert_page', ref: 'usage', title: 'Usage', into: 'guide', document: { markdown: 'Use' } },
      { operation: 'insert_page', ref: 'api', title: 'API', document: { markdown: '## Setup\n\nKeys' } },
    ])
    const [guide, usage, api] = res.body.changes.map((c: any) => c.page.id)
    const body = `See [usage](/pages/${usage}), [setup](/pages/${api}#setup), [guide](/pages/${guide}) and [the web](https://example.com).`
    const install = (await w.edit([{ operation: 'insert_page', title: 'Install', into: guide, document: { markdown: body } }])).body.changes[0].page.id
    const relative = await w.page(install, '?format=markdown&format.markdown.refs=relative')
    expect(relative.body.markdown).toBe('See [usage](usage.md), [setup](../api.md#setup), [guide](../guide.md) and [the web](https://example.com).\n')
    expectOfficialResponse('getPageInChangeRequestById', 200, relative.body)
    expect((await w.page(install, '?format=markdown')).body.markdown).toBe(`${body}\n`)
    expect((await w.page(install, '?format=markdown&format.markdown.refs=stable')).body.markdown).toBe(`${body}\n`)
    // Sent back as it was read, the relative links name the same pages.
    await w.edit([{ operation: 'update_page', page: install, document: { markdown: relative.body.markdown } }])
    const refs = (await w.page(install)).body.document.nodes[0].nodes.filter((n: any) => n.type === 'link').map((n: any) => n.data.ref)
    expect(refs).toEqual([
      { kind: 'page', page: usage },
      { kind: 'anchor', anchor: 'setup', page: api },
      { kind: 'page', page: guide },
      { kind: 'url', url: 'https://example.com' },
    ])
    // A relative link naming no page stays a URL; `<folder>/README.md` names the folder's page.
    await w.edit([{ operation: 'update_page', page: install, document: { markdown: '[x](nope.md) [g](../guide/README.md)' } }])
    const again = (await w.page(install)).body.document.nodes[0].nodes.filter((n: any) => n.type === 'link').map((n: any) => n.data.ref)
    expect(again).toEqual([
      { kind: 'url', url: 'nope.md' },
      { kind: 'page', page: guide },
    ])
    expectError(await w.page(install, '?format=markdown&format.markdown.refs=absolute'), 400, 'format.markdown.refs')
  })
})

describe("a page's condition", () => {
  it('is answered to users, never to the visitor of a site token (as the official RevisionPageBase says)', async () => {
    const w = await setup()
    const res = await w.edit([{ operation: 'insert_page', title: 'Beta', condition: 'visitor.claims.beta', document: { markdown: 'For testers.' } }])
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const id = res.body.changes[0].page.id
    expect((await w.page(id)).body.condition).toBe('visitor.claims.beta')
    const grant = {
      kind: 'site',
      organization: w.org.id,
      site: 's',
      siteSpace: 'ss',
      space: w.space.id,
      spaces: [w.space.id],
      claims: {},
      visitorType: 'human',
    }
    const asVisitor = w.api.store.read((tx) => {
      const rev = tx.get('revisions', tx.get('changeRequests', w.cr.id)!.revision)!
      const ctx = { actor: { user: '', content: grant }, tx, urls: createUrls(BASE) } as unknown as ReadContext
      return encodePage(ctx, rev, pageIn(tx, rev, id)!, 'document')
    })
    expect(asVisitor).toMatchObject({ id, title: 'Beta' })
    expect(asVisitor).not.toHaveProperty('condition')
  })
})
