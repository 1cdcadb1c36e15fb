import { GitBookAPI, GitBookAPIError, TranslationLanguage } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { sequentialIds } from '../../src/testing.js'
import { BASE, call, createWorld } from '../helpers.js'
import { expectOfficialError, expectOfficialResponse } from './official.js'

/**
 * Every translation operation through the official client (`@gitbook/api`, `serviceBinding` to
 * `api.fetch`), each answer checked against the official schema of its operation, before and
 * after a run (with a translator that uppercases).
 */
async function setup() {
  const w = await createWorld()
  const api = createDocsApi({ baseUrl: BASE, now: w.clock.now, ids: sequentialIds('t'), seed: w.api.dump(), translate: (text) => text.toUpperCase() })
  const space = await api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const cr = (await call(api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests`, {})).body
  await call(api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello *world*.' } }],
  })
  await call(api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)
  const client = (token: string) => new GitBookAPI({ endpoint: BASE, authToken: token, serviceBinding: { fetch: api.fetch } })
  return { ...w, api, space, gb: client(w.tokens.ada), reader: client(w.tokens.rita) }
}

const instructions = {
  object: 'document' as const,
  data: {},
  nodes: [
    {
      object: 'block' as const,
      type: 'paragraph' as const,
      nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: 'Keep it short.', marks: [] }] }],
    },
  ],
}

describe('conformance: translations through @gitbook/api', () => {
  it('create, get, list, update, run, delete', async () => {
    const w = await setup()
    const created = await w.gb.orgs.createTranslation(w.org.id, {
      language: TranslationLanguage.Fr,
      source: { space: w.space.id, language: TranslationLanguage.En },
    })
    expect(created.status).toBe(201)
    expectOfficialResponse('createTranslation', 201, created.data)
    expect(created.data.status).toBe('pending')
    const id = created.data.id

    const pending = await w.reader.orgs.getTranslation(w.org.id, id)
    expectOfficialResponse('getTranslation', 200, pending.data)
    await w.api.idle()
    const done = await w.reader.orgs.getTranslation(w.org.id, id)
    expectOfficialResponse('getTranslation', 200, done.data)
    expect(done.data).toMatchObject({
      status: 'completed',
      result: { language: 'fr' },
      stats: { runs: 1, latestPages: 1, latestWords: 3 },
      permissions: { view: true, edit: false },
    })

    const list = await w.gb.orgs.listTranslations(w.org.id, { limit: 10 })
    expectOfficialResponse('listTranslations', 200, list.data)
    expect(list.data.items.map((t) => t.id)).toEqual([id])

    const updated = await w.gb.orgs.updateTranslation(w.org.id, id, { instructions })
    expectOfficialResponse('updateTranslation', 200, updated.data)
    expect(updated.data.instructions).toEqual(instructions)

    const run = await w.gb.orgs.runTranslation(w.org.id, id)
    expect(run.status).toBe(204)
    expectOfficialResponse('runTranslation', 204, undefined)
    await w.api.idle()
    const again = await w.gb.orgs.getTranslation(w.org.id, id)
    expectOfficialResponse('getTranslation', 200, again.data)
    expect(again.data.stats).toMatchObject({ runs: 2, latestPages: 1, totalWords: 6, totalPages: 1 })

    const deleted = await w.gb.orgs.deleteTranslation(w.org.id, id)
    expect(deleted.status).toBe(205)
    expect((await w.gb.orgs.deleteTranslation(w.org.id, id)).status).toBe(204)
  })

  it('errors reach the client with the official error bodies', async () => {
    const w = await setup()
    const body = { language: TranslationLanguage.Fr, source: { space: w.space.id, language: TranslationLanguage.En } }
    const failures: Array<[() => Promise<unknown>, string, string, string, unknown, number]> = [
      [() => w.gb.orgs.getTranslation(w.org.id, 'nope'), w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/translations/nope`, undefined, 404],
      [() => w.gb.orgs.runTranslation(w.org.id, 'nope'), w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/translations/nope/run`, undefined, 404],
      [
        () => w.gb.orgs.createTranslation(w.org.id, { ...body, source: { space: 'nope', language: TranslationLanguage.En } }),
        w.tokens.ada,
        'POST',
        `/v1/orgs/${w.org.id}/translations`,
        { ...body, source: { space: 'nope', language: TranslationLanguage.En } },
        400,
      ],
      [() => w.reader.orgs.createTranslation(w.org.id, body), w.tokens.rita, 'POST', `/v1/orgs/${w.org.id}/translations`, body, 403],
    ]
    for (const [request, token, method, path, json, status] of failures) {
      const error = await request().then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(GitBookAPIError)
      expect((error as GitBookAPIError).code).toBe(status)
      const res = await call(w.api, token, method, path, json)
      expect(res.status).toBe(status)
      expectOfficialError(status, res.body)
    }
  })
})
