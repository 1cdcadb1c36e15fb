import type { OperationDef } from '../../src/index.js'
import type { Caller } from './callers.js'
import { BASE, type FuzzWorld } from './world.js'

/**
 * A request as data: what the generators produce, what fast-check shrinks and prints, and what
 * `send` turns into a `Request` for `api.fetch`. Bodies over the size limit are kept as a byte
 * count so a failure report stays readable.
 */
export interface FuzzRequest {
  op: string
  caller: Caller
  method: string
  params: Record<string, string>
  query: Array<[string, string]>
  body?: { json: unknown } | { text: string; contentType: string } | { oversize: number }
  headers?: Record<string, string>
}

export interface Answer {
  status: number
  text: string
  json: unknown
  headers: Headers
  /** The body as sent (bytes answers: a download, a PDF). */
  bytes: Uint8Array
}

/** Percent-encode a path segment; lone surrogates (which encodeURIComponent refuses) as WTF-8 bytes. */
export function encodeSegment(value: string): string {
  return value.replace(/[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]|[^\ud800-\udfff]+/g, (part) => {
    try {
      return encodeURIComponent(part)
    } catch {
      const cp = part.charCodeAt(0)
      return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')
    }
  })
}

export function pathOf(op: OperationDef, params: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeSegment(params[name] ?? ''))
}

export function toRequest(world: FuzzWorld, req: FuzzRequest, op: OperationDef): Request {
  const headers: Record<string, string> = { ...req.headers }
  const token = world.tokens[req.caller]
  if (token !== undefined && headers.authorization === undefined) headers.authorization = `Bearer ${token}`
  let body: string | undefined
  if (req.body && 'json' in req.body) {
    body = JSON.stringify(req.body.json) ?? ''
    headers['content-type'] ??= 'application/json'
  } else if (req.body && 'text' in req.body) {
    body = req.body.text
    if (req.body.contentType) headers['content-type'] = req.body.contentType
  } else if (req.body) {
    body = `{"title":"${'x'.repeat(req.body.oversize)}"}`
    headers['content-type'] = 'application/json'
  }
  const search = req.query.map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`).join('&')
  const url = `${BASE}${pathOf(op, req.params)}${search ? `?${search}` : ''}`
  return new Request(url, { method: req.method, headers, body: req.method === 'GET' ? undefined : body })
}

/**
 * Send a request and wait for the background work it started (an OpenAPI spec's processing): the
 * store is then what the request left, and no job of one request writes during the next.
 */
export async function send(world: FuzzWorld, req: FuzzRequest, op: OperationDef): Promise<Answer> {
  const res = await world.api.fetch(toRequest(world, req, op))
  const bytes = new Uint8Array(await res.arrayBuffer())
  const text = new TextDecoder().decode(bytes)
  // Background jobs the request started (a Git Sync import, say) end before the store is compared.
  await world.api.idle()
  let json: unknown
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  return { status: res.status, text, json, headers: res.headers, bytes }
}

const clip = (_: string, v: unknown) => (typeof v === 'string' && v.length > 120 ? `${v.slice(0, 120)}…(${v.length} chars)` : v)

/** The request and the answer, for a failure message. */
export function describe(req: FuzzRequest, op: OperationDef, answer?: Answer): string {
  const lines = [
    `${req.method} ${pathOf(op, req.params)}${req.query.length ? `?${new URLSearchParams(req.query).toString().slice(0, 300)}` : ''}  (${req.op}, caller: ${req.caller})`,
    `request: ${JSON.stringify({ params: req.params, query: req.query, headers: req.headers, body: req.body }, clip)}`,
  ]
  // Bytes are shown by their type and length (a PNG or a PDF as text is no help).
  const json = answer?.headers.get('content-type')?.startsWith('application/json') !== false
  if (answer)
    lines.push(`answer: ${answer.status} ${json ? answer.text.slice(0, 600) : `${answer.headers.get('content-type')}, ${answer.bytes.byteLength} bytes`}`)
  return lines.join('\n')
}
