import { validate } from '@readme/openapi-parser'
import { parseDocument } from 'yaml'
import { createLocator } from './error-location.js'

/**
 * Reading and checking an OpenAPI document. The text is parsed with `yaml` (JSON is YAML too, so
 * one parser reads both and reports the line and column of a mistake); the document is then
 * checked by @readme/openapi-parser (Swagger 2.0, OpenAPI 3.0 and 3.1): against the
 * specification's JSON schema, the rules the schema cannot say (unique operationIds, path
 * parameters declared...), and every `$ref` inside the document resolved.
 *
 * The parser would follow `$ref`s to other files and URLs with its own file system and HTTP
 * client; that is turned off (`resolve.external: false`), so it never reaches a disk or the
 * network from here, and a reference outside the document is reported as one that cannot be
 * resolved: a spec is processed as one self-contained document.
 */
export interface ProcessError {
  message: string
  code?: string
}

export type Checked = { ok: true; format: 'json' | 'yaml' } | { ok: false; errors: ProcessError[] }

/** JSON when the text opens like a JSON object or array, YAML otherwise (the raw content's `format`). */
export function formatOf(text: string): 'json' | 'yaml' {
  return /^\s*[{[]/.test(text) ? 'json' : 'yaml'
}

/** The document of a spec's text, or the parse errors (with line and column). */
export function readSpecText(text: string): { document: unknown } | { errors: ProcessError[] } {
  // Aliases are expanded by the parser: a small bound keeps a "billion laughs" text from growing huge.
  const doc = parseDocument(text, { uniqueKeys: true })
  // The first line of a message says what and where (`... at line 3, column 1`); the rest is a code frame.
  if (doc.errors.length > 0) return { errors: doc.errors.map((e) => ({ message: e.message.split('\n')[0]!.replace(/:$/, ''), code: `YAML_${e.code}` })) }
  try {
    return { document: doc.toJS({ maxAliasCount: 1000 }) }
  } catch (error) {
    return { errors: [{ message: (error as Error).message, code: 'YAML_ERROR' }] }
  }
}

/** `$ref`s that point outside the document (`other.yaml#/Pet`, `https://...`), with where they are. */
function externalRefs(value: unknown, path: string, out: ProcessError[]): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => externalRefs(v, `${path}/${i}`, out))
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const here = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`
      if (key === '$ref' && typeof v === 'string' && !v.startsWith('#')) {
        out.push({ message: `Unresolved $ref "${v}" at ${path || '/'}: only references inside the document (#/...) are resolved`, code: 'UNRESOLVED_REF' })
      } else externalRefs(v, here, out)
    }
  }
}

/** Parse and validate a spec's text: its format when it is a valid OpenAPI document, else what is wrong. */
export async function checkSpecText(text: string): Promise<Checked> {
  const read = readSpecText(text)
  if ('errors' in read) return { ok: false, errors: read.errors }
  const document = read.document
  if (!document || typeof document !== 'object' || Array.isArray(document)) {
    return { ok: false, errors: [{ message: 'The document is not an object: an OpenAPI document is a JSON or YAML object', code: 'NOT_AN_OBJECT' }] }
  }
  const errors: ProcessError[] = []
  externalRefs(document, '', errors)
  // Schema errors come with a code frame instead of a place: error-location.ts finds the node.
  const located = createLocator(document)
  try {
    const result = await validate(structuredClone(document) as never, { resolve: { external: false }, validate: { errors: { colorize: false } } })
    if (!result.valid) errors.push(...result.errors.map((e) => located(e.message)))
  } catch (error) {
    errors.push(located(error instanceof Error ? error.message : String(error)))
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, format: formatOf(text) }
}
