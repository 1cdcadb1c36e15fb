import type { ErrorObject, ValidateFunction } from 'ajv'
import { lazyModule } from '../../core/lazy.js'
import { yamlLibrary } from '../content/markdown-libs.js'
import type { Steps } from './steps.js'

/**
 * The check of a document against the JSON schema of its specification (Swagger 2.0, OpenAPI 3.0,
 * OpenAPI 3.1: the schemas and ajv options @readme/openapi-parser uses), on the document as
 * written: `$ref`s stay references, which these schemas allow wherever the specification does
 * (refs.ts checks that they resolve). The work is a walk of the document by ajv's validators, in
 * parts (`schemaErrors`).
 *
 * The validators are ajv standalone code generated at build time (scripts/spec-schemas.ts, into
 * generated/): no process compiles the schemas (each compile held the event loop ~100 ms), and ajv
 * itself is not loaded. ajv's `uniqueItems` compares each item with every other (quadratic: an
 * operation with a very long list of parameters would hold it); the generated validators call a
 * check in linear time instead (unique-items.ts).
 */

/** The generated validators, loaded when the first spec is checked (not when the package is imported). */
const validators = lazyModule("the OpenAPI specifications' validators", async () => {
  const [swagger, openapi30, openapi31] = await Promise.all([
    import('./generated/swagger.js'),
    import('./generated/openapi30.js'),
    import('./generated/openapi31.js'),
  ])
  return { swagger: swagger.default, openapi30: openapi30.default, openapi31: openapi31.default } satisfies Record<Kind, ValidateFunction>
})

/** Load what the schema check uses (the validators); once per process. */
export function loadSchemaChecks(): Promise<unknown> {
  // yaml too: a spec written in YAML is read with it (read.ts).
  return Promise.all([validators.load(), yamlLibrary.load()])
}

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

function validatorOf(kind: Kind): ValidateFunction {
  return validators.get()[kind]
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
