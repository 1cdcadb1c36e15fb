import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { createMemoryBlobs } from '../../../src/storage/blobs.js'
import { createClock, sequentialIds } from '../../../src/testing.js'
import { BASE, call, expectError } from '../../helpers.js'
import { expectOfficialResponse } from '../../conformance/official.js'

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

/** An API whose blob port counts the blobs it holds, with an admin, a space and an open change request holding one page. */
async function world() {
  const live = new Set<string>()
  const inner = createMemoryBlobs()
  const blobs = {
    put: (bytes: Uint8Array, type: string, key?: string) => {
      const stored = inner.put(bytes, type, key)
      live.add(stored)
      return stored
    },
    get: (key: string) => inner.get(key),
    delete: (key: string) => (live.delete(key), inner.delete(key)),
  }
  const api = createDocsApi({ baseUrl: BASE, blobs, now: createClock('2026-03-01T10:00:00.000Z').now, ids: sequentialIds('id') })
  const ada = await api.fixtures.createUser({ displayName: 'Ada' })
  const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
  const token = await api.fixtures.createToken(ada.id)
  const space = await api.fixtures.createSpace(org.id, { title: 'Batches' })
  const cr = (await call(api, token, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Batch' })).body
  const path = `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`
  const first = await call(api, token, 'POST', path, {
    changes: [
      { operation: 'insert_page', title: 'Intro', ref: 'intro', document: {} },
      { operation: 'insert_page', title: 'Other', document: {} },
    ],
  })
  expect(first.status).toBe(200)
  const [intro, other] = first.body.changes.map((c: any) => c.page.id as string)
  const batch = (changes: unknown[]) => call(api, token, 'POST', path, { changes })
  return { api, live, batch, intro: intro!, other: other! }
}

const file = (ref?: string) => ({
  operation: 'insert_files',
  files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG, ...(ref !== undefined && { ref }) }],
})

describe('content batches: refs', () => {
  it("a ref used twice in one batch is a 400 naming the field that reuses it (a file's ref, when a page of the batch has it); nothing is written", async () => {
    const w = await world()
    const before = w.api.dump()
    const cases: Array<[unknown[], string]> = [
      [
        [
          { operation: 'insert_page', title: 'A', ref: 'x', document: {} },
          { operation: 'insert_page', title: 'B', ref: 'x', document: {} },
        ],
        'changes[1].ref`: "x" is used twice in the batch',
      ],
      [[file('x'), { operation: 'insert_page', title: 'A', ref: 'x', document: {} }], 'changes[0].files[0].ref`: "x" is used twice in the batch'],
      [[{ operation: 'insert_page', title: 'A', ref: 'x', document: {} }, file('x')], 'changes[1].files[0].ref`: "x" is used twice in the batch'],
      [[{ operation: 'insert_files', files: [file('y').files[0], file('y').files[0]] }], 'changes[0].files[1].ref`: "y" is used twice in the batch'],
    ]
    for (const [changes, message] of cases) {
      expectError(await w.batch(changes), 400, message)
      expect(w.api.dump()).toEqual(before)
      expect(w.live.size).toBe(0)
    }
    // A ref of an earlier batch is free again: refs name what one batch inserts.
    const ok = await w.batch([{ operation: 'insert_page', title: 'Again', ref: 'intro', document: {} }])
    expect(ok.status).toBe(200)
    expectOfficialResponse('updateChangeRequestContent', 200, ok.body)
  })
})

describe('content batches: atomic whatever fails', () => {
  it('a bad change after a good insert_files (base64) and insert_page writes no row and keeps no blob', async () => {
    const w = await world()
    const before = w.api.dump()
    const good = [file('pic'), { operation: 'insert_page', title: 'New', ref: 'new', document: { markdown: '![pic](./pic)' } }]
    const cases: Array<[unknown, string]> = [
      [{ operation: 'update_page', page: 'nope', title: 'X' }, 'changes[2].page`: no page "nope"'],
      [{ operation: 'update_page', page: w.other, slug: 'intro' }, 'changes[2].slug`: "intro" is taken'],
      [{ operation: 'update_page', page: w.intro, into: w.intro }, 'changes[2].into`: a page cannot move into itself'],
      [{ operation: 'update_page', page: w.intro, into: 'nowhere' }, 'changes[2].into`: no page "nowhere"'],
      [{ operation: 'update_page', page: w.intro, document: { markdown: '---\ntitle: [unclosed\n---\nText' } }, 'changes[2].document.markdown'],
      [{ operation: 'delete_page', page: 'nope' }, 'changes[2].page'],
      [{ operation: 'revert_page', page: w.intro, revision: 'nope' }, 'changes[2].revision'],
      [{ operation: 'insert_page', title: 'Clash', slug: 'new', document: {} }, 'changes[2].slug'],
    ]
    for (const [bad, message] of cases) {
      expectError(await w.batch([...good, bad]), 400, message)
      expect(w.api.dump(), message).toEqual(before)
      expect(w.live.size, message).toBe(0)
    }
    // The same batch without the bad change goes through whole.
    const ok = await w.batch(good)
    expect(ok.status).toBe(200)
    expect(ok.body.insertedFiles).toHaveLength(1)
    expect(w.live.size).toBe(1)
  })
})
