import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/index.js'
import { addEditor, call, createWorld, expectError, type World } from '../../helpers.js'
import { fakeFetch, PETSTORE_JSON, PETSTORE_YAML } from '../../fixtures/openapi.js'

/** A world whose fetch serves the petstore (nothing leaves the process). */
async function setup() {
  const served = fakeFetch({ 'https://specs.acme.test/petstore.yaml': PETSTORE_YAML })
  const w = await createWorld({ fetch: served.fetch })
  const creator = await w.api.fixtures.createUser({ displayName: 'Cora Creator', email: 'cora@acme.test' })
  await w.api.fixtures.addMember(w.org.id, creator.id, 'create')
  const base = `/v1/orgs/${w.org.id}/openapi`
  return { ...w, served, base, cora: await w.api.fixtures.createToken(creator.id), editor: await addEditor(w) }
}

async function expectUnchanged(w: World, request: () => Promise<unknown>) {
  await w.api.idle()
  const before = w.api.dump()
  await request()
  await w.api.idle()
  expect(w.api.dump()).toEqual(before)
}

describe('OpenAPI specs', () => {
  it('create from text: 201 pending at once, complete after processing; get, list', async () => {
    const w = await setup()
    const res = await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'petstore', source: { text: PETSTORE_YAML } })
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe(`http://localhost:4000/v1/orgs/${w.org.id}/openapi/petstore`)
    expect(res.body).toEqual({
      object: 'openapi-spec',
      id: res.body.id,
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
      slug: 'petstore',
      processingState: 'pending',
      visibility: 'private',
      lastProcessedErrors: [],
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: { location: `http://localhost:4000/v1/orgs/${w.org.id}/openapi/petstore`, app: `http://localhost:4000/app/o/${w.org.id}/openapi/petstore` },
    })
    await w.api.idle()
    const got = await call(w.api, w.tokens.rita, 'GET', `${w.base}/petstore`)
    expect(got.body).toMatchObject({
      id: res.body.id,
      processingState: 'complete',
      lastProcessedAt: '2026-03-01T10:00:00.000Z',
      permissions: { view: true, edit: false },
    })
    expect(got.body.lastVersion).toBeDefined()
    const list = await call(w.api, w.tokens.rita, 'GET', w.base)
    expect(list.body).toEqual({ items: [got.body], count: 1 })
  })

  it('create from a URL: sourceURL kept, fetched with the fetch option', async () => {
    const w = await setup()
    const res = await call(w.api, w.cora, 'POST', w.base, { slug: 'petstore', source: { url: 'https://specs.acme.test/petstore.yaml' } })
    expect(res.body).toMatchObject({ processingState: 'pending', sourceURL: 'https://specs.acme.test/petstore.yaml' })
    await w.api.idle()
    expect(w.served.calls).toEqual(['https://specs.acme.test/petstore.yaml'])
    expect((await call(w.api, w.cora, 'GET', `${w.base}/petstore`)).body.processingState).toBe('complete')
  })

  it('a slug taken in the organization is a 409; the same slug in another organization is free', async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'petstore', source: { text: PETSTORE_YAML } })
    await expectUnchanged(w, async () =>
      expectError(
        await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'petstore', source: { text: PETSTORE_JSON } }),
        409,
        'slug "petstore" already exists',
      ),
    )
    const other = await w.api.fixtures.createOrganization({ title: 'Other', members: [{ user: w.users.ada.id, role: 'admin' }] })
    expect((await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${other.id}/openapi`, { slug: 'petstore', source: { text: PETSTORE_YAML } })).status).toBe(201)
  })

  it('PUT creates (200), then replaces the source of the same spec: a new version, the old one kept', async () => {
    const w = await setup()
    const created = await call(w.api, w.cora, 'PUT', `${w.base}/petstore`, { source: { text: PETSTORE_YAML } })
    expect(created.status).toBe(200)
    expect(created.body.processingState).toBe('pending')
    await w.api.idle()
    const first = (await call(w.api, w.cora, 'GET', `${w.base}/petstore`)).body
    w.clock.advance(60_000)
    const updated = await call(w.api, w.cora, 'PUT', `${w.base}/petstore`, { source: { url: 'https://specs.acme.test/petstore.yaml' } })
    expect(updated.body).toMatchObject({
      id: first.id,
      processingState: 'pending',
      lastVersion: first.lastVersion,
      updatedAt: '2026-03-01T10:01:00.000Z',
      sourceURL: 'https://specs.acme.test/petstore.yaml',
    })
    await w.api.idle()
    const second = (await call(w.api, w.cora, 'GET', `${w.base}/petstore`)).body
    expect(second).toMatchObject({ id: first.id, processingState: 'complete', lastProcessedAt: '2026-03-01T10:01:00.000Z' })
    expect(second.lastVersion).not.toBe(first.lastVersion)
    const versions = await call(w.api, w.cora, 'GET', `${w.base}/petstore/versions`)
    expect(versions.body.items.map((v: { id: string }) => v.id)).toEqual([first.lastVersion, second.lastVersion])
    // Back to text: the URL goes.
    expect((await call(w.api, w.cora, 'PUT', `${w.base}/petstore`, { source: { text: PETSTORE_JSON } })).body.sourceURL).toBeUndefined()
    await w.api.idle()
  })

  it('PATCH sets the visibility; a public spec has a published URL', async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'petstore', source: { text: PETSTORE_YAML } })
    await w.api.idle()
    w.clock.advance(1000)
    const pub = await call(w.api, w.cora, 'PATCH', `${w.base}/petstore`, { visibility: 'public' })
    expect(pub.status).toBe(200)
    expect(pub.body).toMatchObject({
      visibility: 'public',
      updatedAt: '2026-03-01T10:00:01.000Z',
      urls: { published: `https://docs.localhost/openapi/${w.org.id}/petstore` },
    })
    expect((await call(w.api, w.cora, 'GET', `${w.base}/petstore/versions/latest/content`)).body.urls.public).toBe(pub.body.urls.published)
    const priv = await call(w.api, w.cora, 'PATCH', `${w.base}/petstore`, { visibility: 'private' })
    expect(priv.body.urls.published).toBeUndefined()
    expect(priv.body.processingState).toBe('complete')
  })

  it('DELETE answers 204 (the reference) and removes the versions, then 204 again', async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'petstore', source: { text: PETSTORE_YAML } })
    await w.api.idle()
    expect((await call(w.api, w.cora, 'DELETE', `${w.base}/petstore`)).status).toBe(204)
    expect(w.api.store.read((tx) => [tx.all('openapiSpecs').length, tx.all('openapiSpecVersions').length])).toEqual([0, 0])
    expectError(await call(w.api, w.cora, 'GET', `${w.base}/petstore`), 404, 'OpenAPI spec not found')
    expect((await call(w.api, w.cora, 'DELETE', `${w.base}/petstore`)).status).toBe(204)
  })

  it('lists in creation order with paging', async () => {
    const w = await setup()
    for (const slug of ['a', 'b', 'c']) await call(w.api, w.tokens.ada, 'POST', w.base, { slug, source: { text: PETSTORE_YAML } })
    await w.api.idle()
    const first = await call(w.api, w.tokens.rita, 'GET', `${w.base}?limit=2`)
    expect(first.body.items.map((s: { slug: string }) => s.slug)).toEqual(['a', 'b'])
    expect(first.body.count).toBe(3)
    const rest = await call(w.api, w.tokens.rita, 'GET', `${w.base}?limit=2&page=${first.body.next.page}`)
    expect(rest.body.items.map((s: { slug: string }) => s.slug)).toEqual(['c'])
    expect(rest.body.next).toBeUndefined()
  })

  it('versions: list, latest, by id, content (the parsed document), raw (the text as given)', async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'petstore', source: { url: 'https://specs.acme.test/petstore.yaml' } })
    await w.api.idle()
    const spec = (await call(w.api, w.tokens.rita, 'GET', `${w.base}/petstore`)).body
    const v = spec.lastVersion
    const latest = await call(w.api, w.tokens.rita, 'GET', `${w.base}/petstore/versions/latest`)
    expect(latest.body).toEqual({
      object: 'openapi-spec-version',
      id: v,
      createdAt: '2026-03-01T10:00:00.000Z',
      url: 'https://specs.acme.test/petstore.yaml',
      urls: { location: `http://localhost:4000/v1/orgs/${w.org.id}/openapi/petstore/versions/${v}` },
    })
    expect((await call(w.api, w.tokens.rita, 'GET', `${w.base}/petstore/versions/${v}`)).body).toEqual(latest.body)
    const content = await call(w.api, w.tokens.rita, 'GET', `${w.base}/petstore/versions/${v}/content`)
    expect(content.body).toEqual({
      filesystem: { 'petstore.yaml': expect.objectContaining({ openapi: '3.0.3', info: { title: 'Petstore', version: '1.0.0' } }) },
      urls: { source: 'https://specs.acme.test/petstore.yaml', public: null },
    })
    expect((await call(w.api, w.tokens.rita, 'GET', `${w.base}/petstore/versions/latest/content`)).body).toEqual(content.body)
    expect((await call(w.api, w.tokens.rita, 'GET', `${w.base}/petstore/versions/latest/content/raw`)).body).toEqual({ text: PETSTORE_YAML, format: 'yaml' })
    // A text source: its version is read through the API.
    await call(w.api, w.tokens.ada, 'PUT', `${w.base}/petstore`, { source: { text: PETSTORE_JSON } })
    await w.api.idle()
    const json = (await call(w.api, w.tokens.rita, 'GET', `${w.base}/petstore/versions/latest`)).body
    expect(json.url).toBe(`http://localhost:4000/v1/orgs/${w.org.id}/openapi/petstore/versions/${json.id}/content`)
    expect((await call(w.api, w.tokens.rita, 'GET', `${w.base}/petstore/versions/latest/content/raw`)).body).toEqual({ text: PETSTORE_JSON, format: 'json' })
    expect(Object.keys((await call(w.api, w.tokens.rita, 'GET', `${w.base}/petstore/versions/latest/content`)).body.filesystem)).toEqual(['openapi.json'])
  })

  it('version reads: 404 before the first version, for an unknown id, and for a version of another spec', async () => {
    const w = await setup()
    w.served.hold()
    await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'a', source: { url: 'https://specs.acme.test/petstore.yaml' } })
    for (const path of ['latest', 'latest/content', 'latest/content/raw']) {
      expectError(await call(w.api, w.tokens.rita, 'GET', `${w.base}/a/versions/${path}`), 404, 'no processed version yet')
    }
    expect((await call(w.api, w.tokens.rita, 'GET', `${w.base}/a/versions`)).body).toEqual({ items: [], count: 0 })
    w.served.release()
    await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'b', source: { text: PETSTORE_YAML } })
    await w.api.idle()
    const ofB = (await call(w.api, w.tokens.rita, 'GET', `${w.base}/b`)).body.lastVersion
    expectError(await call(w.api, w.tokens.rita, 'GET', `${w.base}/a/versions/${ofB}`), 404, 'OpenAPI spec version not found')
    expectError(await call(w.api, w.tokens.rita, 'GET', `${w.base}/a/versions/nope/content`), 404, 'OpenAPI spec version not found')
    expectError(await call(w.api, w.tokens.rita, 'GET', `${w.base}/nope/versions`), 404, 'OpenAPI spec not found')
  })
})

describe('OpenAPI spec validation: a 400 naming the field and the rule, nothing written', () => {
  const text = { text: PETSTORE_YAML }
  const cases: Array<[string, string, string, unknown, string]> = [
    ['no slug', 'POST', '', { source: text }, 'body field `slug`'],
    ['empty slug', 'POST', '', { slug: '', source: text }, 'body field `slug`: must be at least 1 character'],
    ['long slug', 'POST', '', { slug: 'a'.repeat(101), source: text }, 'body field `slug`: must be at most 100 characters'],
    [
      'slug with a double hyphen',
      'POST',
      '',
      { slug: 'pet--store', source: text },
      'body field `slug`: must be letters and digits in groups joined by single hyphens',
    ],
    ['slug with a space', 'POST', '', { slug: 'pet store', source: text }, 'body field `slug`: must be letters and digits'],
    ['no source', 'POST', '', { slug: 'a' }, 'body field `source`'],
    ['empty source', 'POST', '', { slug: 'a', source: {} }, 'body field `source`: give `url` or `text`'],
    [
      'both url and text',
      'POST',
      '',
      { slug: 'a', source: { url: 'https://specs.acme.test/a.yaml', text: PETSTORE_YAML } },
      'body field `source`: give either `url` or `text`, not both',
    ],
    ['empty text', 'POST', '', { slug: 'a', source: { text: '' } }, 'body field `source.text`: must not be empty'],
    ['url not a URL', 'POST', '', { slug: 'a', source: { url: 'petstore.yaml' } }, 'body field `source.url`: must be a URL'],
    [
      'long url',
      'POST',
      '',
      { slug: 'a', source: { url: `https://specs.acme.test/${'a'.repeat(2040)}` } },
      'body field `source.url`: must be at most 2048 characters',
    ],
    [
      'a loopback url',
      'POST',
      '',
      { slug: 'a', source: { url: 'http://127.0.0.1:8080/spec.yaml' } },
      'body field `source.url`: 127.0.0.1 is a loopback address',
    ],
    ['a private url', 'POST', '', { slug: 'a', source: { url: 'http://10.0.0.7/spec.yaml' } }, 'body field `source.url`: 10.0.0.7 is a private address'],
    ['localhost', 'POST', '', { slug: 'a', source: { url: 'http://localhost/spec.yaml' } }, 'body field `source.url`: localhost is a local host name'],
    ['not http', 'POST', '', { slug: 'a', source: { url: 'file:///etc/passwd' } }, 'body field `source.url`: only http and https URLs can be fetched'],
    ['PUT without source', 'PUT', '/a', {}, 'body field `source`'],
    ['PUT with a bad slug', 'PUT', '/a--b', { source: text }, '`specSlug`'],
    ['PUT with a private url', 'PUT', '/a', { source: { url: 'http://192.168.1.1/spec.yaml' } }, 'body field `source.url`: 192.168.1.1 is a private address'],
    ['PATCH without visibility', 'PATCH', '/existing', {}, 'body field `visibility`'],
    ['PATCH with a bad visibility', 'PATCH', '/existing', { visibility: 'unlisted' }, 'body field `visibility`'],
  ]
  for (const [name, method, path, body, message] of cases) {
    it(name, async () => {
      const w = await setup()
      await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'existing', source: text })
      await w.api.idle()
      await expectUnchanged(w, async () => expectError(await call(w.api, w.tokens.ada, method, `${w.base}${path}`, body), 400, message))
    })
  }

  it('a body past 21 MiB (a 10 MiB spec written as a JSON string, and room for the rest) is a 413 on POST and PUT; others keep 1 MiB', async () => {
    const w = await setup()
    const send = (method: string, path: string, length: number) =>
      w.api.fetch(
        new Request(`http://localhost:4000${w.base}${path}`, {
          method,
          headers: { authorization: `Bearer ${w.tokens.ada}`, 'content-type': 'application/json', 'content-length': String(length) },
          body: '{}',
        }),
      )
    for (const [method, path] of [
      ['POST', ''],
      ['PUT', '/a'],
    ] as const) {
      const res = await send(method, path, 21 * 1024 * 1024 + 1)
      expect(res.status).toBe(413)
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe('Request body is larger than 22020096 bytes (21 MiB)')
    }
    expect((await send('PATCH', '/a', 1024 * 1024 + 1)).status).toBe(413)
  })

  it('a private URL is accepted with allowPrivateNetwork: true', async () => {
    const served = fakeFetch({ 'http://127.0.0.1:8080/spec.yaml': PETSTORE_YAML })
    const w = await createWorld({ fetch: served.fetch, allowPrivateNetwork: true })
    expect(
      (await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/openapi`, { slug: 'local', source: { url: 'http://127.0.0.1:8080/spec.yaml' } })).status,
    ).toBe(201)
    await w.api.idle()
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/openapi/local`)).body).toMatchObject({
      processingState: 'complete',
      lastProcessedErrors: [],
    })
  })
})

describe('OpenAPI spec access: readers read, creators write', () => {
  it('guests 403, outsiders 404, no token 401 on reads; readers and editors 403 on writes; nothing written', async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'petstore', source: { text: PETSTORE_YAML } })
    await w.api.idle()
    const v = (await call(w.api, w.tokens.ada, 'GET', `${w.base}/petstore`)).body.lastVersion
    const reads = [
      '',
      '/petstore',
      '/petstore/versions',
      '/petstore/versions/latest',
      '/petstore/versions/latest/content',
      '/petstore/versions/latest/content/raw',
      `/petstore/versions/${v}`,
      `/petstore/versions/${v}/content`,
    ]
    for (const path of reads) {
      expect((await call(w.api, w.tokens.rita, 'GET', `${w.base}${path}`)).status, path).toBe(200)
      expectError(await call(w.api, w.tokens.gina, 'GET', `${w.base}${path}`), 403, 'You need the read role on this organization')
      expectError(await call(w.api, w.tokens.olga, 'GET', `${w.base}${path}`), 404, 'Organization not found')
      expectError(await call(w.api, undefined, 'GET', `${w.base}${path}`), 401, '')
    }
    const writes: Array<[string, string, unknown?]> = [
      ['POST', '', { slug: 'new', source: { text: PETSTORE_YAML } }],
      ['PUT', '/petstore', { source: { text: PETSTORE_JSON } }],
      ['PUT', '/new', { source: { text: PETSTORE_JSON } }],
      ['PATCH', '/petstore', { visibility: 'public' }],
      ['DELETE', '/petstore'],
      ['DELETE', '/missing'],
    ]
    for (const [method, path, body] of writes) {
      for (const token of [w.tokens.rita, w.editor, w.tokens.gina]) {
        await expectUnchanged(w, async () =>
          expectError(await call(w.api, token, method, `${w.base}${path}`, body), 403, 'You need the create role on this organization'),
        )
      }
      await expectUnchanged(w, async () => expectError(await call(w.api, w.tokens.olga, method, `${w.base}${path}`, body), 404, 'Organization not found'))
      await expectUnchanged(w, async () => expectError(await call(w.api, undefined, method, `${w.base}${path}`, body), 401, ''))
    }
    // A URL source from a caller who may not write is refused before it is looked at.
    await expectUnchanged(w, async () =>
      expectError(await call(w.api, w.tokens.rita, 'POST', w.base, { slug: 'x', source: { url: 'http://127.0.0.1/x' } }), 403, 'create role'),
    )
    expect(w.served.calls).toEqual([])
  })

  it("permissions on a spec are the caller's", async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'petstore', source: { text: PETSTORE_YAML } })
    expect((await call(w.api, w.tokens.rita, 'GET', `${w.base}/petstore`)).body.permissions).toEqual({ view: true, edit: false })
    expect((await call(w.api, w.editor, 'GET', `${w.base}/petstore`)).body.permissions).toEqual({ view: true, edit: false })
    expect((await call(w.api, w.cora, 'GET', `${w.base}/petstore`)).body.permissions).toEqual({ view: true, edit: true })
    await w.api.idle()
  })
})

describe('OpenAPI specs in state documents', () => {
  it('a dump loads into a new API that answers the same', async () => {
    const w = await setup()
    await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'petstore', source: { text: PETSTORE_YAML } })
    await w.api.idle()
    const api = createDocsApi({ seed: w.api.dump() })
    const token = await api.fixtures.createToken(w.users.ada.id)
    for (const path of ['/petstore', '/petstore/versions', '/petstore/versions/latest/content/raw']) {
      const res = await api.fetch(new Request(`http://localhost:4000${w.base}${path}`, { headers: { authorization: `Bearer ${token}` } }))
      expect(await res.json()).toEqual((await call(w.api, w.tokens.ada, 'GET', `${w.base}${path}`)).body)
    }
  })

  it('a spec dumped while pending is processed once loaded', async () => {
    const w = await setup()
    w.served.hold()
    await call(w.api, w.tokens.ada, 'POST', w.base, { slug: 'petstore', source: { url: 'https://specs.acme.test/petstore.yaml' } })
    // The job takes the spec up a moment later (on a shared store, once it holds its lease and the lock).
    let doc = w.api.dump()
    for (let i = 0; i < 200 && doc.openapiSpecs![0]!.processingState !== 'progress'; i++) {
      await new Promise((r) => setTimeout(r, 5))
      doc = w.api.dump()
    }
    expect(doc.openapiSpecs![0]).toMatchObject({ processingState: 'progress', pendingSource: { url: 'https://specs.acme.test/petstore.yaml' } })
    w.served.release()
    await w.api.idle()
    const served = fakeFetch({ 'https://specs.acme.test/petstore.yaml': PETSTORE_YAML })
    const api = createDocsApi({ seed: doc, fetch: served.fetch })
    await api.idle()
    expect(api.store.read((tx) => tx.all('openapiSpecs')[0])).toMatchObject({ processingState: 'complete', lastProcessedErrors: [] })
    expect(served.calls).toEqual(['https://specs.acme.test/petstore.yaml'])
  })

  it('rows that break a rule are refused, naming them', async () => {
    const w = await setup()
    const doc = w.api.dump()
    const spec = { id: 's1', organization: w.org.id, slug: 'a' }
    const load = (extra: object) => () => createDocsApi({ seed: { ...doc, ...extra } })
    expect(load({ openapiSpecs: [{ ...spec, slug: 'a b' }] })).toThrow('Invalid seed: `openapiSpecs[0].slug`')
    expect(load({ openapiSpecs: [spec, { ...spec, id: 's2' }] })).toThrow('Invalid seed: `openapiSpecs[1].slug`: "a" is the slug of another spec')
    expect(load({ openapiSpecs: [{ ...spec, processingState: 'pending' }] })).toThrow(
      'Invalid seed: `openapiSpecs[0].pendingSource`: is required while the spec is pending',
    )
    expect(load({ openapiSpecs: [{ ...spec, lastVersion: 'v9' }] })).toThrow('Invalid seed: `openapiSpecs[0].lastVersion`: no version "v9" of this spec')
    expect(load({ openapiSpecs: [spec], openapiSpecVersions: [{ id: 'v1', spec: 'nope', text: 'x' }] })).toThrow('Invalid seed: `openapiSpecVersions[0].spec`')
  })
})
