import { describe, expect, it } from 'vitest'
import { createDocsApi, type DocsApi } from '../../../src/index.js'
import type { Translator } from '../../../src/domains/translations/translator.js'
import { createClock, sequentialIds } from '../../../src/testing.js'
import { BASE, call, createWorld, expectError } from '../../helpers.js'

/**
 * Translations through api.fetch: every operation's success, validation and permission paths
 * (a failed request changes nothing), and runs as background jobs on the injected clock.
 */

/** The world with a space holding content, merged from a change request. */
async function setup(options: { translate?: Translator } = {}) {
  const w = await createWorld()
  // The same world, with the translator given (createWorld makes its API without options).
  const api = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('t'), seed: w.api.dump(), ...options })
  const space = await api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  await edit(api, w.tokens.ada, space.id, [
    { operation: 'insert_page', title: 'Welcome', ref: 'w', document: { markdown: 'Hello **bold** world, see `npm install`.\n\n- first item\n- second item' } },
    { operation: 'insert_page', title: 'Next steps', into: 'w', document: { markdown: 'Read the guide.' } },
  ])
  const base = `/v1/orgs/${w.org.id}/translations`
  return { ...w, api, space, base }
}

/** Edit a space's main content through a change request, merged. */
async function edit(api: DocsApi, token: string, space: string, changes: unknown[]) {
  const cr = (await call(api, token, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'Edit' })).body
  const res = await call(api, token, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, { changes })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect((await call(api, token, 'POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`)).status).toBe(200)
  return res.body
}

const upper: Translator = (text) => text.toUpperCase()
const doc = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
})

/** The pages of a space's main content as `[id, title, markdown]`, depth first. */
async function pagesOf(api: DocsApi, token: string, space: string) {
  const out: Array<[string, string, string]> = []
  const walk = async (pages: Array<{ id: string; title: string; pages?: unknown[] }>) => {
    for (const p of pages) {
      const page = (await call(api, token, 'GET', `/v1/spaces/${space}/content/page/${p.id}?format=markdown`)).body
      out.push([p.id, p.title, page.markdown.trim()])
      await walk((p.pages ?? []) as typeof pages)
    }
  }
  await walk((await call(api, token, 'GET', `/v1/spaces/${space}/content/pages`)).body.pages)
  return out
}

describe('translations: create, list, get, update, delete', () => {
  it('creates a pending translation (201) with every field answered, and runs it in the background', async () => {
    const w = await setup()
    const res = await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      object: 'translation',
      id: expect.any(String),
      status: 'pending',
      source: { space: w.space.id, language: 'en' },
      language: 'fr',
      instructions: { object: 'document', data: { schemaVersion: 1 }, nodes: [] },
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
      stats: { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 },
      permissions: { view: true, edit: true },
      urls: { location: `${BASE}${w.base}/${res.body.id}` },
    })
    await w.api.idle()
    const done = (await call(w.api, w.tokens.rita, 'GET', `${w.base}/${res.body.id}`)).body
    expect(done).toMatchObject({
      status: 'completed',
      result: { space: expect.any(String), revision: expect.any(String), language: 'fr' },
      permissions: { view: true, edit: false },
    })
    const list = await call(w.api, w.tokens.rita, 'GET', `${w.base}?limit=1`)
    expect(list.body).toMatchObject({ count: 1, items: [{ id: res.body.id }] })
  })

  it('keeps the instructions given, and PUT replaces them (the same ones change nothing)', async () => {
    const w = await setup()
    const created = (
      await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'de', source: { space: w.space.id, language: 'en' }, instructions: doc('Be formal.') })
    ).body
    expect(created.instructions).toEqual(doc('Be formal.'))
    w.clock.advance(1000)
    const same = await call(w.api, w.tokens.ada, 'PUT', `${w.base}/${created.id}`, { instructions: doc('Be formal.') })
    expect(same.status).toBe(200)
    expect(same.body.updatedAt).toBe(created.updatedAt)
    const changed = await call(w.api, w.tokens.ada, 'PUT', `${w.base}/${created.id}`, { instructions: doc('Use "du".') })
    expect(changed.body).toMatchObject({ instructions: doc('Use "du".'), updatedAt: '2026-03-01T10:00:01.000Z' })
  })

  it('lists in creation order, page by page', async () => {
    const w = await setup()
    const ids: string[] = []
    for (const language of ['fr', 'de', 'es'])
      ids.push((await call(w.api, w.tokens.ada, 'POST', w.base, { language, source: { space: w.space.id, language: 'en' } })).body.id)
    const first = (await call(w.api, w.tokens.ada, 'GET', `${w.base}?limit=2`)).body
    expect(first.items.map((t: { id: string }) => t.id)).toEqual(ids.slice(0, 2))
    expect(first.count).toBe(3)
    const second = (await call(w.api, w.tokens.ada, 'GET', `${w.base}?limit=2&page=${first.next.page}`)).body
    expect(second.items.map((t: { id: string }) => t.id)).toEqual([ids[2]])
    expect(second.next).toBeUndefined()
  })

  it('refuses bad bodies with a 400 naming the field and the rule, and writes nothing', async () => {
    const w = await setup()
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
    const foreign = await w.api.fixtures.createSpace(other.id, { title: 'Foreign' })
    const trashed = await w.api.fixtures.createSpace(w.org.id, { title: 'Trashed' })
    await w.api.fixtures.deleteSpace(trashed.id)
    await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })
    await w.api.idle()
    const before = w.api.dump()
    const cases: Array<[unknown, number, string]> = [
      [undefined, 400, 'body'],
      [{ source: { space: w.space.id, language: 'en' } }, 400, 'body field `language`'],
      [{ language: 'klingon', source: { space: w.space.id, language: 'en' } }, 400, 'body field `language`'],
      [{ language: 'fr' }, 400, 'body field `source`'],
      [{ language: 'fr', source: { space: w.space.id } }, 400, 'body field `source.language`'],
      [{ language: 'fr', source: { space: '', language: 'en' } }, 400, 'body field `source.space`: must not be empty'],
      [{ language: 'de', source: { space: 'nope', language: 'en' } }, 400, 'body field `source.space`: no space "nope" in this organization'],
      [{ language: 'de', source: { space: foreign.id, language: 'en' } }, 400, `no space "${foreign.id}" in this organization`],
      [{ language: 'de', source: { space: trashed.id, language: 'en' } }, 400, `no space "${trashed.id}" in this organization`],
      [{ language: 'en', source: { space: w.space.id, language: 'en' } }, 400, 'body field `language`: must differ from `source.language`'],
      [{ language: 'de', source: { space: w.space.id, language: 'en' }, instructions: { object: 'document' } }, 400, 'body field `instructions'],
      [{ language: 'fr', source: { space: w.space.id, language: 'en' } }, 409, 'already has a translation into "fr"'],
    ]
    for (const [body, status, message] of cases) {
      expectError(await call(w.api, w.tokens.ada, 'POST', w.base, body), status, message)
      expect(w.api.dump()).toEqual(before)
    }
    const id = (await call(w.api, w.tokens.ada, 'GET', w.base)).body.items[0].id
    for (const body of [undefined, {}, { instructions: 'text' }, { instructions: { object: 'document', data: {}, nodes: [{ object: 'block' }] } }]) {
      const res = await call(w.api, w.tokens.ada, 'PUT', `${w.base}/${id}`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.message).toMatch(/body/)
    }
    expect(w.api.dump()).toEqual(before)
    expectError(await call(w.api, w.tokens.ada, 'GET', `${w.base}?limit=x`), 400, 'query parameter `limit`')
  })

  it("answers 404 for a translation that does not exist or is another organization's; delete is 205, then 204", async () => {
    const w = await setup()
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
    const otherSpace = await w.api.fixtures.createSpace(other.id, { title: 'Theirs' })
    const theirs = (
      await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${other.id}/translations`, { language: 'it', source: { space: otherSpace.id, language: 'en' } })
    ).body
    const mine = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'it', source: { space: w.space.id, language: 'en' } })).body
    await w.api.idle()
    const before = w.api.dump()
    for (const id of ['nope', theirs.id]) {
      expectError(await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`), 404, 'Translation not found')
      expectError(await call(w.api, w.tokens.ada, 'PUT', `${w.base}/${id}`, { instructions: doc('x') }), 404, 'Translation not found')
      expectError(await call(w.api, w.tokens.ada, 'POST', `${w.base}/${id}/run`), 404, 'Translation not found')
      expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/${id}`)).status).toBe(204)
    }
    expect(w.api.dump()).toEqual(before)
    const resultSpace = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${mine.id}`)).body.result.space
    expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/${mine.id}`)).status).toBe(205)
    expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/${mine.id}`)).status).toBe(204)
    expectError(await call(w.api, w.tokens.ada, 'GET', `${w.base}/${mine.id}`), 404, 'Translation not found')
    // The result space stays, a space of its own.
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${resultSpace}`)).status).toBe(200)
  })

  it('readers read; only `create` and above change; guests get 403, outsiders 404, no token 401; nothing is written', async () => {
    const w = await setup()
    const id = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })).body.id
    await w.api.idle()
    const editor = await w.api.fixtures.createUser({ displayName: 'Eddie', email: 'eddie@acme.test' })
    await w.api.fixtures.addMember(w.org.id, editor.id, 'edit')
    const eddie = await w.api.fixtures.createToken(editor.id)
    const before = w.api.dump()
    const writes: Array<[string, string, unknown]> = [
      ['POST', w.base, { language: 'de', source: { space: w.space.id, language: 'en' } }],
      ['PUT', `${w.base}/${id}`, { instructions: doc('x') }],
      ['DELETE', `${w.base}/${id}`, undefined],
      ['POST', `${w.base}/${id}/run`, undefined],
    ]
    for (const [method, path, body] of writes) {
      for (const token of [w.tokens.rita, eddie])
        expectError(await call(w.api, token, method, path, body), 403, 'You need the create role on this organization')
      expectError(await call(w.api, w.tokens.gina, method, path, body), 403, 'You need the create role')
      expectError(await call(w.api, w.tokens.olga, method, path, body), 404, 'Organization not found')
      expectError(await call(w.api, undefined, method, path, body), 401, '')
    }
    for (const path of [w.base, `${w.base}/${id}`]) {
      expect((await call(w.api, w.tokens.rita, 'GET', path)).status).toBe(200)
      expectError(await call(w.api, w.tokens.gina, 'GET', path), 403, 'You need the read role on this organization')
      expectError(await call(w.api, w.tokens.olga, 'GET', path), 404, 'Organization not found')
      expectError(await call(w.api, undefined, 'GET', path), 401, '')
    }
    await w.api.idle()
    expect(w.api.dump()).toEqual(before)
  })
})

describe('translations: runs', () => {
  it('pending → running → completed; the result space gets the translated content as a new revision, page ids kept; stats exact', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const calls: Array<[string, string]> = []
    let clock!: ReturnType<typeof createClock>
    const w = await setup({
      translate: async (text, context) => {
        calls.push([text, context.kind])
        await gate
        clock.advance(1000)
        return text.toUpperCase()
      },
    })
    clock = w.clock
    const source = JSON.stringify(await pagesOf(w.api, w.tokens.ada, w.space.id))
    const sourceRows = w.api.store.read((tx) => tx.get('spaces', w.space.id))
    const created = (
      await call(w.api, w.tokens.ada, 'POST', w.base, {
        language: 'fr',
        source: { space: w.space.id, language: 'en' },
        instructions: doc('Keep product names.'),
      })
    ).body
    expect(created.status).toBe('pending')
    await new Promise((r) => setTimeout(r, 10))
    const running = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${created.id}`)).body
    expect(running.status).toBe('running')
    expect(running.result).toBeUndefined()
    release()
    await w.api.idle()
    const done = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${created.id}`)).body
    // Words: "Welcome" 1 + "Hello bold world, see ." 4 + "first item" 2 + "second item" 2 + "Next steps" 2 + "Read the guide." 3.
    expect(done).toMatchObject({
      status: 'completed',
      stats: { runs: 1, totalWords: 14, totalPages: 2, totalDuration: 6, latestRunDuration: 6, latestPages: 2, latestWords: 14 },
      updatedAt: '2026-03-01T10:00:06.000Z',
      result: { language: 'fr' },
    })
    expect(done.lastRunError).toBeUndefined()
    // One call per title and text block; a block in several runs goes once, tagged; inline code is kept out.
    expect(calls).toEqual([
      ['Welcome', 'title'],
      ['<1>Hello </1><2>bold</2><3> world, see </3><4>.</4>', 'block'],
      ['first item', 'block'],
      ['second item', 'block'],
      ['Next steps', 'title'],
      ['Read the guide.', 'block'],
    ])
    const sourcePages = await pagesOf(w.api, w.tokens.ada, w.space.id)
    const result = await pagesOf(w.api, w.tokens.ada, done.result.space)
    expect(result).toEqual([
      [sourcePages[0]![0], 'WELCOME', 'HELLO **BOLD** WORLD, SEE `npm install`.\n\n- FIRST ITEM\n- SECOND ITEM'],
      [sourcePages[1]![0], 'NEXT STEPS', 'READ THE GUIDE.'],
    ])
    const space = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${done.result.space}`)).body
    expect(space).toMatchObject({ title: 'Handbook (fr)', language: 'fr', organization: w.org.id, revision: done.result.revision })
    // The source is never changed.
    expect(JSON.stringify(sourcePages)).toBe(source)
    expect(w.api.store.read((tx) => tx.get('spaces', w.space.id))).toBe(sourceRows)
  })

  it('a later run translates only new and changed pages into a new revision of the same space; totals add up', async () => {
    const w = await setup({ translate: upper })
    const id = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })).body.id
    await w.api.idle()
    const first = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    const pages = await pagesOf(w.api, w.tokens.ada, w.space.id)

    // Nothing changed: the run reuses everything and writes no revision.
    expect((await call(w.api, w.tokens.ada, 'POST', `${w.base}/${id}/run`)).status).toBe(204)
    await w.api.idle()
    const second = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    expect(second.result).toEqual(first.result)
    expect(second.stats).toEqual({ ...first.stats, runs: 2, latestPages: 0, latestWords: 0, latestRunDuration: 0 })

    // One page edited, one added, a subpage moved to the root: two pages go to the translator.
    await edit(w.api, w.tokens.ada, w.space.id, [
      { operation: 'update_page', page: pages[1]![0], title: 'Next steps', document: { markdown: 'Read the new guide.' } },
      { operation: 'insert_page', title: 'FAQ', document: { markdown: 'Ask away.' } },
    ])
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/${id}/run`)
    await w.api.idle()
    const third = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    // "Next steps" 2 + "Read the new guide." 4, "FAQ" 1 + "Ask away." 2.
    expect(third.stats).toEqual({ runs: 3, totalWords: 14 + 9, totalPages: 3, totalDuration: 0, latestRunDuration: 0, latestPages: 2, latestWords: 9 })
    expect(third.result.space).toBe(first.result.space)
    expect(third.result.revision).not.toBe(first.result.revision)
    const result = await pagesOf(w.api, w.tokens.ada, third.result.space)
    const now = await pagesOf(w.api, w.tokens.ada, w.space.id)
    expect(result.map(([id, title]) => [id, title])).toEqual(now.map(([id, title]) => [id, title.toUpperCase()]))
    expect(result[1]![2]).toBe('READ THE NEW GUIDE.')
    // The new revision's parent is the previous result.
    const revision = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${third.result.space}/revisions/${third.result.revision}`)).body
    expect(revision.parents).toEqual([first.result.revision])

    // A page deleted from the source leaves the result.
    await edit(w.api, w.tokens.ada, w.space.id, [{ operation: 'delete_page', page: now[2]!.at(0) }])
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/${id}/run`)
    await w.api.idle()
    const fourth = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    expect((await pagesOf(w.api, w.tokens.ada, fourth.result.space)).map(([, title]) => title)).toEqual(['WELCOME', 'NEXT STEPS'])
    expect(fourth.stats).toMatchObject({ runs: 4, totalPages: 3, latestPages: 0 })
  })

  it('new instructions translate every page again, and reach the translator as markdown', async () => {
    const seen: string[] = []
    const w = await setup({ translate: (text, { instructions }) => (seen.push(instructions), text.toUpperCase()) })
    const id = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })).body.id
    await w.api.idle()
    expect(new Set(seen)).toEqual(new Set(['']))
    const bold = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [
            {
              object: 'text',
              leaves: [
                { object: 'leaf', text: 'Say ', marks: [] },
                { object: 'leaf', text: 'tu', marks: [{ object: 'mark', type: 'bold' }] },
              ],
            },
          ],
        },
      ],
    }
    await call(w.api, w.tokens.ada, 'PUT', `${w.base}/${id}`, { instructions: bold })
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/${id}/run`)
    await w.api.idle()
    expect(seen.at(-1)).toBe('Say **tu**')
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body.stats).toMatchObject({
      runs: 2,
      latestPages: 2,
      latestWords: 14,
      totalWords: 28,
      totalPages: 2,
    })
  })

  it('without a translator, a run copies the text and counts nothing as translated', async () => {
    const w = await setup()
    const id = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'ja', source: { space: w.space.id, language: 'en' } })).body.id
    await w.api.idle()
    const done = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    expect(done.stats).toEqual({ runs: 1, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 })
    expect(await pagesOf(w.api, w.tokens.ada, done.result.space)).toEqual(await pagesOf(w.api, w.tokens.ada, w.space.id))
  })

  it('a translator that loses the tags gets the runs one by one; words are counted by the source language', async () => {
    const calls: string[] = []
    const w = await setup({ translate: (text) => (calls.push(text), text.replace(/<\/?\d+>/g, '').toUpperCase()) })
    const id = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })).body.id
    await w.api.idle()
    expect(calls.slice(1, 6)).toEqual(['<1>Hello </1><2>bold</2><3> world, see </3><4>.</4>', 'Hello ', 'bold', ' world, see ', '.'])
    const done = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    expect((await pagesOf(w.api, w.tokens.ada, done.result.space))[0]![2]).toContain('HELLO **BOLD** WORLD, SEE `npm install`.')
    const { countWords } = await import('../../../src/domains/translations/translate-document.js')
    expect(countWords('東京は日本の首都です', 'ja')).toBeGreaterThan(1)
    expect(countWords('Hello, world: 2 words!', 'en')).toBe(4)
  })

  it('copies the files the pages use into the result space and points the pages at the copies', async () => {
    const w = await setup({ translate: upper })
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
    await edit(w.api, w.tokens.ada, w.space.id, [
      { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: png, ref: 'dot' }] },
      { operation: 'insert_page', title: 'Picture', document: { markdown: '![a dot](./dot)' } },
    ])
    const id = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })).body.id
    await w.api.idle()
    const { result } = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    const sourceFiles = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/content/files`)).body.items
    const files = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${result.space}/content/files`)).body.items
    expect(files).toHaveLength(1)
    expect(files[0].id).not.toBe(sourceFiles[0].id)
    const picture = (await pagesOf(w.api, w.tokens.ada, result.space)).find(([, title]) => title === 'PICTURE')!
    const page = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${result.space}/content/page/${picture[0]}`)).body
    expect(JSON.stringify(page.document)).toContain(files[0].id)
    expect(JSON.stringify(page.document)).not.toContain(sourceFiles[0].id)
    // A later run keeps the same copy.
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/${id}/run`)
    await w.api.idle()
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${result.space}/content/files`)).body.items.map((f: { id: string }) => f.id)).toEqual([
      files[0].id,
    ])
  })

  it('a failing translator is recorded on the translation (lastRunError, completed, no result); the next good run clears it', async () => {
    let fail = true
    const w = await setup({ translate: (text) => (fail ? Promise.reject(new Error('quota exceeded')) : text.toUpperCase()) })
    const id = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })).body.id
    await w.api.idle()
    const failed = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    expect(failed).toMatchObject({ status: 'completed', lastRunError: { message: 'quota exceeded', at: '2026-03-01T10:00:00.000Z' }, stats: { runs: 0 } })
    expect(failed.result).toBeUndefined()
    expect(w.api.store.read((tx) => tx.all('spaces')).map((s) => s.title)).not.toContain('Handbook (fr)')
    fail = false
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/${id}/run`)
    await w.api.idle()
    const fixed = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    expect(fixed.lastRunError).toBeUndefined()
    expect(fixed).toMatchObject({ status: 'completed', stats: { runs: 1, latestPages: 2 } })
  })

  it('a translator answering something else than a string fails the run, saying where', async () => {
    const w = await setup({ translate: (() => 42) as unknown as Translator })
    const id = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })).body.id
    await w.api.idle()
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body.lastRunError.message).toBe(
      'The translator answered number for the title of page "Welcome" (' +
        (await pagesOf(w.api, w.tokens.ada, w.space.id))[0]![0] +
        '): it must answer a string',
    )
  })

  it('a source space gone to the trash fails the run; a trashed result space is replaced by a new one', async () => {
    const w = await setup({ translate: upper })
    const id = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })).body.id
    await w.api.idle()
    const first = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${first.result.space}`)
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/${id}/run`)
    await w.api.idle()
    const second = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    expect(second.result.space).not.toBe(first.result.space)
    expect(second.stats).toMatchObject({ runs: 2, latestPages: 2, totalPages: 2 })
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${w.space.id}`)
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/${id}/run`)
    await w.api.idle()
    const third = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    expect(third).toMatchObject({
      status: 'completed',
      result: second.result,
      lastRunError: { message: `The source space "${w.space.id}" is no longer a live space of this organization` },
    })
  })

  it('a translation deleted during its run writes nothing; a purged result space is replaced; a purged source takes its translations along', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const w = await setup({ translate: async (text) => (await gate, text) })
    const id = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })).body.id
    await new Promise((r) => setTimeout(r, 10))
    const spaces = w.api.store.read((tx) => tx.all('spaces').length)
    expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/${id}`)).status).toBe(205)
    release()
    await w.api.idle()
    expect(w.api.store.read((tx) => tx.all('spaces').length)).toBe(spaces)

    const again = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })).body.id
    await w.api.idle()
    // A purged result space: the translation loses its result, and its next run makes a new one.
    const first = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${again}`)).body.result.space
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${first}`)
    w.clock.advance(8 * 24 * 3600 * 1000)
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${first}/restore`)
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/${again}`)).body.result).toBeUndefined()
    await call(w.api, w.tokens.ada, 'POST', `${w.base}/${again}/run`)
    await w.api.idle()
    const renewed = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${again}`)).body
    expect(renewed.result.space).not.toBe(first)
    expect(renewed.stats).toMatchObject({ runs: 2, latestPages: 2 })
    await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${w.space.id}`)
    w.clock.advance(8 * 24 * 3600 * 1000)
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/restore`)
    expectError(await call(w.api, w.tokens.ada, 'GET', `${w.base}/${again}`), 404, 'Translation not found')
  })

  it('a run asked for while one runs takes over: the older run writes nothing, the status follows the newer', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    let held = false
    // The first call of the first run waits for the gate; every other call answers at once.
    const w = await setup({ translate: async (text) => (held ? text.toUpperCase() : ((held = true), await gate, `old ${text}`)) })
    const id = (await call(w.api, w.tokens.ada, 'POST', w.base, { language: 'fr', source: { space: w.space.id, language: 'en' } })).body.id
    await new Promise((r) => setTimeout(r, 10))
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body.status).toBe('running')
    expect((await call(w.api, w.tokens.ada, 'POST', `${w.base}/${id}/run`)).status).toBe(204)
    await new Promise((r) => setTimeout(r, 10))
    const newer = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    expect(newer).toMatchObject({ status: 'completed', stats: { runs: 1, latestPages: 2 } })
    release()
    await w.api.idle()
    const after = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/${id}`)).body
    expect(after).toEqual(newer)
    expect((await pagesOf(w.api, w.tokens.ada, after.result.space)).map(([, title]) => title)).toEqual(['WELCOME', 'NEXT STEPS'])
  })
})
