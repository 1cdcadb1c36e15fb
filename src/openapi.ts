import { z } from 'zod'
import { POLICY } from './core/policy.js'
import { ERRORS, type ErrorCode } from './core/errors.js'
import type { OperationDef } from './core/operation.js'
import { answersBytes } from './core/binary.js'
import { ADMIN_PREFIX, ADMIN_ROUTES, ADMIN_TAG } from './http/admin.js'

/**
 * The OpenAPI 3.1 document of the API, generated from the operation table: the same entries
 * drive the router, validation and this document, so it cannot drift from what the API does.
 */

type Json = Record<string, unknown>

/** An OpenAPI 3.1 document (only the parts this generator writes are typed). */
export interface OpenApiDocument {
  openapi: '3.1.0'
  info: { title: string; version: string; description?: string }
  servers: Array<{ url: string }>
  tags: Array<{ name: string }>
  security: Array<Record<string, string[]>>
  paths: Record<string, Record<string, Json>>
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; securitySchemes: Record<string, Json> }
}

export interface OpenApiOptions {
  /**
   * Where the API is served (the `servers` entry); paths in the document start with `/v1`, but
   * for the URLs the API hands out (downloads, PDFs: `/files/...`, `/pdf/...`).
   * @default 'http://localhost:4000'
   */
  baseUrl?: string
  /** @default 'docs-content-api' */
  title?: string
  /** @default '1.0.0' */
  version?: string
  /**
   * List the control plane (`/_admin/...`, the `admin` option of `createDocsApi`) too: its own
   * tag and credential (`adminBearer`), each entry `x-beyond-official`. Off by default.
   * @default false
   */
  admin?: boolean
}

/** The body of every failed request. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.number().int().meta({ description: 'The HTTP status.' }),
      message: z.string().meta({ description: 'What went wrong; validation errors name the field and the rule.' }),
    }),
  })
  .meta({ id: 'Error', description: 'The body of every failed request.' })

const SCHEMAS = '#/components/schemas/'
const ROLES_OF = ['params', 'query', 'body', 'response'] as const

const STATUS_TEXT: Record<OperationDef['status'], string> = { 200: 'OK', 201: 'Created', 204: 'No content', 205: 'Reset content' }

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** Rewrite zod's `#/$defs/X` references (shared definitions) to components, in place. */
function rewriteRefs(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(rewriteRefs)
  if (!node || typeof node !== 'object') return
  const obj = node as Json
  if (typeof obj.$ref === 'string' && obj.$ref.startsWith('#/$defs/')) obj.$ref = SCHEMAS + obj.$ref.slice('#/$defs/'.length)
  for (const value of Object.values(obj)) rewriteRefs(value)
}

/**
 * Convert every schema of the table in one pass of `z.toJSONSchema` over a registry, so a schema
 * named with `.meta({ id })` becomes one component referenced everywhere it is used. Schemas
 * without an id get a name from their first operation (`GetSpaceByIdParams`); those referenced
 * only at the top of an operation are inlined there afterwards.
 */
function convertSchemas(operations: readonly OperationDef[]) {
  const registry = z.registry<{ id?: string }>()
  const nameOf = new Map<z.ZodType, string>()
  const generated = new Set<string>()
  const add = (schema: z.ZodType, fallback: string) => {
    if (nameOf.has(schema)) return
    const id = (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id
    // Two schemas with one `.meta` id are a bug zod reports; a generated name just steps aside.
    let name = id ?? fallback
    for (let n = 2; !id && [...nameOf.values()].includes(name); n++) name = `${fallback}${n}`
    if (!id) generated.add(name)
    nameOf.set(schema, name)
    registry.add(schema, { id: name })
  }
  add(ErrorBodySchema, 'Error')
  for (const op of operations) for (const role of ROLES_OF) if (op[role]) add(op[role]!, `${pascal(op.id)}${pascal(role)}`)

  // `io: 'input'` for requests and responses alike: handlers return the schema's input type and
  // responses are not parsed again, so the input side is what goes over the wire.
  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: (id) => (id === '__shared' ? '' : SCHEMAS + id),
  }) as { schemas: Record<string, Json> }
  const components: Record<string, Json> = { ...((schemas.__shared?.$defs as Record<string, Json>) ?? {}) }
  for (const [name, schema] of Object.entries(schemas)) {
    if (name === '__shared') continue
    delete schema.$schema
    delete schema.$id
    components[name] = schema
  }
  rewriteRefs(components)

  // Inline generated names that no component refers to (the common case: a params object).
  const text = JSON.stringify(components)
  const inline = new Set([...generated].filter((name) => !text.includes(`"${SCHEMAS}${name}"`)))
  const inlined: Record<string, Json> = {}
  for (const name of inline) {
    inlined[name] = components[name]!
    delete components[name]
  }
  const schemaFor = (schema: z.ZodType): Json => {
    const name = nameOf.get(schema)!
    return inlined[name] ?? { $ref: SCHEMAS + name }
  }
  /** The schema itself, following a reference (parameters need the object's properties). */
  const resolve = (schema: z.ZodType): Json => inlined[nameOf.get(schema)!] ?? components[nameOf.get(schema)!]!
  return { components, schemaFor, resolve }
}

/** Path or query parameters from an object schema's properties. */
function parameters(where: 'path' | 'query', schema: Json): Json[] {
  const properties = (schema.properties ?? {}) as Record<string, Json>
  const required = new Set((schema.required ?? []) as string[])
  return Object.entries(properties).map(([name, prop]) => {
    const { description, ...rest } = prop
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description !== undefined && { description }),
      schema: rest,
    }
  })
}

function describePermission(op: OperationDef): string | undefined {
  if (!op.permission) return undefined
  const { resource, action } = op.permission
  const level = (POLICY[resource] as Record<string, string>)[action]
  return `Requires \`${action}\` on the ${resource} (level \`${level}\` or above).`
}

/** The error codes an operation answers with: 400 and 401 always (unless anonymous), then its own. */
function errorCodes(op: OperationDef): ErrorCode[] {
  const codes: ErrorCode[] = ['BAD_REQUEST']
  if (op.auth !== false) codes.push('UNAUTHORIZED')
  for (const code of op.errors) if (!codes.includes(code)) codes.push(code)
  return codes
}

/**
 * Generate the OpenAPI 3.1 document of `operations` (pass `api.operations`).
 *
 * @example
 * const doc = createOpenApiDocument(api.operations, { baseUrl: 'https://docs.example.com' })
 */
export function createOpenApiDocument(operations: readonly OperationDef[], options: OpenApiOptions = {}): OpenApiDocument {
  const { components, schemaFor, resolve } = convertSchemas(operations)
  const paths: OpenApiDocument['paths'] = {}
  const responses: Record<string, Json> = {}
  const tags: string[] = []

  for (const op of operations) {
    if (!tags.includes(op.tag)) tags.push(op.tag)
    const params = [...(op.params ? parameters('path', resolve(op.params)) : []), ...(op.query ? parameters('query', resolve(op.query)) : [])]
    if (op.minimal) {
      params.push({
        name: 'Prefer',
        in: 'header',
        required: false,
        description: 'Send `return=minimal` to get 204 without a body.',
        schema: { type: 'string', enum: ['return=minimal'] },
      })
    }
    const success: Json = { description: STATUS_TEXT[op.status] }
    // A stream's schema is that of each event's data.
    if (op.response) success.content = { [op.responseType ?? 'application/json']: { schema: schemaFor(op.response) } }
    // Bytes: of the declared type (`*/*`: the type the file was uploaded with).
    else if (answersBytes(op)) success.content = { [op.responseType]: { schema: { type: 'string', format: 'binary' } } }
    const opResponses: Record<string, Json> = { [String(op.status)]: success }
    if (op.minimal && op.response) opResponses['204'] = { description: 'No content (`Prefer: return=minimal`)' }
    for (const code of errorCodes(op)) {
      const { status, message } = ERRORS[code]
      responses[code] ??= { description: message, content: { 'application/json': { schema: { $ref: `${SCHEMAS}Error` } } } }
      opResponses[String(status)] = { $ref: `#/components/responses/${code}` }
    }
    const entry: Json = {
      operationId: op.id,
      summary: op.summary,
      tags: [op.tag],
      ...(describePermission(op) && { description: describePermission(op) }),
      ...(params.length > 0 && { parameters: params }),
      ...(op.body && { requestBody: { required: op.bodyRequired === true, content: { 'application/json': { schema: schemaFor(op.body) } } } }),
      responses: opResponses,
      ...(op.auth === false && { security: [] }),
      ...(op.beyondOfficial && { 'x-beyond-official': true }),
    }
    ;(paths[op.path] ??= {})[op.method.toLowerCase()] = entry
  }

  const securitySchemes: Record<string, Json> = { bearer: { type: 'http', scheme: 'bearer' } }
  if (options.admin) {
    tags.push(ADMIN_TAG)
    securitySchemes.adminBearer = {
      type: 'http',
      scheme: 'bearer',
      description: 'The admin token (`docs-content-api serve` prints it), never a user API token.',
    }
    Object.assign(responses, adminPaths(paths, responses))
  }

  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'docs-content-api',
      version: options.version ?? '1.0.0',
      description: 'The docs content management REST API, generated from the operation table.',
    },
    servers: [{ url: (options.baseUrl ?? 'http://localhost:4000').replace(/\/+$/, '') }],
    tags: tags.map((name) => ({ name })),
    security: [{ bearer: [] }],
    paths,
    components: { schemas: components, responses, securitySchemes },
  }
}

/** A zod schema as an inline JSON Schema (the control plane's are small, and used once). */
function inlineSchema(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as Json
  delete json.$schema
  return json
}

/** Add the control plane's entries to `paths`; the error responses they use, to add to the components. */
function adminPaths(paths: OpenApiDocument['paths'], known: Record<string, Json>): Record<string, Json> {
  const responses: Record<string, Json> = {}
  const ref = (code: ErrorCode) => {
    if (!known[code]) responses[code] ??= { description: ERRORS[code].message, content: { 'application/json': { schema: { $ref: `${SCHEMAS}Error` } } } }
    return { $ref: `#/components/responses/${code}` }
  }
  for (const route of ADMIN_ROUTES) {
    const path = `${ADMIN_PREFIX}${route.path}`
    const params: Json[] = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }))
    if (route.query) params.push(...parameters('query', inlineSchema(route.query)))
    const opResponses: Record<string, Json> = {
      [String(route.status)]: { description: STATUS_TEXT[route.status], ...(route.status !== 204 && { content: { 'application/json': { schema: {} } } }) },
      '400': ref('BAD_REQUEST'),
      '401': ref('UNAUTHORIZED'),
    }
    if (params.some((p) => p.in === 'path')) opResponses['404'] = ref('NOT_FOUND')
    if (route.path.startsWith('/clock/') || route.path === '/reset') opResponses['409'] = ref('CONFLICT')
    ;(paths[path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.id,
      summary: route.summary,
      tags: [ADMIN_TAG],
      description:
        'Control plane of docs-content-api (no GitBook operation): served when the API has the `admin` option on (`docs-content-api serve` has it, with the admin token it prints).',
      ...(params.length > 0 && { parameters: params }),
      ...(route.body && { requestBody: { required: route.bodyRequired === true, content: { 'application/json': { schema: inlineSchema(route.body) } } } }),
      responses: opResponses,
      security: [{ adminBearer: [] }],
      'x-beyond-official': true,
    }
  }
  return responses
}
