import { describe, expect, it } from 'vitest'
import { processSpecText } from '../../../src/domains/openapi-specs/check.js'
import { formatPath } from '../../../src/domains/openapi-specs/json-path.js'
import { call, createWorld } from '../../helpers.js'

/**
 * Validation errors of OpenAPI specs say where: the JSON path of the node at fault, what is
 * wrong, the allowed values of an enum (and the parser's suggestion), the rule as `code`.
 */
const errorsOf = async (doc: unknown) => {
  const checked = await processSpecText(typeof doc === 'string' ? doc : JSON.stringify(doc))
  if (checked.ok) throw new Error('expected errors')
  return checked.errors
}
const info = { title: 'Pets', version: '1' }
const ok = { 200: { description: 'OK' } }

describe('OpenAPI specs: where a validation error is', () => {
  it('a missing property names the object that lacks it', async () => {
    expect(await errorsOf({ openapi: '3.0.3', info, paths: { '/pets': { get: { summary: 'List' } } } })).toEqual([
      { message: "`paths./pets.get`: must have required property 'responses'", code: 'REQUIRED' },
    ])
  })

  it('an enum error names the field, the allowed values and the suggestion', async () => {
    const errors = await errorsOf({
      openapi: '3.1.0',
      info,
      paths: { '/pets': { get: { parameters: [{ name: 'q', in: 'qurey', schema: { type: 'string' } }], responses: ok } } },
    })
    expect(errors).toEqual([
      {
        message: '`paths./pets.get.parameters[0].in`: must be equal to one of the allowed values: query, header, path, cookie (did you mean query?)',
        code: 'ENUM',
      },
    ])
    expect(await errorsOf({ swagger: '2.0', info, schemes: ['https', 'htps'], paths: {} })).toEqual([
      { message: '`schemes[1]`: must be equal to one of the allowed values: http, https, ws, wss (did you mean https?)', code: 'ENUM' },
    ])
  })

  it('types and unexpected properties are located too, after $refs and in YAML alike', async () => {
    const errors = await errorsOf(`openapi: 3.0.3
info:
  title: Pets
  version: '1'
  contact:
    email: 5
components:
  schemas:
    Pet: { type: object }
paths:
  /v1.0/pets:
    get:
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
    bogus: 1
`)
    expect(errors).toEqual([
      { message: '`info.contact.email`: must be string', code: 'TYPE' },
      { message: '`paths["/v1.0/pets"].bogus`: must NOT have additional properties', code: 'ADDITIONAL_PROPERTY' },
    ])
  })

  it('an unresolved $ref is placed where the document uses it', async () => {
    const errors = await errorsOf({ openapi: '3.0.3', info, paths: { '/pets': { get: { responses: { 200: { $ref: '#/components/responses/Nope' } } } } } })
    expect(errors).toEqual([
      {
        message: '`paths./pets.get.responses.200`: Missing $ref pointer "#/components/responses/Nope". Token "components" does not exist.',
        code: 'UNRESOLVED_REF',
      },
    ])
  })

  it('the rules a schema cannot say read what a $ref points at, one level, and keep their rule as code', async () => {
    const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } }
    // A path parameter given by $ref counts for its placeholder; an error in its target is placed there, once.
    expect(
      await processSpecText(
        JSON.stringify({
          openapi: '3.0.3',
          info,
          paths: { '/pets/{id}': { get: { parameters: [{ $ref: '#/components/parameters/Id' }], responses: ok } } },
          components: { parameters: { Id: id } },
        }),
      ),
    ).toEqual({ ok: true, format: 'json' })
    expect(
      await errorsOf({
        openapi: '3.0.3',
        info,
        paths: { '/pets/{id}': { get: { parameters: [{ $ref: '#/components/parameters/Id' }], responses: ok } } },
        components: { parameters: { Id: { ...id, required: undefined } } },
      }),
    ).toEqual([{ message: "`components.parameters.Id`: must have required property 'required'", code: 'REQUIRED' }])
    expect(
      await errorsOf({
        openapi: '3.0.3',
        info,
        paths: {
          '/a/{x}': { get: { operationId: 'same', parameters: [{ name: 'q', in: 'query', schema: { $ref: '#/components/schemas/List' } }], responses: ok } },
          '/b': { get: { operationId: 'same', parameters: [{ name: 'z', in: 'path', required: true, schema: { type: 'string' } }], responses: ok } },
        },
        components: { schemas: { List: { type: 'array' } } },
      }),
    ).toEqual([
      { message: '`/paths/a/{x}/get` is missing path parameter(s) for `{x}`.', code: 'PATH_PARAMETERS_NOT_IN_PARAMETERS' },
      { message: '`/paths/a/{x}/get/parameters/q` is an array, so it must include an `items` schema.', code: 'ARRAY_WITHOUT_ITEMS' },
      { message: 'The operationId `same` is duplicated and must be made unique.', code: 'DUPLICATE_OPERATION_ID' },
      {
        message: '`/paths/b/get` has a path parameter named `z`, but there is no corresponding `{z}` in the path string.',
        code: 'PATH_PARAMETERS_NOT_IN_PATH',
      },
    ])
    // Swagger 2.0: a required property exists through allOf (and $refs); a missing one is named.
    const definitions = { Base: { properties: { id: { type: 'string' } } }, Pet: { allOf: [{ $ref: '#/definitions/Base' }], required: ['id', 'nope'] } }
    expect(await errorsOf({ swagger: '2.0', info, paths: {}, definitions })).toEqual([
      { message: 'Property `nope` is listed as required but does not exist in `/definitions/Pet`.', code: 'UNKNOWN_REQUIRED_SCHEMA_PROPERTY' },
    ])
    expect(await errorsOf({ openapi: '3.2.0', info, paths: {} })).toEqual([
      { message: 'OpenAPI 3.2 is not supported yet: 2.0, 3.0 and 3.1 are', code: 'UNSUPPORTED_VERSION' },
    ])
    expect(await errorsOf('openapi: 3.0\ninfo: {title: T, version: "1"}\npaths: {}\n')).toEqual([{ message: '`openapi`: must be string', code: 'TYPE' }])
  })

  it('through the API: the spec records them', async () => {
    const w = await createWorld()
    const base = `/v1/orgs/${w.org.id}/openapi`
    await call(w.api, w.tokens.ada, 'POST', base, {
      slug: 'spec',
      source: { text: JSON.stringify({ openapi: '3.0.3', info, paths: { '/pets': { get: {} } } }) },
    })
    await w.api.idle()
    const spec = (await call(w.api, w.tokens.ada, 'GET', `${base}/spec`)).body
    expect(spec).toMatchObject({
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedErrors: [{ message: "`paths./pets.get`: must have required property 'responses'", code: 'REQUIRED' }],
    })
  })

  it('a path is written with dots, indexes in brackets, odd keys quoted', () => {
    expect(formatPath(['paths', '/pets', 'get', 'parameters', 0, 'in'])).toBe('paths./pets.get.parameters[0].in')
    expect(formatPath(['e.f', 'g'])).toBe('["e.f"].g')
  })
})
