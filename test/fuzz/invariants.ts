import { schema, type OperationDef } from '../../src/index.js'
import { expectOfficialEventStream, expectOfficialResponse, hasOfficialOperation } from '../conformance/official.js'
import { describe, send, type Answer, type FuzzRequest } from './requests.js'
import type { FuzzWorld } from './world.js'
import { HOSTILE_URLS } from './hostile.js'
import { answersBytes } from '../../src/core/binary.js'

/** The hosts of HOSTILE_URLS as the URL parser writes them (`0x7f000001` is `127.0.0.1`). */
const HOSTILE_HOSTS = new Set(HOSTILE_URLS.filter((u) => /^https?:/i.test(u)).map((u) => new URL(u).hostname))

/** Why no outgoing request may go to `url` (one of HOSTILE_URLS, or not http or https), or undefined. */
function outgoingRefusal(url: string): string | undefined {
  const parsed = new URL(url)
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `the scheme ${parsed.protocol}`
  if (HOSTILE_HOSTS.has(parsed.hostname)) return 'a private address or a local name'
  return undefined
}

/** Every row of every store collection. Rows are frozen and replaced on update, so references say whether anything changed. */
export type Snapshot = Map<string, readonly object[]>

export function snapshot(world: FuzzWorld): Snapshot {
  return world.api.store.read((tx) => new Map(Object.keys(schema).map((name) => [name, tx.all(name as keyof typeof schema)])))
}

/** The collections whose rows differ (added, removed, replaced or reordered). */
export function changedCollections(a: Snapshot, b: Snapshot): string[] {
  return [...a.keys()].filter((name) => {
    const x = a.get(name)!
    const y = b.get(name)!
    return x.length !== y.length || x.some((row, i) => row !== y[i])
  })
}

/**
 * A failed request that writes on purpose (docs/behaviour/everywhere.md: restoring a space past its 7-day
 * window purges it and still answers 404). Only removals are allowed then.
 */
function writesOnPurpose(req: FuzzRequest, world: FuzzWorld, answer: Answer): boolean {
  return req.op === 'restoreSpace' && answer.status === 404 && req.params.spaceId === world.spaces.expired
}

export class InvariantError extends Error {}

const fail = (what: string, req: FuzzRequest, op: OperationDef, answer: Answer): never => {
  throw new InvariantError(`${what}\n${describe(req, op, answer)}`)
}

/**
 * Send one request and check what holds for every request whatever its input: never a 5xx; an
 * error body is exactly {"error":{"code":<status>,"message":<non-empty>}}; a non-2xx leaves the
 * store as it was; a 2xx answers the operation's status with a body valid against the official
 * response schema (a stream: each of its events).
 */
export async function checkRequest(world: FuzzWorld, op: OperationDef, req: FuzzRequest): Promise<Answer> {
  const before = snapshot(world)
  world.fetched.length = 0
  const answer = await send(world, req, op)
  for (const url of world.fetched) {
    const why = outgoingRefusal(url)
    if (why) fail(`an outgoing request to ${url} (${why}): the guard checks every URL before it is fetched`, req, op, answer)
  }
  const changed = changedCollections(before, snapshot(world))
  const { status } = answer
  if (mustBeUnauthorized(req, op) && status !== 401)
    fail('no 401 for a request without a valid token (docs/behaviour/everywhere.md: authentication comes before validation)', req, op, answer)
  if (status >= 500) fail(`a ${status}: ${world.errors.map((e) => (e as Error)?.stack ?? String(e)).join('\n')}`, req, op, answer)
  if (status < 200 || status >= 300) {
    const body = answer.json as { error?: { code?: unknown; message?: unknown } } | undefined
    const exact = body && Object.keys(body).length === 1 && body.error && Object.keys(body.error).sort().join() === 'code,message'
    if (!exact || body!.error!.code !== status || typeof body!.error!.message !== 'string' || !body!.error!.message) {
      fail('an error body that is not exactly {"error":{"code":<status>,"message":<non-empty string>}}', req, op, answer)
    }
    if (!answer.headers.get('content-type')?.startsWith('application/json')) fail('an error without a JSON content type', req, op, answer)
    if (changed.length && !(writesOnPurpose(req, world, answer) && onlyRemovals(before, snapshot(world)))) {
      fail(`a ${status} that changed the store (${changed.join(', ')})`, req, op, answer)
    }
    return answer
  }
  const minimal = status === 204 && op.minimal && req.headers?.prefer === 'return=minimal'
  // A 205 delete answers 204 when there was nothing to delete (the official document lists both).
  const nothingToReset = status === 204 && op.status === 205
  if (status !== op.status && !minimal && !nothingToReset) fail(`a ${status} where the operation declares ${op.status}`, req, op, answer)
  if (op.responseType === 'text/event-stream' && !answer.headers.get('content-type')?.startsWith('text/event-stream'))
    fail('a stream answered without `text/event-stream`', req, op, answer)
  if (answersBytes(op)) checkBytes(op, req, answer)
  if (hasOfficialOperation(op.id)) {
    try {
      // A stream: every event valid, then `event: done` (never an error event from the default answerer).
      if (op.responseType === 'text/event-stream') expectOfficialEventStream(op.id, answer.text)
      else expectOfficialResponse(op.id, status, answer.json)
    } catch (error) {
      fail(`a body that the official schema rejects: ${(error as Error).message.slice(0, 1500)}`, req, op, answer)
    }
  }
  return answer
}

/**
 * A bytes answer (a download, a PDF): of the declared type (any but JSON for `*\/*`), as long as
 * its `content-length` says, a PDF being one (`%PDF-`); never sniffed into another type.
 */
function checkBytes(op: OperationDef, req: FuzzRequest, answer: Answer): void {
  const type = answer.headers.get('content-type') ?? ''
  if (op.responseType === '*/*' ? !type || type.startsWith('application/json') : type !== op.responseType)
    fail(`bytes of the type \`${type}\` where the operation declares \`${op.responseType}\``, req, op, answer)
  if (answer.headers.get('content-length') !== String(answer.bytes.byteLength))
    fail(`a content-length of ${answer.headers.get('content-length')} for ${answer.bytes.byteLength} bytes`, req, op, answer)
  if (op.responseType === 'application/pdf' && new TextDecoder().decode(answer.bytes.subarray(0, 5)) !== '%PDF-')
    fail('a PDF that does not start with %PDF-', req, op, answer)
  if (op.responseType === '*/*' && answer.headers.get('x-content-type-options') !== 'nosniff')
    fail('a download without `x-content-type-options: nosniff`', req, op, answer)
}

/**
 * Whether the request reaches its operation without a valid token: a bad token is a 401 on every
 * operation, no token on every operation but the open ones, whatever the parameters and body.
 * Only requests that route to the operation count: every path parameter non-empty and decodable.
 */
function mustBeUnauthorized(req: FuzzRequest, op: OperationDef): boolean {
  const routes = Object.values(req.params).every((v) => v !== '' && !/[\ud800-\udfff]/.test(v.replace(/[\ud800-\udbff][\udc00-\udfff]/g, '')))
  const header = req.headers?.authorization
  const badToken = req.caller === 'badToken' || (header !== undefined && /^bearer\s+\S/i.test(header.trim()))
  const noToken = header !== undefined ? !badToken : req.caller === 'anonymous'
  return routes && (badToken || (noToken && op.auth !== false))
}

function onlyRemovals(before: Snapshot, after: Snapshot): boolean {
  return [...before.keys()].every((name) => {
    const old = new Set(before.get(name))
    return after.get(name)!.every((row) => old.has(row))
  })
}
