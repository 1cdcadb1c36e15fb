import { createSlicer } from '../../core/slices.js'
import { formatOf, nodeLimit, readDocument, type ProcessError } from './read.js'
import { checkRefs } from './refs.js'
import { checkPathKeys, checkRules, checkSecurity } from './rules.js'
import { kindOf, loadSchemaChecks, schemaErrors } from './schema-check.js'
import { chooseSchemaErrors, describeSchemaError } from './schema-errors.js'
import { runInSlices, type Steps } from './steps.js'

/**
 * Checking a spec's text, from the text to the verdict: read it (read.ts), check every `$ref`
 * resolves (refs.ts), check the document against its specification's JSON schema
 * (schema-check.ts), then the rules a schema cannot say (rules.ts). Nothing is dereferenced: the
 * work is linear in the length of the text (YAML aliases counted at their size, within a limit).
 *
 * `processSpecText` is a pure function of serializable input and output (text and options in,
 * verdict out), so it can move to a worker thread as it is. On the event loop it runs in slices
 * of `sliceMs`; what cannot yield in the middle is one library call each: yaml's composition of
 * a YAML document (the whole document), ajv's check of one entry of a big map (one path, one
 * schema).
 */

export interface ProcessOptions {
  /** How long a slice runs before the event loop gets a turn (ms). */
  sliceMs?: number
  /** How many errors are told (`errorCount` counts them all). */
  maxErrors?: number
}

export type ProcessResult = { ok: true; format: 'json' | 'yaml' } | { ok: false; errors: ProcessError[]; errorCount: number }

export const SLICE_MS = 10
export const MAX_ERRORS = 20

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

export function* checkSpec(text: string, maxErrors = MAX_ERRORS): Steps<ProcessResult> {
  const errors: ProcessError[] = []
  let errorCount = 0
  const report = (error: ProcessError) => {
    errorCount++
    if (errors.length < maxErrors) errors.push(error)
  }
  const failed = (): ProcessResult => ({ ok: false, errors, errorCount })

  const read = yield* readDocument(text)
  if ('errors' in read) {
    read.errors.forEach(report)
    return failed()
  }
  const api = read.document
  if (!isObject(api)) {
    report({ message: 'The document is not an object: an OpenAPI document is a JSON or YAML object', code: 'NOT_AN_OBJECT' })
    return failed()
  }
  const refs = yield* checkRefs(api, report)
  const kind = kindOf(api)
  if (typeof kind !== 'string') {
    report(kind)
    return failed()
  }
  // As @readme/openapi-parser does: a clearer error first stops the JSON schema's (which would say the same less clearly).
  if (checkSecurity(api, kind, refs, report).length > 0) return failed()
  const paths = checkPathKeys(api, kind)
  if (paths) {
    report(paths)
    return failed()
  }
  const found = yield* schemaErrors(kind, api)
  if (found.length > 0) {
    for (const error of yield* chooseSchemaErrors(found)) {
      errorCount++
      if (errors.length < maxErrors) errors.push(describeSchemaError(error, api))
    }
    return failed()
  }
  // The rules read the targets of `$ref`s: only once they all resolve.
  if (errorCount > 0) return failed()
  yield* checkRules(api, kind, refs, report, nodeLimit(text))
  return errorCount > 0 ? failed() : { ok: true, format: formatOf(text) }
}

/** Check a spec's text in slices of `sliceMs` (the event loop turns between them). */
export async function processSpecText(text: string, options: ProcessOptions = {}): Promise<ProcessResult> {
  await loadSchemaChecks()
  return runInSlices(checkSpec(text, options.maxErrors), createSlicer(options.sliceMs ?? SLICE_MS))
}
