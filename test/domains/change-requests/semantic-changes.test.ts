import { describe, expect, it } from 'vitest'
import { call } from '../../helpers.js'
import { edit, merge, openCr, setup, type CrWorld } from './helpers.js'
import { longestStall } from '../../stall.js'
import { TEST_STORE } from '../../test-storage.js'

/**
 * Semantic changes (docs/behaviour/content-and-change-requests.md, "Semantic changes"): what a change request
 * changes against its base, and what a revision changed against its parent, each kind of change.
 */

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

/** Main with "Guide" (child "Install") and "Reference", merged from a first change request. */
async function withMain(w: CrWorld) {
  const seed = await openCr(w, 'Seed')
  const res = await edit(w, seed.id, [
    { operation: 'insert_page', title: 'Guide', document: { markdown: 'Guide.\n' }, ref: 'guide' },
    { operation: 'insert_page', title: 'Install', into: 'guide', document: { markdown: 'one\n' }, ref: 'install' },
    { operation: 'insert_page', title: 'Reference', document: { markdown: 'Ref.\n' }, ref: 'ref' },
  ])
  expect(res.status).toBe(200)
  const ids = res.body.changes.map((c: { page: { id: string } }) => c.page.id) as string[]
  expect((await merge(w, seed.id)).status).toBe(200)
  return { guide: ids[0]!, install: ids[1]!, reference: ids[2]! }
}

const changesOf = async (w: CrWorld, cr: string, query = '') => {
  const res = await call(w.api, w.tokens.ada, 'GET', `${w.base}/change-requests/${cr}/changes${query}`)
  expect(res.status).toBe(200)
  return res.body as { changes: Array<Record<string, any>>; more?: number }
}

describe('semantic changes of a change request', () => {
  it('names a page created, edited (attributes and body), moved and deleted, each once, with its path', async () => {
    const w = await setup()
    const main = await withMain(w)
    const cr = await openCr(w)
    expect(await changesOf(w, cr.id)).toEqual({ changes: [] })
    const res = await edit(w, cr.id, [
      { operation: 'insert_page', title: 'News', document: { markdown: 'New.\n' } },
      { operation: 'update_page', page: main.guide, title: 'Guides', document: { markdown: 'Guide, edited.\n' } },
      { operation: 'update_page', page: main.install, into: main.reference },
      { operation: 'delete_page', page: main.reference },
    ])
    // The move above puts Install under Reference, then Reference is deleted with it.
    expect(res.status).toBe(200)
    const { changes } = await changesOf(w, cr.id)
    const byType = (type: string) => changes.filter((c) => c.type === type)
    expect(byType('page_created').map((c) => c.page)).toEqual([{ id: expect.any(String), type: 'document', title: 'News', path: 'news' }])
    expect(byType('page_edited')).toEqual([
      {
        type: 'page_edited',
        page: { id: main.guide, type: 'document', title: 'Guides', path: 'guides' },
        attributes: { title: { before: 'Guide', after: 'Guides' }, slug: { before: 'guide', after: 'guides' }, document: {} },
      },
    ])
    expect(
      byType('page_deleted')
        .map((c) => c.page.id)
        .sort(),
    ).toEqual([main.install, main.reference].sort())
  })

  it('a body written again as it was (new block keys, the same content) is no change; a title alone leaves the body out', async () => {
    const w = await setup()
    const main = await withMain(w)
    const cr = await openCr(w)
    expect((await edit(w, cr.id, [{ operation: 'update_page', page: main.install, document: { markdown: 'one\n' } }])).status).toBe(200)
    expect(await changesOf(w, cr.id)).toEqual({ changes: [] })
    expect((await edit(w, cr.id, [{ operation: 'update_page', page: main.install, title: 'Setup', document: { markdown: 'one\n' } }])).status).toBe(200)
    expect((await changesOf(w, cr.id)).changes.map((c) => c.attributes)).toEqual([
      { title: { before: 'Install', after: 'Setup' }, slug: { before: 'install', after: 'setup' } },
    ])
  })

  it('names a page moved with its parents before and after', async () => {
    const w = await setup()
    const main = await withMain(w)
    const cr = await openCr(w)
    expect((await edit(w, cr.id, [{ operation: 'update_page', page: main.install, into: main.reference }])).status).toBe(200)
    const { changes } = await changesOf(w, cr.id)
    expect(changes).toEqual([
      {
        type: 'page_moved',
        page: { id: main.install, type: 'document', title: 'Install', path: 'reference/install' },
        parent: {
          before: { id: main.guide, type: 'document', title: 'Guide', path: 'guide' },
          after: { id: main.reference, type: 'document', title: 'Reference', path: 'reference' },
        },
      },
    ])
  })

  it('names files added', async () => {
    const w = await setup()
    await withMain(w)
    const cr = await openCr(w)
    const res = await edit(w, cr.id, [{ operation: 'insert_files', files: [{ name: 'dot.png', base64: PNG, contentType: 'image/png' }] }])
    expect(res.status).toBe(200)
    const { changes } = await changesOf(w, cr.id)
    expect(changes).toEqual([
      { type: 'file_created', file: { id: expect.any(String), name: 'dot.png', contentType: 'image/png', downloadURL: expect.stringContaining('/dot.png') } },
    ])
  })

  it('shows what the change request changed, not what main changed since it was opened', async () => {
    const w = await setup()
    const main = await withMain(w)
    const cr = await openCr(w)
    expect((await edit(w, cr.id, [{ operation: 'update_page', page: main.install, title: 'Setup' }])).status).toBe(200)
    const other = await openCr(w, 'Other')
    expect((await edit(w, other.id, [{ operation: 'update_page', page: main.reference, title: 'API' }])).status).toBe(200)
    expect((await merge(w, other.id)).status).toBe(200)
    const { changes } = await changesOf(w, cr.id)
    expect(changes.map((c) => [c.type, c.page.id])).toEqual([['page_edited', main.install]])
  })

  it('answers at most `limit` changes and counts the others in `more`', async () => {
    const w = await setup()
    await withMain(w)
    const cr = await openCr(w)
    const pages = Array.from({ length: 12 }, (_, i) => ({ operation: 'insert_page', title: `P${i}`, document: { markdown: 'x\n' } }))
    expect((await edit(w, cr.id, pages)).status).toBe(200)
    const first = await changesOf(w, cr.id)
    expect(first.changes).toHaveLength(10)
    expect(first.more).toBe(2)
    const all = await changesOf(w, cr.id, '?limit=100')
    expect(all.changes).toHaveLength(12)
    expect(all.more).toBeUndefined()
  })
})

describe('semantic changes of a revision', () => {
  it("a merge revision's changes are what it merged, with the change request (`mergedFrom`)", async () => {
    const w = await setup()
    const main = await withMain(w)
    const cr = await openCr(w)
    expect((await edit(w, cr.id, [{ operation: 'update_page', page: main.reference, emoji: '1f4d6' }])).status).toBe(200)
    expect((await merge(w, cr.id)).status).toBe(200)
    const space = await call(w.api, w.tokens.ada, 'GET', w.base)
    const res = await call(w.api, w.tokens.ada, 'GET', `${w.base}/revisions/${space.body.revision}/changes`)
    expect(res.status).toBe(200)
    expect(res.body.mergedFrom.id).toBe(cr.id)
    expect(res.body.changes).toEqual([
      { type: 'page_edited', page: { id: main.reference, type: 'document', title: 'Reference', path: 'reference' }, attributes: { emoji: { after: '1f4d6' } } },
    ])
  })

  it("a space's first revision has every page created", async () => {
    const w = await setup()
    const main = await withMain(w)
    const space = await call(w.api, w.tokens.ada, 'GET', w.base)
    const res = await call(w.api, w.tokens.ada, 'GET', `${w.base}/revisions/${space.body.revision}/changes`)
    expect(res.status).toBe(200)
    expect(res.body.changes.map((c: { type: string; page: { id: string } }) => [c.type, c.page.id])).toEqual([
      ['page_created', main.guide],
      ['page_created', main.install],
      ['page_created', main.reference],
    ])
  })

  it('names the variables added, changed and removed, in one change', async () => {
    const w = await setup()
    await withMain(w)
    const main = (await call(w.api, w.tokens.ada, 'GET', w.base)).body.revision as string
    // Variables come with imported content (Git Sync, state documents): a revision made directly here.
    w.api.store.transaction((tx) => {
      const rev = tx.get('revisions', main)!
      tx.update('revisions', { ...rev, variables: { version: '1.0', product: 'Acme' } })
      tx.insert('revisions', { ...rev, id: 'rev-vars', parents: [main], variables: { version: '2.0', edition: 'pro' } })
    })
    const res = await call(w.api, w.tokens.ada, 'GET', `${w.base}/revisions/rev-vars/changes`)
    expect(res.status).toBe(200)
    expect(res.body.changes).toEqual([
      { type: 'variables_edited', variables: { version: { before: '1.0', after: '2.0' }, product: { before: 'Acme' }, edition: { after: 'pro' } } },
    ])
  })
})

describe('semantic changes of reusable contents', () => {
  it('names one created, edited (title, body) and deleted, each once; a body saved unchanged is no edit', async () => {
    const w = await setup()
    const seed = await openCr(w, 'Seed')
    expect(
      (
        await edit(w, seed.id, [
          { operation: 'insert_reusable_content', title: 'Support', document: { markdown: 'Write to us.\n' } },
          { operation: 'insert_reusable_content', title: 'Legal', document: { markdown: 'Terms.\n' } },
        ])
      ).status,
    ).toBe(200)
    const seeded = await changesOf(w, seed.id)
    expect(seeded.changes.map((c) => [c.type, c.reusableContent.title])).toEqual([
      ['reusable_content_created', 'Support'],
      ['reusable_content_created', 'Legal'],
    ])
    expect((await merge(w, seed.id)).status).toBe(200)
    const [support, legal] = seeded.changes.map((c) => c.reusableContent as { id: string; document: string })
    const cr = await openCr(w)
    expect(
      (
        await edit(w, cr.id, [
          { operation: 'update_reusable_content', reusableContent: support!.id, title: 'Help', document: { markdown: 'Write to us, or call.\n' } },
          { operation: 'update_reusable_content', reusableContent: legal!.id, document: { markdown: 'Terms.\n' } },
          { operation: 'insert_reusable_content', title: 'Contact', document: { markdown: 'Phone.\n' } },
        ])
      ).status,
    ).toBe(200)
    const { changes } = await changesOf(w, cr.id)
    expect(changes).toEqual([
      {
        type: 'reusable_content_edited',
        reusableContent: { id: support!.id, title: 'Help', document: expect.any(String) },
        attributes: { title: { before: 'Support', after: 'Help' }, document: { before: support!.document, after: expect.any(String) } },
      },
      { type: 'reusable_content_created', reusableContent: { id: expect.any(String), title: 'Contact', document: expect.any(String) } },
    ])
    const gone = await openCr(w)
    expect((await edit(w, gone.id, [{ operation: 'delete_reusable_content', reusableContent: legal!.id }])).status).toBe(200)
    expect((await changesOf(w, gone.id)).changes).toEqual([
      { type: 'reusable_content_deleted', reusableContent: { id: legal!.id, title: 'Legal', document: legal!.document } },
    ])
  })
})

describe('semantic changes of a large change request', () => {
  // In memory only: on SQLite, reading the 400 versions of 150 KB (their JSON parsed as the rows
  // are read) takes seconds in one read transaction, a cost of the store this test does not measure.
  it.skipIf(TEST_STORE === 'sqlite')(
    'compares the bodies of many rewritten pages in slices the first time (the event loop keeps turning), then from what it kept',
    { timeout: 60_000 },
    async () => {
      const w = await setup()
      const paragraph = (text: string) => ({
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
      })
      // The last paragraph differs: each comparison walks the whole body.
      const body = (last: string) => ({
        document: { object: 'document', data: {}, nodes: [...Array.from({ length: 1_200 }, (_, i) => paragraph(`Line ${i}.`)), paragraph(last)] },
      })
      const seed = await openCr(w, 'Seed')
      const ids: string[] = []
      // A batch holds at most 50 changes.
      for (let from = 0; from < 200; from += 50) {
        const inserted = await edit(
          w,
          seed.id,
          Array.from({ length: 50 }, (_, i) => ({ operation: 'insert_page', title: `Page ${from + i}`, document: body('Before.') })),
        )
        expect(inserted.status).toBe(200)
        ids.push(...inserted.body.changes.map((c: { page: { id: string } }) => c.page.id))
      }
      expect((await merge(w, seed.id)).status).toBe(200)
      // A change request rewriting every page (a new one each attempt: its versions were never compared).
      const rewrite = async (attempt: number) => {
        const cr = await openCr(w)
        for (let from = 0; from < 200; from += 50) {
          const rewritten = ids.slice(from, from + 50).map((page) => ({ operation: 'update_page', page, document: body(`After ${attempt}.`) }))
          expect((await edit(w, cr.id, rewritten)).status).toBe(200)
        }
        return cr.id
      }
      // Wall-clock stalls include the time the process waited for a CPU: on a busy machine (the suite's
      // other workers) one attempt may read a stall that is not ours, so the best of three counts.
      let best: { stall: number; total: number } | undefined
      for (let attempt = 0; attempt < 3 && (best === undefined || best.stall >= best.total / 3); attempt++) {
        const cr = await rewrite(attempt)
        const first = await longestStall(() => changesOf(w, cr, '?limit=1000'))
        expect(first.result.changes).toHaveLength(200)
        expect(first.result.changes.every((c) => c.type === 'page_edited' && 'document' in c.attributes)).toBe(true)
        if (best === undefined || first.stall / first.total < best.stall / best.total) best = first
        // Asked again, the same answer (the comparisons were kept).
        expect((await changesOf(w, cr, '?limit=1000')).changes).toEqual(first.result.changes)
      }
      expect(best!.stall).toBeLessThan(best!.total / 3)
    },
  )
})
