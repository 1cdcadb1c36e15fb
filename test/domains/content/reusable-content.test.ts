import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { sequentialIds } from '../../../src/testing.js'
import { BASE, call, createWorld } from '../../helpers.js'

/** Reusable contents: how documents name them, how change requests merge them, what copies them (docs/behaviour/content-and-change-requests.md, "Reusable contents"). */

type World = Awaited<ReturnType<typeof createWorld>>

const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] })
const paragraph = (t: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [text(t)] })
const include = (reusableContent: string) => ({
  object: 'block',
  type: 'reusable-content',
  isVoid: true,
  data: { ref: { kind: 'reusable-content', reusableContent } },
})
const doc = (...nodes: unknown[]) => ({ document: { object: 'document', data: {}, nodes } })

async function space(w: World, token = w.tokens.ada, api = w.api) {
  const s = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const batch = async (changes: unknown[], crId?: string) => {
    const cr = crId ?? (await call(api, token, 'POST', `/v1/spaces/${s.id}/change-requests`, { subject: 'Edit' })).body.id
    const res = await call(api, token, 'POST', `/v1/spaces/${s.id}/change-requests/${cr}/content?compat=false`, { changes })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return { cr, result: res.body }
  }
  const merge = async (cr: string) => (await call(api, token, 'POST', `/v1/spaces/${s.id}/change-requests/${cr}/merge`)).body
  const main = async () => (await call(api, token, 'GET', `/v1/spaces/${s.id}/content`)).body
  return { s, batch, merge, main }
}

describe('reusable contents', () => {
  it('a page naming a deleted reusable content still answers, the block left as stored; a cycle of inclusions ends', async () => {
    const w = await createWorld()
    const { s, batch, merge, main } = await space(w)
    const first = await batch([
      { operation: 'insert_reusable_content', title: 'A', ref: 'a', document: doc(paragraph('In A.'), include('b')) },
      { operation: 'insert_reusable_content', title: 'B', ref: 'b', document: doc(paragraph('In B.'), include('a')) },
      { operation: 'insert_page', title: 'Page', document: doc(include('a'), include('gone')) },
    ])
    await merge(first.cr)
    const rev = await main()
    const [a] = rev.reusableContents
    const page = rev.pages[0].id
    const read = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${s.id}/revisions/${rev.id}/page/${page}/document?dereferenced=reusable-contents`)
    expect(read.status).toBe(200)
    // A, then B inside it; B's inclusion of A (a cycle) and the missing one stay blocks.
    expect(read.body.nodes.map((n: { type: string; data?: { ref?: { reusableContent?: string } } }) => n.data?.ref?.reusableContent ?? n.type)).toEqual([
      'paragraph',
      'paragraph',
      a.id,
      'gone',
    ])
    // Deleting A: the page still answers, its block as stored.
    const second = await batch([{ operation: 'delete_reusable_content', reusableContent: a.id }])
    await merge(second.cr)
    const after = await main()
    expect(after.reusableContents.map((r: { title: string }) => r.title)).toEqual(['B'])
    const again = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${s.id}/revisions/${after.id}/page/${page}/document?dereferenced=true&evaluated=true`)
    expect(again.status).toBe(200)
    expect(again.body.nodes.map((n: { type: string }) => n.type)).toEqual(['reusable-content', 'reusable-content'])
    // The old revision still holds it.
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${s.id}/revisions/${rev.id}/reusable-contents/${a.id}`)).status).toBe(200)
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${s.id}/content/reusable-contents/${a.id}`)).status).toBe(404)
  })

  it("inside an expandable, a reusable content is inlined only when its blocks may stand in the expandable's body", async () => {
    const w = await createWorld()
    const { s, batch, merge, main } = await space(w)
    const expandable = (ref: string) => ({
      object: 'block',
      type: 'expandable',
      isVoid: true,
      data: {},
      fragments: [
        { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph('More')] },
        { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [include(ref)] },
      ],
    })
    const stepper = {
      object: 'block',
      type: 'stepper',
      data: {},
      nodes: [{ object: 'block', type: 'stepper-step', data: {}, nodes: [paragraph('Step')] }],
    }
    const { cr } = await batch([
      { operation: 'insert_reusable_content', title: 'Plain', ref: 'plain', document: doc(paragraph('Plain text.')) },
      { operation: 'insert_reusable_content', title: 'Steps', ref: 'steps', document: doc(stepper) },
      { operation: 'insert_page', title: 'Page', document: doc(expandable('plain'), expandable('steps')) },
    ])
    await merge(cr)
    const rev = await main()
    const res = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${s.id}/revisions/${rev.id}/page/${rev.pages[0].id}/document?dereferenced=reusable-contents`)
    expect(res.status).toBe(200)
    const bodies = res.body.nodes.map((n: { fragments: Array<{ nodes: Array<{ type: string }> }> }) => n.fragments[1]!.nodes.map((b) => b.type))
    expect(bodies).toEqual([['paragraph'], ['reusable-content']])
  })

  it('merged three ways: one side renames, the other edits the body; both renaming differently is a conflict', async () => {
    const w = await createWorld()
    const { s, batch, merge, main } = await space(w)
    await merge((await batch([{ operation: 'insert_reusable_content', title: 'Support', document: { markdown: 'One.\n\nTwo.\n' } }])).cr)
    const id = (await main()).reusableContents[0].id
    const body = (await batch([{ operation: 'update_reusable_content', reusableContent: id, document: { markdown: 'One.\n\nTwo, edited.\n' } }])).cr
    const rename = (await batch([{ operation: 'update_reusable_content', reusableContent: id, title: 'Help' }])).cr
    const other = (await batch([{ operation: 'update_reusable_content', reusableContent: id, title: 'Assistance' }])).cr
    expect((await merge(rename)).result).toBe('merge')
    expect((await merge(body)).result).toBe('merge')
    const rev = await main()
    expect(rev.reusableContents).toEqual([expect.objectContaining({ id, title: 'Help' })])
    const document = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${s.id}/revisions/${rev.id}/reusable-contents/${id}/document`)).body
    expect(JSON.stringify(document)).toContain('Two, edited.')
    const conflict = await merge(other)
    expect(conflict.result).toBe('conflicts')
    expect(conflict.conflicts).toEqual([{ page: id, reason: `both sides changed the title of reusable content "${id}"` }])
  })

  it('duplicateSpace and a translation copy the reusable contents, keeping their ids', async () => {
    const w = await createWorld()
    const { s, batch, merge } = await space(w)
    await merge(
      (
        await batch([
          { operation: 'insert_reusable_content', title: 'Support', ref: 'support', document: { markdown: 'Ask us.' } },
          { operation: 'insert_page', title: 'Page', document: doc(include('support')) },
        ])
      ).cr,
    )
    const copy = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${s.id}/duplicate`)).body
    const copied = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${copy.id}/content`)).body
    const source = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${s.id}/content`)).body
    expect(copied.reusableContents).toEqual([{ ...source.reusableContents[0], document: expect.any(String) }])
    expect(copied.reusableContents[0].document).not.toBe(source.reusableContents[0].document)
    const inlined = await call(
      w.api,
      w.tokens.ada,
      'GET',
      `/v1/spaces/${copy.id}/revisions/${copied.id}/page/${copied.pages[0].id}/document?dereferenced=reusable-contents`,
    )
    expect(JSON.stringify(inlined.body)).toContain('Ask us.')

    const api = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('t'), seed: w.api.dump(), translate: (t) => t.toUpperCase() })
    const base = `/v1/orgs/${w.org.id}/translations`
    const id = (await call(api, w.tokens.ada, 'POST', base, { language: 'fr', source: { space: s.id, language: 'en' } })).body.id
    await api.idle()
    const result = (await call(api, w.tokens.ada, 'GET', `${base}/${id}`)).body.result
    const translated = (await call(api, w.tokens.ada, 'GET', `/v1/spaces/${result.space}/content`)).body
    expect(translated.reusableContents).toEqual([expect.objectContaining({ id: source.reusableContents[0].id, title: 'SUPPORT' })])
    const doc2 = (await call(api, w.tokens.ada, 'GET', `/v1/spaces/${result.space}/content/reusable-contents/${source.reusableContents[0].id}`)).body
    const body = (await call(api, w.tokens.ada, 'GET', `/v1/spaces/${result.space}/documents/${doc2.document}`)).body
    expect(JSON.stringify(body)).toContain('ASK US.')
  })
})
