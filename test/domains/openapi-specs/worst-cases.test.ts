import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { processSpecText } from '../../../src/domains/openapi-specs/check.js'
import { fakeFetch } from '../../fixtures/openapi.js'
import { aliasBombYaml, fanOutSpec, swaggerChainSpec, swaggerFanOutSpec } from '../../fixtures/openapi-worst.js'
import { call, createWorld } from '../../helpers.js'

/**
 * Hostile OpenAPI specs, generated: small texts whose full expansion is exponential ($refs that
 * each refer to every earlier schema, YAML aliases of aliases), deep nesting, long `allOf`
 * chains. A creator (role `create`) sends them through the API; each ends `complete`, valid or
 * with a PARSE_ERROR that names the limit, and never holds the server.
 */

const URL = 'https://specs.acme.test/spec'

async function setup(routes: Record<string, string> = {}) {
  const served = fakeFetch(routes)
  const w = await createWorld({ fetch: served.fetch })
  const cora = await w.api.fixtures.createUser({ displayName: 'Cora Creator', email: 'cora@acme.test' })
  await w.api.fixtures.addMember(w.org.id, cora.id, 'create')
  const token = await w.api.fixtures.createToken(cora.id)
  const base = `/v1/orgs/${w.org.id}/openapi`
  return {
    ...w,
    create: async (slug: string, source: object) => expect((await call(w.api, token, 'POST', base, { slug, source })).status).toBe(201),
    put: async (slug: string, source: object) => expect((await call(w.api, token, 'PUT', `${base}/${slug}`, { source })).status).toBe(200),
    get: async (slug: string) => (await call(w.api, token, 'GET', `${base}/${slug}`)).body,
  }
}

const json = (doc: unknown) => JSON.stringify(doc)
const yaml = (doc: unknown) => stringify(doc)

describe('OpenAPI worst cases: $refs are checked, never expanded', () => {
  const valid: Array<[string, string]> = [
    ['schemas each referring to every earlier one (n = 30), JSON', json(fanOutSpec(30))],
    ['the same in YAML', yaml(fanOutSpec(30))],
    ['through allOf (n = 30)', json(fanOutSpec(30, { allOf: true }))],
    ['used from paths, parameters, responses, headers and request bodies (n = 32), YAML', yaml(fanOutSpec(32, { places: true }))],
    ['each referring to every schema, itself included (circular, n = 30)', json(fanOutSpec(30, { circular: true }))],
    ['Swagger 2.0 definitions, each an allOf of every earlier one (n = 30)', yaml(swaggerFanOutSpec(30))],
  ]
  it('fan-outs are valid, created by a creator (role create) and processed to complete', async () => {
    const w = await setup()
    for (const [i, [, text]] of valid.entries()) await w.create(`spec-${i}`, { text })
    await w.api.idle()
    for (const [i, [name]] of valid.entries()) {
      const spec = await w.get(`spec-${i}`)
      expect(spec, name).toMatchObject({ processingState: 'complete', lastProcessedErrors: [], lastProcessedErrorCount: 0 })
      expect(spec.lastProcessErrorCode, name).toBeUndefined()
      expect(spec.lastVersion, name).toBeDefined()
    }
  })

  it('a spec updated to a larger fan-out (n = 60, from a URL) is processed too', async () => {
    const w = await setup({ [URL]: json(fanOutSpec(60, { places: true })) })
    await w.create('spec', { text: json(fanOutSpec(5)) })
    await w.api.idle()
    const first = (await w.get('spec')).lastVersion
    await w.put('spec', { url: URL })
    await w.api.idle()
    const spec = await w.get('spec')
    expect(spec).toMatchObject({ processingState: 'complete', lastProcessedErrors: [] })
    expect(spec.lastVersion).not.toBe(first)
  })

  it('one $ref that resolves nowhere in a fan-out: PARSE_ERROR, placed where it is used', async () => {
    const w = await setup()
    const doc = fanOutSpec(30) as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } }
    doc.components.schemas.S29!.properties.bad = { $ref: '#/components/schemas/Nope' }
    // A pointer through a $ref that leads back to itself resolves nowhere either.
    doc.components.schemas.Loop = { $ref: '#/components/schemas/Loop/properties/x' } as never
    await w.create('spec', { text: json(doc) })
    await w.api.idle()
    expect(await w.get('spec')).toMatchObject({
      processingState: 'complete',
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedErrorCount: 2,
      lastProcessedErrors: [
        {
          message: '`components.schemas.S29.properties.bad`: Missing $ref pointer "#/components/schemas/Nope". Token "Nope" does not exist.',
          code: 'UNRESOLVED_REF',
        },
        {
          message: '`components.schemas.Loop`: Circular $ref pointer "#/components/schemas/Loop/properties/x": it leads back to itself',
          code: 'UNRESOLVED_REF',
        },
      ],
    })
  })

  it('random graphs of $refs (fast-check): valid exactly when every $ref resolves', async () => {
    const graph = fc.record({
      n: fc.integer({ min: 2, max: 40 }),
      density: fc.double({ min: 0.3, max: 1, noNaN: true }),
      seed: fc.integer(),
      style: fc.constantFrom('properties', 'allOf', 'items'),
      dangling: fc.boolean(),
      format: fc.constantFrom('json', 'yaml'),
    })
    await fc.assert(
      fc.asyncProperty(graph, async ({ n, density, seed, style, dangling, format }) => {
        let state = seed >>> 0
        const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32
        const schemas: Record<string, unknown> = {}
        for (let i = 0; i < n; i++) {
          const refs = Array.from({ length: i }, (_, j) => j)
            .filter(() => random() < density)
            .map((j) => ({ $ref: `#/components/schemas/S${j}` }))
          if (dangling && i === n - 1) refs.push({ $ref: '#/components/schemas/Missing' })
          schemas[`S${i}`] =
            refs.length === 0
              ? { type: 'string' }
              : style === 'allOf'
                ? { allOf: refs }
                : style === 'items'
                  ? { type: 'object', properties: Object.fromEntries(refs.map((ref, k) => [`p${k}`, { type: 'array', items: ref }])) }
                  : { type: 'object', properties: Object.fromEntries(refs.map((ref, k) => [`p${k}`, ref])) }
        }
        const doc = { openapi: '3.0.3', info: { title: 'Graph', version: '1' }, paths: {}, components: { schemas } }
        const result = await processSpecText(format === 'json' ? json(doc) : yaml(doc))
        expect(result.ok).toBe(!dangling)
        if (!result.ok) expect(result.errors.map((e) => e.code)).toEqual(['UNRESOLVED_REF'])
      }),
      { numRuns: 25 },
    )
  })
})

describe('OpenAPI worst cases: past a limit, a clear PARSE_ERROR', () => {
  it('YAML aliases that expand the document too far, nesting too deep, allOf chains too long to check', async () => {
    const deepYaml = Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')
    const w = await setup()
    await w.create('laughs', { text: aliasBombYaml(40) })
    await w.create('deep-json', { text: `{"openapi": "3.0.3", "x-deep": ${'['.repeat(5000)}${']'.repeat(5000)}}` })
    await w.create('deep-yaml', { text: deepYaml })
    await w.create('chain', { text: json(swaggerChainSpec(3000)) })
    await w.api.idle()
    const errorOf = async (slug: string) => {
      const spec = await w.get(slug)
      expect(spec, slug).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrorCount: 1 })
      return spec.lastProcessedErrors[0]
    }
    expect(await errorOf('laughs')).toEqual({
      message: expect.stringMatching(
        /^The document's aliases expand it to more than \d+ nodes \(the limit for a text of this length\).* at line \d+, column \d+$/,
      ),
      code: 'YAML_ALIAS_LIMIT',
    })
    expect(await errorOf('deep-json')).toEqual({ message: 'The document nests more than 256 levels deep at line 1, column 287', code: 'YAML_TOO_DEEP' })
    expect(await errorOf('deep-yaml')).toEqual({
      message: expect.stringMatching(/^The document nests more than 256 levels deep at line 25\d, column \d+$/),
      code: 'YAML_TOO_DEEP',
    })
    expect(await errorOf('chain')).toEqual({
      message: expect.stringMatching(
        /^`\/definitions\/D\d+`: checking that required properties exist went through more than \d+ schemas and allOf entries \(the limit for a text of this length\)/,
      ),
      code: 'TOO_COMPLEX',
    })
  })
})
