import type { z } from 'zod'
import { ApiError, ERRORS, errorBody } from '../core/errors.js'
import { OffloadError, offloadFailure, type Offload } from '../core/offload.js'
import { createSlicer, nextTurn } from '../core/slices.js'
import { parseJsonInSlices } from './json-slices.js'
import { validateInSlices } from './validate-slices.js'
import { isLargeJson, stringifyJson, stringifyJsonInParts } from '../core/json.js'
import { MAX_BODY_DEPTH, scanJsonText, scanJsonTextInSlices } from '../core/json-limits.js'
import { LargeText, type JsonText } from '../core/large-text.js'
import { StorageError } from '../storage/errors.js'
import type { OperationDef } from '../core/operation.js'
import type { BinaryAnswer } from '../core/binary.js'
import { EVENT_STREAM_HEADERS } from './event-stream.js'

/** Largest request body accepted, unless the operation sets its own (`maxBodyBytes`). */
export const MAX_BODY_BYTES = 1024 * 1024

const limitOf = (def: OperationDef): number => def.maxBodyBytes ?? MAX_BODY_BYTES
const tooLarge = (limit: number) => new ApiError('PAYLOAD_TOO_LARGE', `Request body is larger than ${limit} bytes (${limit / (1024 * 1024)} MiB)`)

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }

export type Where = 'path parameter' | 'query parameter' | 'body field'

/** The value at `path` in `input` (undefined when any step is missing). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

/** A key as a message shows it: a long one (a key is any string a client sends) is cut. */
const shownKey = (key: PropertyKey): string => {
  const text = String(key)
  return text.length > 100 ? `${text.slice(0, 100)}…` : text
}

/** A field path as a client writes it: `changes[0].document.nodes[2].nodes`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${shownKey(key)}` : shownKey(key)
  return out
}

/** Keys a message lists at most (an object may have a million unknown keys). */
const SHOWN_KEYS = 5

/**
 * Whether an issue of a union's option says the value is not of that option's form at all, rather
 * than of that form with a bad field: an issue at the value itself, or at one of its own keys that
 * is missing, unknown (`z.never()` catchall) or not the option's literal.
 */
function rejectsForm(issue: z.core.$ZodIssue, input: unknown, at: readonly PropertyKey[]): boolean {
  if (issue.path.length === 0) return true
  if (issue.path.length > 1) return false
  if (issue.code === 'invalid_value') return true
  return issue.code === 'invalid_type' && (issue.expected === 'never' || valueAt(input, [...at, ...issue.path]) === undefined)
}

/**
 * The issues to report: a union that failed is explained by its one option whose form the value
 * takes, when exactly one does, so `{"document": {...}}` with a bad block names the block's field
 * rather than saying the body is none of the union's forms. (A discriminated union already runs
 * only the option its discriminator names.)
 */
function reportedIssues(issues: readonly z.core.$ZodIssue[], input: unknown): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue]
    const fitting = issue.errors.filter((option) => option.length > 0 && !option.some((inner) => rejectsForm(inner, input, issue.path)))
    if (fitting.length !== 1) return [issue]
    return reportedIssues(
      fitting[0]!.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })),
      input,
    )
  })
}

/** Turn a zod failure into a 400 whose message names the field and the rule. */
export function validationError(where: Where, error: z.ZodError, input: unknown): ApiError {
  const parts = reportedIssues(error.issues, input)
    .slice(0, 5)
    .map((issue) => {
      const path = fieldPath(issue.path)
      const field = path ? `${where} \`${path}\`` : where === 'body field' ? 'body' : where
      let rule = issue.message
      if (issue.code === 'unrecognized_keys') {
        const more = issue.keys.length - SHOWN_KEYS
        rule = `unknown key(s) ${issue.keys
          .slice(0, SHOWN_KEYS)
          .map((k) => `\`${shownKey(k)}\``)
          .join(', ')}${more > 0 ? ` and ${more} more` : ''}`
      }
      if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) rule = 'is required'
      // A missing enum or union field fails as a bad value in zod; say what is wrong: it is missing.
      if (
        (issue.code === 'invalid_value' || issue.code === 'invalid_union') &&
        issue.path.length > 0 &&
        valueAt(input, issue.path) === undefined &&
        !rule.startsWith('is required')
      ) {
        rule = 'is required'
      }
      return `${field}: ${rule}`
    })
  return new ApiError('BAD_REQUEST', `Invalid request: ${parts.join('; ')}`)
}

/**
 * Values a body may hold to be validated in full, every problem found (the message reports five).
 * Past it, a list or an object is validated up to its first value of the wrong type: zod makes an
 * issue of every element that fails (a 1 MiB list of wrong types is half a million issues, all
 * made before the caller is even authorized), and a message names five at most anyway.
 */
export const FULL_VALIDATION_VALUES = 2000

// zod's parse context `abortEarly` (what its `schema.validate()` uses; not in its public type, hence
// the cast): a list or an object stops at the first element whose issue aborts (a wrong type; a
// failed check, such as a length, does not stop it). test/http/hostile-bodies.test.ts sees it work.
export const FIRST_PROBLEMS = { abortEarly: true } as z.core.ParseContext<z.core.$ZodIssue>

/** `value` as `schema` reads it, or a 400 naming the field and the rule; `firstProblems`: stop at the first problem of each list and object. */
export function validate<T extends z.ZodType>(schema: T | undefined, value: unknown, where: Where, firstProblems = false): z.output<T> | undefined {
  if (!schema) return undefined
  const result = schema.safeParse(value, firstProblems ? FIRST_PROBLEMS : undefined)
  if (!result.success) throw validationError(where, result.error, value)
  return result.data
}

/**
 * The body of a request (the text `readBody` read, undefined: none), parsed and validated; for a
 * large body, a promise of it (parsed and validated in slices: a JSON value is never a promise).
 */
export function validBody(request: Request, def: OperationDef, text: JsonText | undefined): unknown {
  const schema = def.body
  if (!schema) return undefined
  const parsed = parseBody(request, def, text)
  if (parsed instanceof Promise)
    return parsed.then(({ value, values }) =>
      validateInSlices(schema, value, 'body field', createSlicer(), values > FULL_VALIDATION_VALUES ? FIRST_PROBLEMS : undefined),
    )
  return validate(schema, parsed.value, 'body field', parsed.values > FULL_VALIDATION_VALUES)
}

/**
 * Whether the router alone guarantees what a path-parameter schema asks: an object of strings
 * with at most a minimum length of 1 (the router never yields an empty segment). Validating such
 * parameters again would only cost time on every request; anything stricter is validated.
 */
export function routerSatisfies(schema: z.ZodObject | undefined): boolean {
  if (!schema) return true
  type Def = { type: string; checks?: Array<{ _zod: { def: { check: string; minimum?: number } } }> }
  return Object.values(schema.shape).every((field) => {
    const def = (field as unknown as { _zod: { def: Def } })._zod.def
    return def.type === 'string' && (def.checks ?? []).every((c) => c._zod.def.check === 'min_length' && (c._zod.def.minimum ?? 0) <= 1)
  })
}

/**
 * What the query decoder needs to know of an operation's query schema: which parameters take a
 * list (repeated keys, as the official client sends an array: `?status=draft&status=open`) and
 * which take one value. Derived once per operation from the zod schema, so no area decodes lists
 * by hand.
 */
export interface QueryShape {
  arrays: ReadonlySet<string>
  scalars: ReadonlySet<string>
}

export const NO_QUERY: QueryShape = { arrays: new Set(), scalars: new Set() }

type ZodDef = { type: string; innerType?: z.ZodType; in?: z.ZodType }

/** Whether a field's schema takes an array, through optional, default, nullable and transforms. */
function takesArray(schema: z.ZodType): boolean {
  const def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def
  if (def.type === 'array') return true
  if (def.type === 'pipe') return def.in !== undefined && takesArray(def.in)
  return def.innerType !== undefined && takesArray(def.innerType)
}

export function queryShapeOf(schema: z.ZodObject | undefined): QueryShape {
  if (!schema) return NO_QUERY
  const arrays = new Set<string>()
  const scalars = new Set<string>()
  for (const [key, field] of Object.entries(schema.shape)) (takesArray(field as z.ZodType) ? arrays : scalars).add(key)
  return { arrays, scalars }
}

/**
 * Query string to an object. A list parameter of `shape` is always an array: each repeated key
 * adds a value (`key[]` is read as `key`), and one value makes a list of one. A parameter that
 * takes one value given several times is a 400 naming it (which value was meant is unknown).
 * Keys the schema does not know are left to it (it drops them).
 */
export function decodeQuery(search: string, shape: QueryShape = NO_QUERY): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  if (!search) return out
  for (const [rawKey, value] of new URLSearchParams(search)) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey
    const prev = out[key]
    if (shape.arrays.has(key)) {
      // Pushed, not copied: a list parameter given 20,000 times would copy 200 million values.
      if (prev === undefined) out[key] = [value]
      else (prev as string[]).push(value)
    } else if (prev === undefined && key === rawKey) out[key] = value
    else if (shape.scalars.has(key)) {
      throw new ApiError(
        'BAD_REQUEST',
        `Invalid request: query parameter \`${key}\`: takes one value, given ${prev === undefined ? `as a list (\`${rawKey}\`)` : 'more than once'}`,
      )
    }
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
 * Read and size-check a request body. Returns undefined when the request has none. A body that a
 * middleware already read (Hono's `c.req.json()`, a logger) cannot be read again: that is a 500
 * saying so, never a silent empty body.
 */
export async function readBody(request: Request, def: OperationDef): Promise<JsonText | undefined> {
  if (!def.body) return undefined
  const limit = limitOf(def)
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > limit) throw tooLarge(limit)
  if (request.bodyUsed) throw bodyAlreadyRead()
  let text: JsonText
  // Without a declared length (a chunked body), read at most the limit instead of all of it; a
  // large body is read as it comes too, chunk by chunk (never one decode of all its bytes).
  const counted = !request.headers.has('content-length') || declared > STREAMED_BODY_BYTES
  try {
    text = !request.body ? '' : counted ? await readCapped(request.body, limit) : await request.text()
  } catch (error) {
    if (ApiError.isApiError(error)) throw error
    // A stream another reader holds (locked) or has drained answers a TypeError here.
    if (request.bodyUsed || request.body?.locked || error instanceof TypeError) throw bodyAlreadyRead()
    throw error
  }
  // request.text() read what the stream held, whatever its Content-Length said: a text that may
  // be past the limit (a UTF-16 code unit is at most 3 UTF-8 bytes) is measured.
  if (!counted && text.length > limit / 3 && new TextEncoder().encode(String(text)).length > limit) throw tooLarge(limit)
  return text.length === 0 ? undefined : text
}

/** Bodies declared larger than this are read chunk by chunk (readCapped) rather than by `request.text()`. */
const STREAMED_BODY_BYTES = 1024 * 1024

/**
 * The text of a stream, refused with a 413 as soon as it passes `limit` bytes, decoded chunk by
 * chunk as they come (a body of several MiB is never copied whole nor decoded in one go).
 */
async function readCapped(stream: ReadableStream<Uint8Array>, limit: number): Promise<JsonText> {
  const reader = stream.getReader()
  // The reads are awaited here rather than through a helper of their own: no closure and no
  // extra promise per chunk of every body (most bodies are one small chunk).
  let read = await reader.read()
  if (read.done) return ''
  const first = read.value
  let size = first.byteLength
  if (size > limit) return cancelTooLarge(reader, limit)
  read = await reader.read()
  // One chunk (what `new Request(url, { body: text })` gives, the usual in-process call): one
  // decode by a shared decoder, no streaming decoder made for the request.
  if (read.done) return ONE_DECODER.decode(first)
  const decoder = new TextDecoder()
  const parts = [decoder.decode(first, { stream: true })]
  let length = parts[0]!.length
  for (; !read.done; read = await reader.read()) {
    size += read.value.byteLength
    if (size > limit) return cancelTooLarge(reader, limit)
    const part = decoder.decode(read.value, { stream: true })
    parts.push(part)
    length += part.length
  }
  parts.push(decoder.decode())
  // A long body stays in its parts (core/large-text.ts: never one copy of all of it); a short one is one string.
  return length > SLICED_BODY_CHARS ? new LargeText(parts) : parts.join('')
}

/** Stop reading a body past `limit` bytes: the stream is cancelled, then the 413. */
async function cancelTooLarge(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<never> {
  await reader.cancel()
  throw tooLarge(limit)
}

/** Decodes a whole body in one call (never `stream: true`, so it keeps no state between calls). */
const ONE_DECODER = new TextDecoder()

const bodyAlreadyRead = () =>
  new ApiError(
    'INTERNAL',
    'The request body was already read before it reached the API (by a middleware or another handler): pass the API a Request whose body is unread, e.g. request.clone() taken before reading it',
  )

/** How many levels of a too-deep field's path a message shows. */
const SHOWN_LEVELS = 8

/**
 * Bodies longer than this (in UTF-16 code units) are parsed and validated in slices
 * (json-slices.ts, validate-slices.ts): a body of several MiB does not hold the event loop while
 * it is read. Shorter ones parse in well under a slice.
 */
const SLICED_BODY_CHARS = 256 * 1024

const invalidJson = (error: unknown) => new ApiError('BAD_REQUEST', `Invalid request: body is not valid JSON (${(error as Error).message})`)

/**
 * Parse a JSON body read by `readBody` (undefined: the request had none), and about how many
 * values it holds. Its nesting is checked on the text first (core/json-limits.ts), in one pass
 * that stops at the first level too deep: nothing recursive, nor JSON.parse, sees such a body.
 * A large body's value is a promise (parsed in slices).
 */
function parseBody(request: Request, def: OperationDef, text: JsonText | undefined): Parsed | Promise<Parsed> {
  if (text === undefined) {
    if (def.bodyRequired) throw new ApiError('BAD_REQUEST', 'Invalid request: body is required (a JSON object)')
    return { value: {}, values: 1 }
  }
  if (!isJsonContentType(request.headers.get('content-type'))) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Invalid request: Content-Type must be application/json for a request body')
  }
  if (typeof text !== 'string' || text.length > SLICED_BODY_CHARS) return parseInSlices(text)
  // A text of at most MAX_BODY_DEPTH characters cannot nest deeper (each level opens with a
  // character of its own) and holds at most one value more than its length, far below
  // FULL_VALIDATION_VALUES: the scan could only say so (most bodies: `{"title":"..."}`).
  const { values, tooDeepAt } = text.length <= MAX_BODY_DEPTH ? { values: text.length + 1, tooDeepAt: undefined } : scanJsonText(text)
  if (tooDeepAt) throw tooDeep(tooDeepAt)
  try {
    return { value: JSON.parse(text), values }
  } catch (error) {
    throw invalidJson(error)
  }
}

interface Parsed {
  value: unknown
  values: number
}

/** `parseBody` of a large text: its nesting scanned, then the text parsed, both in slices. */
async function parseInSlices(text: JsonText): Promise<Parsed> {
  const slicer = createSlicer()
  const { values, tooDeepAt } = await scanJsonTextInSlices(text, slicer)
  if (tooDeepAt) throw tooDeep(tooDeepAt)
  try {
    return { value: await parseJsonInSlices(text, slicer), values }
  } catch (error) {
    throw error instanceof SyntaxError ? invalidJson(error) : error
  }
}

const tooDeep = (at: Array<string | number>) => {
  const shown = at.length === 0 ? 'body' : `body field \`${fieldPath(at.slice(0, SHOWN_LEVELS))}${at.length > SHOWN_LEVELS ? '…' : ''}\``
  return new ApiError('BAD_REQUEST', `Invalid request: ${shown}: nests objects and lists deeper than ${MAX_BODY_DEPTH} levels`)
}

/**
 * A response: its status, its JSON text (none for 204/205), and headers beyond the content type;
 * or, for a streamed answer, the `text/event-stream` body (http/event-stream.ts) instead of text;
 * or, for a bytes answer, the bytes (its headers then carry their type and length).
 */
export interface Answer {
  status: number
  /** A long answer may be in parts (core/large-text.ts), never made one string. */
  text: JsonText | undefined
  headers?: Record<string, string>
  stream?: ReadableStream<Uint8Array>
  bytes?: Uint8Array
}

export function jsonAnswer(status: number, body: unknown, headers?: Record<string, string>): Answer {
  // stringifyJson splices the JSON text encoders keep (core/json.ts) instead of serializing it again.
  const text = status === 204 || status === 205 || body === undefined ? undefined : stringifyJson(body)
  return headers ? { status, text, headers } : { status, text }
}

/**
 * `jsonAnswer` of a value that may be large (a change request's pages with their documents): one
 * that is (core/json.ts isLargeJson) is serialized in parts, in slices, and kept in its parts
 * when it is past LARGE_ANSWER_CHARS, so no single call serializes, or copies, all of it. A
 * small one is answered at once, not as a promise: most answers are small, and a caller then
 * spends no turn of the microtask queue on them.
 */
export function jsonAnswerInSlices(status: number, body: unknown, headers?: Record<string, string>): Answer | Promise<Answer> {
  if (status === 204 || status === 205 || body === undefined || !isLargeJson(body)) return jsonAnswer(status, body, headers)
  return largeJsonAnswer(status, body, headers)
}

async function largeJsonAnswer(status: number, body: unknown, headers?: Record<string, string>): Promise<Answer> {
  const parts = await stringifyJsonInParts(body, createSlicer())
  const text = new LargeText(parts)
  const answer = { status, text: text.length > LARGE_ANSWER_CHARS ? text : parts.join('') }
  return headers ? { ...answer, headers } : answer
}

/**
 * The answer of a handler's bytes (core/binary.ts): made now when the handler left them to make
 * after its transaction (a PDF rendered), then sent with their type and length.
 */
export async function bytesAnswer(status: number, answer: BinaryAnswer, head: boolean, offload: Offload): Promise<Answer> {
  // A HEAD does not make bytes made late (a PDF to render): its headers go without their length.
  if (head && typeof answer.bytes === 'function')
    return { status, text: undefined, bytes: new Uint8Array(0), headers: { ...answer.headers, 'content-type': answer.contentType } }
  const bytes = typeof answer.bytes === 'function' ? await answer.bytes(offload) : answer.bytes
  return { status, text: undefined, bytes, headers: { ...answer.headers, 'content-type': answer.contentType, 'content-length': String(bytes.byteLength) } }
}

/**
 * Encode any thrown value as the API's error body; unknown errors are logged and become a 500.
 * A storage that cannot write (StorageError) answers 507 or 503 with the table's message, which
 * says why without the file names and system details of the error itself; that is logged too, as
 * someone has to free space or fix the disk.
 */
export function errorAnswer(error: unknown, onError: (error: unknown) => void): Answer {
  if (OffloadError.isOffloadError(error)) error = offloadFailure(error)
  if (ApiError.isApiError(error)) return jsonAnswer(error.status, errorBody(error.status, error.message), error.headers ? { ...error.headers } : undefined)
  onError(error)
  if (StorageError.isStorageError(error)) {
    const { status, message } = ERRORS[error.reason === 'full' ? 'INSUFFICIENT_STORAGE' : 'STORAGE_NOT_WRITABLE']
    return jsonAnswer(status, errorBody(status, message))
  }
  return jsonAnswer(500, errorBody(500, 'Internal server error'))
}

/**
 * An answer text past this many characters (a change request's pages with their documents, say)
 * is made ready in turns of its own (settleLargeText) and sent encoded in slices (textInSlices).
 */
export const LARGE_ANSWER_CHARS = 1 << 20
/** Characters of a large answer encoded per turn of the event loop. */
const ANSWER_SLICE_CHARS = 1 << 18

/**
 * V8 builds a long JSON text as a tree of parts, made one flat string by the first read of it
 * (for a text of several MB, longer than the text's encoding takes; bench/README.md has the
 * figure): that read gets a turn of the event loop of its own, so the stringification, the
 * flattening and what the journal keeps of the text do not add up to one long stall.
 */
export async function settleLargeText(text: JsonText): Promise<void> {
  // A text in parts is never made one string.
  if (typeof text !== 'string') return
  await nextTurn()
  text.charCodeAt(0)
  await nextTurn()
}

/** A large text as UTF-8, ANSWER_SLICE_CHARS at a time with a turn of the event loop between them (a surrogate pair is never split). */
function textInSlices(text: JsonText): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let at = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at > 0) await nextTurn()
      let end = Math.min(at + ANSWER_SLICE_CHARS, text.length)
      const last = text.charCodeAt(end - 1)
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--
      controller.enqueue(encoder.encode(text.slice(at, end)))
      at = end
      if (at >= text.length) controller.close()
    },
  })
}

/** The `Response` of an answer; a HEAD request gets the headers without the body. */
export function toResponse(answer: Answer, head = false): Response {
  if (answer.bytes) return new Response(head ? null : (answer.bytes as Uint8Array<ArrayBuffer>), { status: answer.status, headers: answer.headers })
  if (answer.stream) {
    if (head) void answer.stream.cancel()
    return new Response(head ? null : answer.stream, { status: answer.status, headers: { ...EVENT_STREAM_HEADERS, ...answer.headers } })
  }
  const headers = answer.text === undefined ? answer.headers : answer.headers ? { ...JSON_HEADERS, ...answer.headers } : JSON_HEADERS
  if (head || answer.text === undefined) return new Response(null, { status: answer.status, headers })
  return new Response(answer.text.length > LARGE_ANSWER_CHARS ? textInSlices(answer.text) : String(answer.text), { status: answer.status, headers })
}

/** True when the caller asked for no body (`Prefer: return=minimal`), given its `Prefer` header. */
export function prefersMinimal(prefer: string | null): boolean {
  return prefer !== null && /(^|[,;\s])return=minimal\b/i.test(prefer)
}
