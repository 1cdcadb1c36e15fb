import { describe, expect, it } from 'vitest'
import { processSpecText } from '../../src/domains/openapi-specs/check.js'
import { formatPath } from '../../src/domains/openapi-specs/json-path.js'
import { call, createWorld } from '../helpers.js'

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
    const errors = await errorsOf({ openapi: '3.1.0', info, paths: { '/pets': { get: { parameters: [{ name: 'q', in: 'qurey', schema: { type: 'string' } }], responses: ok } } } })
    expect(errors).toEqual([{ message: '`paths./pets.get.parameters[0].in`: must be equal to one of the allowed values: query, header, path, cookie (did you mean query?)', code: 'ENUM' }])
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
    expect(errors).toEqual([{ message: '`paths./pets.get.responses.200`: Missing $ref pointer "#/components/responses/Nope". Token "components" does not exist.', code: 'UNRESOLVED_REF' }])
  })

  it('through the API: the spec records them', async () => {
    const w = await createWorld()
    const base = `/v1/orgs/${w.org.id}/openapi`
    await call(w.api, w.tokens.ada, 'POST', base, { slug: 'spec', source: { text: JSON.stringify({ openapi: '3.0.3', info, paths: { '/pets': { get: {} } } }) } })
    await w.api.idle()
    const spec = (await call(w.api, w.tokens.ada, 'GET', `${base}/spec`)).body
    expect(spec).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrors: [{ message: "`paths./pets.get`: must have required property 'responses'", code: 'REQUIRED' }] })
  })

  it('a path is written with dots, indexes in brackets, odd keys quoted', () => {
    expect(formatPath(['paths', '/pets', 'get', 'parameters', 0, 'in'])).toBe('paths./pets.get.parameters[0].in')
    expect(formatPath(['e.f', 'g'])).toBe('["e.f"].g')
  })
})
