import { describe, expect, it } from 'vitest'
import { processingJob } from '../../../src/domains/openapi-specs/processing.js'
import { call, createWorld } from '../../helpers.js'
import { BROKEN_SPEC, fakeFetch, PETSTORE_JSON, PETSTORE_YAML, UNRESOLVED_REF_SPEC } from '../../fixtures/openapi.js'

const URL_OK = 'https://specs.acme.test/petstore.yaml'

/**
 * The processing job of OpenAPI specs: pending → progress → complete, on the injected clock,
 * awaited with `api.idle()`; a URL source served by a fake fetch.
 */
async function setup(routes: Record<string, string | number | 'hang' | 'network'> = {}, fetchTimeoutMs?: number) {
  const served = fakeFetch({ [URL_OK]: PETSTORE_YAML, ...routes })
  const errors: unknown[] = []
  const w = await createWorld({ fetch: served.fetch, onError: (e) => errors.push(e), ...(fetchTimeoutMs !== undefined && { openapi: { fetchTimeoutMs } }) })
  const base = `/v1/orgs/${w.org.id}/openapi`
  const get = async (slug = 'spec') => (await call(w.api, w.tokens.ada, 'GET', `${base}/${slug}`)).body
  const create = async (source: object, slug = 'spec') => (await call(w.api, w.tokens.ada, 'POST', base, { slug, source })).body
  return { ...w, served, errors, base, get, create }
}

describe('OpenAPI processing: state machine', () => {
  it('pending in the answer, progress while the source is fetched, complete on the clock of its end', async () => {
    const w = await setup()
    w.served.hold()
    const created = await w.create({ url: URL_OK })
    expect(created.processingState).toBe('pending')
    expect(created.lastProcessedAt).toBeUndefined()
    // The job takes the spec up a moment later (on a shared store, once it holds its lease and the lock).
    let state = (await w.get()).processingState
    for (let i = 0; i < 200 && state === 'pending'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5))
      state = (await w.get()).processingState
    }
    expect(state).toBe('progress')
    w.clock.advance(5 * 60_000)
    w.served.release()
    await w.api.idle()
    const done = await w.get()
    expect(done).toMatchObject({
      processingState: 'complete',
      lastProcessedAt: '2026-03-01T10:05:00.000Z',
      lastProcessedErrors: [],
      lastProcessedErrorCount: 0,
    })
    expect(done.lastProcessErrorCode).toBeUndefined()
    expect(w.api.store.read((tx) => tx.get('openapiSpecs', done.id)!.pendingSource)).toBeUndefined()
    const version = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/spec/versions/latest`)).body
    expect(version).toMatchObject({ id: done.lastVersion, createdAt: '2026-03-01T10:05:00.000Z' })
    expect(w.errors).toEqual([])
  })

  it('JSON text and OpenAPI 3.1 are processed too', async () => {
    const w = await setup()
    await w.create({ text: PETSTORE_JSON })
    await w.api.idle()
    expect(await w.get()).toMatchObject({ processingState: 'complete', lastProcessedErrors: [] })
  })

  it('a broken spec completes with PARSE_ERROR and says what is wrong; no version', async () => {
    const w = await setup()
    await w.create({ text: BROKEN_SPEC })
    await w.api.idle()
    const spec = await w.get()
    expect(spec).toMatchObject({
      processingState: 'complete',
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedAt: '2026-03-01T10:00:00.000Z',
      lastProcessedErrorCount: 2,
    })
    expect(spec.lastVersion).toBeUndefined()
    expect(spec.lastProcessedErrors.map((e: { message: string }) => e.message)).toEqual([
      expect.stringContaining("must have required property 'version'"),
      expect.stringContaining("must have required property 'description'"),
    ])
  })

  it('an unresolved $ref is named; so is a reference outside the document', async () => {
    const w = await setup()
    await w.create({ text: UNRESOLVED_REF_SPEC }, 'missing')
    await w.create({ text: PETSTORE_YAML.replace("'#/components/schemas/Pet'", "'./pet.yaml#/Pet'") }, 'external')
    await w.api.idle()
    const missing = await w.get('missing')
    expect(missing).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrorCount: 1 })
    expect(missing.lastProcessedErrors[0].message).toContain('"#/components/schemas/Dog"')
    const external = await w.get('external')
    expect(external).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR' })
    expect(external.lastProcessedErrors[0]).toEqual({
      message:
        'Unresolved $ref "./pet.yaml#/Pet" at /paths/~1pets/get/responses/200/content/application~1json/schema/items: only references inside the document (#/...) are resolved',
      code: 'UNRESOLVED_REF',
    })
    // Nothing was fetched for it: external references are not followed.
    expect(w.served.calls).toEqual([])
  })

  it('text that is not YAML, or not an object, is a PARSE_ERROR naming the line', async () => {
    const w = await setup()
    await w.create({ text: 'openapi: 3.0.3\ninfo: [unclosed' }, 'yaml')
    await w.create({ text: 'just words' }, 'words')
    await w.api.idle()
    expect((await w.get('yaml')).lastProcessedErrors[0].message).toMatch(/at line 2, column \d+/)
    expect((await w.get('words')).lastProcessedErrors[0].message).toContain('not an object')
  })

  it('a failure keeps the last good version; the next good source clears the error', async () => {
    const w = await setup()
    await w.create({ text: PETSTORE_YAML })
    await w.api.idle()
    const good = await w.get()
    w.clock.advance(1000)
    await call(w.api, w.tokens.ada, 'PUT', `${w.base}/spec`, { source: { text: BROKEN_SPEC } })
    await w.api.idle()
    expect(await w.get()).toMatchObject({ lastVersion: good.lastVersion, lastProcessErrorCode: 'PARSE_ERROR', lastProcessedAt: '2026-03-01T10:00:01.000Z' })
    await call(w.api, w.tokens.ada, 'PUT', `${w.base}/spec`, { source: { text: PETSTORE_JSON } })
    await w.api.idle()
    const again = await w.get()
    expect(again).toMatchObject({ processingState: 'complete', lastProcessedErrors: [], lastProcessedErrorCount: 0 })
    expect(again.lastProcessErrorCode).toBeUndefined()
    expect(again.lastVersion).not.toBe(good.lastVersion)
  })
})

describe('OpenAPI processing: fetching a URL source', () => {
  const cases: Array<[string, string | number | 'network', string, string]> = [
    ['a server error', 500, 'FETCH_ERROR', 'the server answered 500'],
    ['a missing document', 404, 'FETCH_ERROR', 'the server answered 404'],
    ['a network failure', 'network', 'FETCH_ERROR', 'connection refused'],
  ]
  for (const [name, route, code, message] of cases) {
    it(`${name}: ${code}`, async () => {
      const w = await setup({ 'https://specs.acme.test/bad.yaml': route })
      await w.create({ url: 'https://specs.acme.test/bad.yaml' })
      await w.api.idle()
      const spec = await w.get()
      expect(spec).toMatchObject({
        processingState: 'complete',
        lastProcessErrorCode: code,
        lastProcessedErrorCount: 1,
        sourceURL: 'https://specs.acme.test/bad.yaml',
      })
      expect(spec.lastProcessedErrors[0].message).toContain('Fetching https://specs.acme.test/bad.yaml failed')
      expect(spec.lastProcessedErrors[0].message).toContain(message)
      expect(spec.lastVersion).toBeUndefined()
      expect(w.errors).toEqual([])
    })
  }

  it('no answer within the time limit: FETCH_TIMEOUT', async () => {
    const w = await setup({ 'https://specs.acme.test/slow.yaml': 'hang' }, 50)
    await w.create({ url: 'https://specs.acme.test/slow.yaml' })
    await w.api.idle()
    const spec = await w.get()
    expect(spec).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'FETCH_TIMEOUT' })
    expect(spec.lastProcessedErrors[0].message).toContain('no answer within 50 ms')
  })

  it('a redirect to a private address is not followed: FETCH_ERROR', async () => {
    const served = fakeFetch({})
    const redirecting = (async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input) === URL_OK
        ? new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/latest' } })
        : served.fetch(input, init)) as typeof fetch
    const w = await createWorld({ fetch: redirecting })
    await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/openapi`, { slug: 'spec', source: { url: URL_OK } })
    await w.api.idle()
    const spec = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/openapi/spec`)).body
    expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR')
    expect(spec.lastProcessedErrors[0].message).toContain('169.254.169.254 is a link-local address')
    expect(served.calls).toEqual([])
  })

  it('bytes that are not UTF-8 text: PARSE_ERROR', async () => {
    const bytes = (async () => new Response(new Uint8Array([0xff, 0xfe, 0x00, 0x41]))) as unknown as typeof fetch
    const w = await createWorld({ fetch: bytes })
    await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/openapi`, { slug: 'spec', source: { url: URL_OK } })
    await w.api.idle()
    const spec = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/openapi/spec`)).body
    expect(spec).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrors: [{ message: `The document at ${URL_OK} is not UTF-8 text` }] })
  })
})

describe('OpenAPI processing: jobs that lose their spec or their source', () => {
  it('a new source while the old one is fetched: the old job writes nothing, one version from the new source', async () => {
    const w = await setup()
    w.served.hold()
    await w.create({ url: URL_OK })
    await new Promise((resolve) => setTimeout(resolve, 0))
    await call(w.api, w.tokens.ada, 'PUT', `${w.base}/spec`, { source: { text: PETSTORE_JSON } })
    // The text job ends while the URL job still waits for its answer.
    for (let i = 0; i < 200 && (await w.get()).processingState !== 'complete'; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(await w.get()).toMatchObject({ processingState: 'complete', lastProcessedErrors: [] })
    w.served.release()
    await w.api.idle()
    const versions = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/spec/versions`)).body
    expect(versions.count).toBe(1)
    expect((await call(w.api, w.tokens.ada, 'GET', `${w.base}/spec/versions/latest/content/raw`)).body).toEqual({ text: PETSTORE_JSON, format: 'json' })
    expect(await w.get()).toMatchObject({ processingState: 'complete' })
    expect((await w.get()).sourceURL).toBeUndefined()
  })

  it('a spec deleted while it is processed: nothing written, no error', async () => {
    const w = await setup()
    w.served.hold()
    await w.create({ url: URL_OK })
    expect((await call(w.api, w.tokens.ada, 'DELETE', `${w.base}/spec`)).status).toBe(204)
    w.served.release()
    await w.api.idle()
    expect(w.api.store.read((tx) => [tx.all('openapiSpecs').length, tx.all('openapiSpecVersions').length])).toEqual([0, 0])
    expect(w.errors).toEqual([])
  })

  it('a job that throws is recorded on its spec by its failed step', async () => {
    const w = await setup()
    w.served.hold()
    const created = await w.create({ url: URL_OK })
    const row = w.api.store.read((tx) => tx.get('openapiSpecs', created.id)!)
    w.api.system((ctx) => processingJob(row.id, row.run).failed!(ctx, new Error('disk on fire')))
    expect(await w.get()).toMatchObject({
      processingState: 'complete',
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedErrors: [{ message: 'Processing failed unexpectedly: disk on fire', code: 'INTERNAL' }],
    })
    // The job still running finds its spec complete and writes nothing.
    w.served.release()
    await w.api.idle()
    expect((await w.get()).lastVersion).toBeUndefined()
  })
})
