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
})
