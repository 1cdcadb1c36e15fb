import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { createWorld } from '../helpers.js'
import { fakeFetch, PETSTORE_JSON, PETSTORE_YAML } from '../fixtures/openapi.js'
import { expectOfficialResponse } from './official.js'

/** Every OpenAPI spec operation through the official client, each answer checked against the official schema. */
describe('conformance: OpenAPI specs through @gitbook/api', () => {
  it('create, get, list, put, patch, versions and their content, delete', async () => {
    const served = fakeFetch({ 'https://specs.acme.test/petstore.yaml': PETSTORE_YAML })
    const w = await createWorld({ fetch: served.fetch })
    const gb = w.client(w.tokens.ada)
    const org = w.org.id

    const created = await gb.orgs.createOpenApiSpec(org, { slug: 'petstore', source: { url: 'https://specs.acme.test/petstore.yaml' } })
    expect(created.status).toBe(201)
    expectOfficialResponse('createOpenAPISpec', 201, created.data)
    expect(created.data.processingState).toBe('pending')
    await w.api.idle()

    const got = await gb.orgs.getOpenApiSpecBySlug(org, 'petstore')
    expectOfficialResponse('getOpenAPISpecBySlug', 200, got.data)
    expect(got.data.processingState).toBe('complete')

    const put = await gb.orgs.createOrUpdateOpenApiSpecBySlug(org, 'petstore', { source: { text: PETSTORE_JSON } })
    expect(put.status).toBe(200)
    expectOfficialResponse('createOrUpdateOpenAPISpecBySlug', 200, put.data)
    const putNew = await gb.orgs.createOrUpdateOpenApiSpecBySlug(org, 'broken', { source: { text: 'openapi: 3.0.3\ninfo: {title: x}\npaths: {}' } })
    expectOfficialResponse('createOrUpdateOpenAPISpecBySlug', 200, putNew.data)
    await w.api.idle()
    const broken = await gb.orgs.getOpenApiSpecBySlug(org, 'broken')
    expectOfficialResponse('getOpenAPISpecBySlug', 200, broken.data)
    expect(broken.data.lastProcessErrorCode).toBe('PARSE_ERROR')

    const patched = await gb.orgs.updateOpenApiSpecBySlug(org, 'petstore', { visibility: 'public' as never })
    expectOfficialResponse('updateOpenAPISpecBySlug', 200, patched.data)
    expect(patched.data.urls.published).toBeDefined()

    const list = await gb.orgs.listOpenApiSpecs(org, { limit: 5 })
    expectOfficialResponse('listOpenAPISpecs', 200, list.data)
    expect(list.data.items.map((s) => s.slug)).toEqual(['petstore', 'broken'])

    const versions = await gb.orgs.listOpenApiSpecVersions(org, 'petstore')
    expectOfficialResponse('listOpenAPISpecVersions', 200, versions.data)
    expect(versions.data.count).toBe(2)
    const latest = await gb.orgs.getLatestOpenApiSpecVersion(org, 'petstore')
    expectOfficialResponse('getLatestOpenAPISpecVersion', 200, latest.data)
    const first = await gb.orgs.getOpenApiSpecVersionById(org, 'petstore', versions.data.items[0]!.id)
    expectOfficialResponse('getOpenAPISpecVersionById', 200, first.data)
    const content = await gb.orgs.getLatestOpenApiSpecVersionContent(org, 'petstore')
    expectOfficialResponse('getLatestOpenAPISpecVersionContent', 200, content.data)
    const firstContent = await gb.orgs.getOpenApiSpecVersionContentById(org, 'petstore', first.data.id)
    expectOfficialResponse('getOpenAPISpecVersionContentById', 200, firstContent.data)
    const raw = await gb.orgs.getLatestOpenApiSpecVersionContentRaw(org, 'petstore')
    expectOfficialResponse('getLatestOpenAPISpecVersionContentRaw', 200, raw.data)
    expect(raw.data).toEqual({ text: PETSTORE_JSON, format: 'json' })

    const deleted = await gb.orgs.deleteOpenApiSpecBySlug(org, 'petstore')
    // The official document answers 205 for an actual removal; the reference answers 204.
    expect(deleted.status).toBe(204)
    expectOfficialResponse('deleteOpenAPISpecBySlug', 204, undefined)
    expect((await gb.orgs.deleteOpenApiSpecBySlug(org, 'petstore')).status).toBe(204)
    expectOfficialResponse('deleteOpenAPISpecBySlug', 204, undefined)
  })

  it("a spec's text may be as large as a URL's (10 MiB): GitBook's own spec publishes as text, one byte more is a 400 naming `source.text`", async () => {
    const w = await createWorld()
    const gb = w.client(w.tokens.ada)
    const org = w.org.id
    // GitBook's own spec (1.2 MB of YAML), as `gitbook openapi publish` sends a file: more than the general 1 MiB body.
    const own = readFileSync(createRequire(import.meta.url).resolve('@gitbook/api/spec/openapi.yaml'), 'utf8')
    expect(own.length).toBeGreaterThan(1024 * 1024)
    const created = await gb.orgs.createOpenApiSpec(org, { slug: 'gitbook', source: { text: own } })
    expect(created.status).toBe(201)
    expectOfficialResponse('createOpenAPISpec', 201, created.data)
    await w.api.idle()
    const processed = await gb.orgs.getOpenApiSpecBySlug(org, 'gitbook')
    expect(processed.data).toMatchObject({ processingState: 'complete', lastProcessedErrors: [] })
    expect((await gb.orgs.getLatestOpenApiSpecVersionContentRaw(org, 'gitbook')).data.text).toBe(own)

    // Exactly 10 MiB, all of its padding `"` (escaped in two characters in the JSON body: the worst a YAML or JSON text gets).
    const head = 'openapi: 3.0.3\ninfo: {title: Big, version: "1"}\npaths: {}\n# '
    const big = head + '"'.repeat(10 * 1024 * 1024 - head.length)
    expect(new TextEncoder().encode(big).length).toBe(10 * 1024 * 1024)
    const put = await gb.orgs.createOrUpdateOpenApiSpecBySlug(org, 'big', { source: { text: big } })
    expect(put.status).toBe(200)
    expectOfficialResponse('createOrUpdateOpenAPISpecBySlug', 200, put.data)

    // One byte more (a two-byte character for the last quote) is refused, naming the field, and nothing changes.
    const over = `${big.slice(0, -1)}é`
    await w.api.idle()
    expect((await gb.orgs.getOpenApiSpecBySlug(org, 'big')).data).toMatchObject({ processingState: 'complete', lastProcessedErrors: [] })
    const before = w.api.dump()
    for (const send of [
      () => gb.orgs.createOpenApiSpec(org, { slug: 'over', source: { text: over } }),
      () => gb.orgs.createOrUpdateOpenApiSpecBySlug(org, 'big', { source: { text: over } }),
    ]) {
      await expect(send()).rejects.toThrow('body field `source.text`: must be at most 10485760 bytes (10 MiB) of UTF-8 text')
    }
    expect(w.api.dump()).toEqual(before)
  }, 60_000)
})
