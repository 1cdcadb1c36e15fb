import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect } from 'vitest'
import { loadOfficialSpec } from './official-spec.js'

/**
 * Validation of values against a component schema of the official OpenAPI document
 * (`components.schemas.<name>`), with the same ajv setup as conformance/official.ts (no relaxation but the one reading of test/official-spec.ts).
 */
const spec = loadOfficialSpec()

function officialAjv(allErrors: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors, validateFormats: true })
  ;(addFormats as unknown as (a: Ajv2020) => void)(ajv)
  // Formats the official document uses beyond JSON Schema's own.
  ajv.addFormat('emoji', true)
  ajv.addFormat('icon', true)
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 })
  ajv.addSchema(spec)
  return ajv
}

// The same schemas twice: `allErrors` only changes the report, but with it every branch of the
// document's nested oneOfs is walked to the bottom (exponential in nesting depth), so the verdict
// comes from the fast instance and the full report only for a value that fails.
const fast = officialAjv(false)
const full = officialAjv(true)

const validator = (ajv: Ajv2020, ref: string) => ajv.getSchema(ref) ?? ajv.compile({ $ref: ref })

/** Whether `value` matches the official component schema `name`, and the errors when not. */
export function officialSchemaErrors(name: string, value: unknown): string | undefined {
  const ref = `openapi.json#/components/schemas/${name}`
  if (validator(fast, ref)(value)) return undefined
  const validate = validator(full, ref)
  validate(value)
  return full.errorsText(validate.errors, { separator: '\n' })
}

/** Assert that `value` matches the official component schema `name` (JSONDocument, say). */
export function expectOfficialSchema(name: string, value: unknown): void {
  const errors = officialSchemaErrors(name, value)
  expect(errors, `value does not match the official ${name} schema:\n${errors}\n${JSON.stringify(value, null, 2).slice(0, 2000)}`).toBeUndefined()
}
