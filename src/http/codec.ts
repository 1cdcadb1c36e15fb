import type { z } from 'zod'
import { ApiError, errorBody } from '../core/errors.js'
import { stringifyJson } from '../core/json.js'
import type { OperationDef } from '../core/operation.js'

/** Largest request body accepted. */
export const MAX_BODY_BYTES = 1024 * 1024

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }

type Where = 'path parameter' | 'query parameter' | 'body field'

/** The value at `path` in `input` (undefined when any step is missing). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

/** Turn a zod failure into a 400 whose message names the field and the rule. */
function validationError(where: Where, error: z.ZodError, input: unknown): ApiError {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.')
    const field = path ? `${where} \`${path}\`` : where === 'body field' ? 'body' : where
    let rule = issue.message
    if (issue.code === 'unrecognized_keys') rule = `unknown key(s) ${issue.keys.map((k) => `\`${k}\``).join(', ')}`
    if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) rule = 'is required'
    // A missing enum or union field fails as a bad value in zod; say what is wrong: it is missing.
    if ((issue.code === 'invalid_value' || issue.code === 'invalid_union') && issue.path.length > 0 && valueAt(input, issue.path) === undefined) {
      rule = 'is required'
    }
    return `${field}: ${rule}`
  })
  return new ApiError('BAD_REQUEST', `Invalid request: ${parts.join('; ')}`)
}

export function validate<T extends z.ZodType>(schema: T | undefined, value: unknown, where: Where): z.output<T> | undefined {
  if (!schema) return undefined
  const result = schema.safeParse(value)
  if (!result.success) throw validationError(where, result.error, value)
  return result.data
}

/** Query string to an object; a key given several times becomes an array. */
export function decodeQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  if (!search) return out
  for (const [rawKey, value] of new URLSearchParams(search)) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey
    const prev = out[key]
    if (prev === undefined) out[key] = rawKey.endsWith('[]') ? [value] : value
    else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value]
  }
  return out
}

function isJsonContentType(value: string | null): boolean {
  if (!value) return false
  if (value === 'application/json') return true
  const type = value.split(';')[0]!.trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/**
 * The text of a request's body (a promise of it, or '' without one), after the declared length
 * is checked. With `parseBody`, what `decodeBody` does, split so that the fetch handler awaits
 * the body stream itself instead of a promise wrapped around it.
 */
export function readBodyText(request: Request): Promise<string> | string {
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > MAX_BODY_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', `Request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB)`)
  return request.body ? request.text() : ''
}

/** Size-check and parse the text of a JSON body. */
export function parseBody(request: Request, def: OperationDef, text: string): unknown {
  if (text.length === 0) {
    if (def.bodyRequired) throw new ApiError('BAD_REQUEST', 'Invalid request: body is required (a JSON object)')
    return {}
  }
  // A UTF-16 code unit is at most 3 UTF-8 bytes: only a text longer than a third of the limit can pass it.
  if (text.length > MAX_BODY_BYTES / 3 && new TextEncoder().encode(text).length > MAX_BODY_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `Request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB)`)
  }
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Invalid request: Content-Type must be application/json for a request body')
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ApiError('BAD_REQUEST', `Invalid request: body is not valid JSON (${(error as Error).message})`)
  }
}

/** Read, size-check and parse a JSON body. Returns undefined when the request has none. */
export async function decodeBody(request: Request, def: OperationDef): Promise<unknown> {
  if (!def.body) return undefined
  return parseBody(request, def, await readBodyText(request))
}

export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): Response {
  if (status === 204 || status === 205 || body === undefined) return new Response(null, { status, headers })
  return new Response(stringifyJson(body), { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS })
}

/** Encode any thrown value as the API's error body; unknown errors are logged and become a 500. */
export function errorResponse(error: unknown, onError?: (error: unknown) => void): Response {
  if (ApiError.isApiError(error)) return jsonResponse(error.status, errorBody(error.status, error.message))
  ;(onError ?? ((e) => console.error('[docs-content-api] unexpected error', e)))(error)
  return jsonResponse(500, errorBody(500, 'Internal server error'))
}

/** True when the caller asked for no body (`Prefer: return=minimal`). */
export function prefersMinimal(request: Request): boolean {
  const prefer = request.headers.get('prefer')
  return prefer !== null && /(^|[,;\s])return=minimal\b/i.test(prefer)
}
