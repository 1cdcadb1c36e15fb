import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect } from 'vitest'
import { loadOfficialSpec } from '../official-spec.js'

/**
 * Validation of response bodies against the official OpenAPI document shipped in
 * `@gitbook/api/spec/openapi.json`. No relaxation: the official schemas are used as they are, but for the one reading of
 * test/official-spec.ts (PlainObject).
 */
const spec = loadOfficialSpec()

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
;(addFormats as unknown as (a: Ajv2020) => void)(ajv)
// Formats the official document uses beyond JSON Schema's own.
ajv.addFormat('emoji', true)
ajv.addFormat('icon', true)
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 })
ajv.addSchema(spec)

const byOperation = new Map<string, { path: string; method: string }>()
for (const [path, item] of Object.entries<any>(spec.paths)) {
  for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
    if (item[method]?.operationId) byOperation.set(item[method].operationId, { path, method })
  }
}

const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1')

/** Whether the official document has this operation. */
export function hasOfficialOperation(operationId: string): boolean {
  return byOperation.has(operationId)
}

/** The official response schema of an operation for a status (undefined when it declares no body). */
export function officialResponseRef(operationId: string, status: number): string | undefined {
  const op = byOperation.get(operationId)
  if (!op) throw new Error(`The official document has no operation ${operationId}`)
  const response = spec.paths[op.path][op.method].responses[String(status)]
  if (!response) throw new Error(`${operationId} declares no ${status} response`)
  const resolved = response.$ref ? spec.components.responses[response.$ref.split('/').pop()] : response
  if (!resolved.content?.['application/json']) return undefined
  if (response.$ref) return `openapi.json#/components/responses/${pointer(response.$ref.split('/').pop())}/content/application~1json/schema`
  return `openapi.json#/paths/${pointer(op.path)}/${op.method}/responses/${status}/content/application~1json/schema`
}

/** Assert that `body` matches the official response schema of `operationId` for `status`. */
export function expectOfficialResponse(operationId: string, status: number, body: unknown): void {
  const ref = officialResponseRef(operationId, status)
  if (!ref) {
    expect(body ?? undefined, `${operationId} ${status} has no body in the official document`).toBeUndefined()
    return
  }
  expectValid(ref, body, `${operationId} ${status} response`)
}

/**
 * Assert that every event of a `text/event-stream` answer matches the official schema of the
 * operation's stream (the `text/event-stream` content of its 200), and return the events' data.
 * `event: done` ends the stream (the official client stops there); `event: error` fails.
 */
export function expectOfficialEventStream(operationId: string, text: string): unknown[] {
  const op = byOperation.get(operationId)
  if (!op) throw new Error(`The official document has no operation ${operationId}`)
  expect(spec.paths[op.path][op.method].responses['200'].content['text/event-stream'], `${operationId} streams`).toBeDefined()
  const ref = `openapi.json#/paths/${pointer(op.path)}/${op.method}/responses/200/content/text~1event-stream/schema`
  const events = parseEventStream(text)
  expect(events.at(-1), 'the stream ends with `event: done`').toEqual({ event: 'done', data: {} })
  const data = events.slice(0, -1).map((e) => {
    expect(e.event, `an event of ${operationId}: ${JSON.stringify(e)}`).toBeUndefined()
    expectValid(ref, e.data, `${operationId} stream event`)
    return e.data
  })
  return data
}

/** The events of a `text/event-stream` text: each with its `event` type (if any) and its `data` as JSON. */
export function parseEventStream(text: string): Array<{ event?: string; data: unknown }> {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      let event: string | undefined
      const data: string[] = []
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7)
        else if (line.startsWith('data: ')) data.push(line.slice(6))
        else throw new Error(`not a line of an event stream: ${JSON.stringify(line)}`)
      }
      return { ...(event !== undefined && { event }), data: JSON.parse(data.join('\n')) }
    })
}

const sharedErrors: Record<number, string> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  409: 'ConflictError',
  412: 'PreconditionFailedError',
}

function expectValid(ref: string, body: unknown, what: string): void {
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref })
  const ok = validate(body)
  expect(
    ok,
    `${what} does not match the official schema:\n${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(body, null, 2).slice(0, 2000)}`,
  ).toBe(true)
}

/**
 * Assert an error body against the official document's shared error response for `status`
 * (`components/responses`, e.g. ForbiddenError for 403): for an operation that answers the status
 * without declaring it (the official document declares few error statuses per operation).
 */
export function expectOfficialError(status: number, body: unknown): void {
  const name = sharedErrors[status]
  if (!name) throw new Error(`The official document has no shared error response for ${status}`)
  expectValid(`openapi.json#/components/responses/${name}/content/application~1json/schema`, body, `${status} error body`)
}

/** Assert that `value` matches an official component schema (for shapes of operations the official document lacks). */
export function expectOfficialSchema(name: string, value: unknown): void {
  if (!spec.components.schemas[name]) throw new Error(`The official document has no schema ${name}`)
  expectValid(`openapi.json#/components/schemas/${pointer(name)}`, value, name)
}

/** `#/components/...` references resolved against the official document (one level; call again for nested ones). */
export function resolveOfficial(node: unknown): any {
  let out: any = node
  while (out && typeof out === 'object' && typeof out.$ref === 'string' && out.$ref.startsWith('#/')) {
    out = out.$ref
      .slice(2)
      .split('/')
      .reduce((at: any, key: string) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec)
  }
  return out
}

/** An official operation's path, method and definition (parameters and request body as written, with their $refs). */
export function officialOperation(operationId: string): { path: string; method: string; operation: any } | undefined {
  const op = byOperation.get(operationId)
  return op && { ...op, operation: spec.paths[op.path][op.method] }
}

/** The query parameters the official document declares on an operation, $refs resolved. */
export function officialQueryParameters(operationId: string): Array<{ name: string; schema: any; required?: boolean }> {
  const op = officialOperation(operationId)
  if (!op) return []
  const params = [...(spec.paths[op.path].parameters ?? []), ...(op.operation.parameters ?? [])].map((p: unknown) => resolveOfficial(p))
  return params.filter((p: any) => p.in === 'query').map((p: any) => ({ ...p, schema: resolveOfficial(p.schema) }))
}

const compiled = new Map<string, (value: unknown) => boolean>()

/** A validator of a node of the official document (its `#/components/...` references resolved in the document). */
export function officialValidator(node: unknown): (value: unknown) => boolean {
  const text = JSON.stringify(node).replace(/"\$ref":"#\//g, '"$ref":"openapi.json#/')
  let validate = compiled.get(text)
  if (!validate) {
    const fn = ajv.compile(JSON.parse(text))
    compiled.set(text, (validate = (value) => fn(value) as boolean))
  }
  return validate
}
