import { z } from 'zod'
import { ApiError } from '../core/errors.js'
import { clockOf } from '../core/clock.js'
import type { ApiCore } from './api-core.js'
import { errorAnswer, jsonAnswer, toResponse, validate, type Answer } from './codec.js'
import type { Fault, FaultSpec } from './faults.js'
import type { JournalFilter } from './journal.js'
import type { StoreSnapshot } from '../storage/port.js'

/**
 * The control plane: the in-process test toolkit (`api.reset()`, snapshots, `api.dump()` and
 * seeds, `api.journal`, `api.faults`, `api.idle()`, a `createClock()` clock) over HTTP under the
 * reserved prefix `/_admin/`, for tests that drive a served API from another process.
 *
 * Its routes are a table of their own, not operations of the API's table (domains/*): they are no
 * GitBook operation, they take another credential (the admin token, never a user's API token),
 * and they act on the API rather than in it: no journal entry, no fault, no permission check of
 * the policy. The fuzz suite and the authorization matrix iterate the API's table and so never
 * see them; test/http/admin.test.ts covers them. The OpenAPI document lists them (tag
 * `Control plane (docs-content-api)`) when the served API has them on.
 */

export interface AdminOptions {
  /**
   * The admin token: every request to `/_admin/` must send `Authorization: Bearer <token>`.
   * Without one, the control plane is open to whoever can reach the handler (in process only).
   */
  token?: string
}

/** The reserved prefix (after the API's `basePath`). */
export const ADMIN_PREFIX = '/_admin'

/** The tag of the control plane's entries in the OpenAPI document. */
export const ADMIN_TAG = 'Control plane (docs-content-api)'

/** Most named snapshots kept at once (each holds a state: a copy of the file with SQLite). */
export const MAX_SNAPSHOTS = 100

/** Largest request body (a state document for `PUT /_admin/state`). */
const MAX_BODY_CHARS = 256 * 1024 * 1024

const SnapshotName = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be 1..100 letters, digits, dots, dashes or underscores')
  .meta({ description: 'The snapshot\u2019s name (in the URL of its restore and delete).' })

const ResetBody = z
  .strictObject({
    state: z.boolean().optional().meta({ description: 'Reset the state (`api.reset()`). Default true.' }),
    journal: z.boolean().optional().meta({ description: 'Clear the journal. Default true.' }),
    faults: z.boolean().optional().meta({ description: 'Remove every fault. Default true.' }),
  })
  .optional()

const SnapshotBody = z.strictObject({ name: SnapshotName })

const JournalQuery = z.strictObject({
  operationId: z.string().optional(),
  status: z.coerce
    .number()
    .int('must be a whole number')
    .min(100, 'must be an HTTP status (100..599)')
    .max(599, 'must be an HTTP status (100..599)')
    .optional(),
  method: z.string().optional(),
  user: z.string().optional(),
  path: z.string().optional().meta({ description: 'The path routed, exact (`/v1/orgs/abc`), without the query.' }),
  fault: z.enum(['true', 'false']).optional().meta({ description: 'Only entries a fault answered (`true`) or none did (`false`).' }),
  since: z.coerce.number().int('must be a whole number').min(0, 'must be >= 0').optional().meta({ description: 'Only entries with a `seq` above this one.' }),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be 1..1000')
    .max(1000, 'must be 1..1000')
    .optional()
    .meta({ description: 'At most this many, the newest (still oldest first). Default 100.' }),
})

const FaultBody = z
  .strictObject({
    operationId: z.string().min(1, 'must not be empty').optional(),
    path: z
      .string()
      .min(1, 'must not be empty')
      .optional()
      .meta({ description: 'An exact path (`/v1/orgs/abc`) or a template of the table (`/v1/spaces/{spaceId}`).' }),
    pathPattern: z.string().min(1, 'must not be empty').optional().meta({ description: 'A regular expression tested on the path (instead of `path`).' }),
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, 'must be an HTTP method')
      .optional(),
    status: z.number().int('must be a whole number').min(400, 'must be an error status (400..599)').max(599, 'must be an error status (400..599)').optional(),
    message: z.string().optional(),
    delayMs: z.number().min(0, 'must be >= 0').max(600_000, 'must be at most 600000 (10 minutes)').optional(),
    times: z.number().int('must be a whole number').min(1, 'must be at least 1').optional(),
    probability: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional(),
    retryAfter: z.number().int('must be a whole number').min(0, 'must be >= 0').optional(),
  })
  .meta({ description: 'What `api.faults.add` takes; `pathPattern` is its RegExp `path` as a string.' })

const ClockSetBody = z.strictObject({ at: z.iso.datetime({ error: 'must be an ISO 8601 date-time (e.g. 2026-01-01T00:00:00.000Z)' }) })

const DURATION = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/
const ClockAdvanceBody = z
  .strictObject({
    ms: z.number().int('must be a whole number of milliseconds').optional(),
    duration: z
      .string()
      .regex(DURATION, 'must be a duration such as 7d, 1h30m, 90s or 250ms')
      .refine((s) => s.length > 0, 'must not be empty')
      .optional(),
  })
  .refine((b) => (b.ms === undefined) !== (b.duration === undefined), { message: 'give one of `ms` or `duration`', path: ['ms'] })

function durationMs(text: string): number {
  const [, d, h, m, s, ms] = DURATION.exec(text)!
  const n = (v: string | undefined) => Number(v ?? 0)
  return (((n(d) * 24 + n(h)) * 60 + n(m)) * 60 + n(s)) * 1000 + n(ms)
}

/** One route of the control plane. */
export interface AdminRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** After the prefix, with `{name}` parameters: `/snapshots/{name}/restore`. */
  path: string
  /** Its operationId in the OpenAPI document. */
  id: string
  summary: string
  status: 200 | 201 | 204
  body?: z.ZodType
  /** Whether the body must be sent (else it may be left out). */
  bodyRequired?: boolean
  query?: z.ZodObject
}

interface Input {
  params: Record<string, string>
  query: Record<string, unknown>
  body: unknown
}

type Run = (core: ApiCore, input: Input, ids: FaultIds) => unknown

/** The routes, with what each does. */
const ROUTES: Array<AdminRoute & { run: Run }> = [
  {
    method: 'GET',
    path: '/health',
    id: 'adminHealth',
    summary: 'Whether the API is up, with what the control plane holds',
    status: 200,
    run: (core) => ({
      ok: true,
      journal: { entries: core.journal.entries.length, limit: core.journal.limit },
      faults: core.faults.list().length,
      snapshots: core.control.snapshots.size,
      controllableClock: clockOf(core.runtime.now) !== undefined,
    }),
  },
  {
    method: 'POST',
    path: '/reset',
    id: 'adminReset',
    summary: 'Back to the state the API started with; the journal cleared and faults removed (each can be kept)',
    status: 200,
    body: ResetBody,
    run: (core, { body }) => {
      const b = (body ?? {}) as z.output<typeof ResetBody> & object
      if (b.state !== false) {
        try {
          core.control.reset()
        } catch (error) {
          if (error instanceof TypeError) throw new ApiError('CONFLICT', `Cannot reset: ${error.message}`)
          throw error
        }
      }
      if (b.journal !== false) core.journal.clear()
      if (b.faults !== false) core.faults.clear()
      return { reset: { state: b.state !== false, journal: b.journal !== false, faults: b.faults !== false } }
    },
  },
  {
    method: 'GET',
    path: '/snapshots',
    id: 'adminListSnapshots',
    summary: 'The named snapshots, oldest first',
    status: 200,
    run: (core) => ({ items: [...core.control.snapshots].map(([name, s]) => ({ name, createdAt: s.createdAt })) }),
  },
  {
    method: 'POST',
    path: '/snapshots',
    id: 'adminCreateSnapshot',
    summary: 'Take a snapshot of the state under a name (a snapshot of that name is replaced)',
    status: 201,
    body: SnapshotBody,
    bodyRequired: true,
    run: (core, { body }) => {
      const { name } = body as z.output<typeof SnapshotBody>
      const { snapshots } = core.control
      if (!snapshots.has(name) && snapshots.size >= MAX_SNAPSHOTS)
        throw new ApiError('CONFLICT', `At most ${MAX_SNAPSHOTS} snapshots are kept: delete one first (DELETE ${ADMIN_PREFIX}/snapshots/{name})`)
      let snapshot: StoreSnapshot
      try {
        snapshot = core.control.snapshot()
      } catch (error) {
        // A store without snapshots (PostgreSQL, shared by several processes): said, not a 500.
        if (error instanceof TypeError) throw new ApiError('CONFLICT', `Cannot take a snapshot: ${error.message}`)
        throw error
      }
      snapshots.delete(name)
      const createdAt = core.runtime.now().toISOString()
      snapshots.set(name, { snapshot, createdAt })
      return { name, createdAt }
    },
  },
  {
    method: 'POST',
    path: '/snapshots/{name}/restore',
    id: 'adminRestoreSnapshot',
    summary: 'Go back to a named snapshot (as often as wanted); the journal and faults are left as they are',
    status: 200,
    run: (core, { params }) => {
      const found = core.control.snapshots.get(params.name!)
      if (!found) throw new ApiError('NOT_FOUND', `No snapshot named "${params.name}"`)
      core.control.restore(found.snapshot)
      return { name: params.name, createdAt: found.createdAt }
    },
  },
  {
    method: 'DELETE',
    path: '/snapshots/{name}',
    id: 'adminDeleteSnapshot',
    summary: 'Forget a named snapshot',
    status: 204,
    run: (core, { params }) => {
      if (!core.control.snapshots.delete(params.name!)) throw new ApiError('NOT_FOUND', `No snapshot named "${params.name}"`)
      return undefined
    },
  },
  {
    method: 'GET',
    path: '/state',
    id: 'adminGetState',
    summary: 'The whole state as a state document (`api.dump()`)',
    status: 200,
    run: (core) => core.control.dump(),
  },
  {
    method: 'PUT',
    path: '/state',
    id: 'adminPutState',
    summary: 'Replace the whole state with a state document, loaded through the domain rules (a refused one changes nothing)',
    status: 200,
    body: z.record(z.string(), z.unknown()).meta({ description: 'A state document: rows by collection, as `GET /_admin/state` gives it.' }),
    bodyRequired: true,
    run: async (core, { body }) => {
      await core.control.replace(body)
      const doc = core.control.dump() as Record<string, unknown>
      const counts: Record<string, number> = {}
      for (const [key, value] of Object.entries(doc)) if (Array.isArray(value) && value.length > 0 && key !== 'blobs') counts[key] = value.length
      return { loaded: counts }
    },
  },
  {
    method: 'GET',
    path: '/journal',
    id: 'adminGetJournal',
    summary: 'The requests the API answered (`api.journal`), filtered, oldest first',
    status: 200,
    query: JournalQuery,
    run: (core, { query }) => {
      // Empty because it keeps nothing is not empty because nothing was asked: said, not answered `[]`.
      if (core.journal.limit === 0)
        throw new ApiError(
          'CONFLICT',
          'The journal keeps no requests (journalLimit 0): start `docs-content-api serve` with --journal (serve({ journal: true })), or give createDocsApi a journalLimit',
        )
      const q = query as z.output<typeof JournalQuery>
      const filter: JournalFilter = {}
      if (q.operationId !== undefined) filter.operationId = q.operationId
      if (q.status !== undefined) filter.status = q.status
      if (q.method !== undefined) filter.method = q.method
      if (q.user !== undefined) filter.user = q.user
      if (q.path !== undefined) filter.path = q.path
      let entries = core.journal.find(filter)
      if (q.fault !== undefined) entries = entries.filter((e) => e.fault === (q.fault === 'true'))
      if (q.since !== undefined) entries = entries.filter((e) => e.seq > q.since!)
      const total = entries.length
      entries = entries.slice(-(q.limit ?? 100))
      return { items: entries, count: total }
    },
  },
  {
    method: 'DELETE',
    path: '/journal',
    id: 'adminClearJournal',
    summary: 'Forget every journal entry',
    status: 204,
    run: (core) => void core.journal.clear(),
  },
  {
    method: 'GET',
    path: '/faults',
    id: 'adminListFaults',
    summary: 'The active faults, in the order added',
    status: 200,
    run: (core, _input, ids) => ({ items: core.faults.list().map((f) => ids.describe(f)) }),
  },
  {
    method: 'POST',
    path: '/faults',
    id: 'adminAddFault',
    summary: 'Make the next matching requests fail or wait (`api.faults.add`)',
    status: 201,
    body: FaultBody,
    bodyRequired: true,
    run: (core, { body }, ids) => {
      const { pathPattern, ...rest } = body as z.output<typeof FaultBody>
      if (pathPattern !== undefined && rest.path !== undefined)
        throw new ApiError('BAD_REQUEST', 'Invalid body field `pathPattern`: give `path` or `pathPattern`, not both')
      const spec: FaultSpec = { ...rest }
      if (pathPattern !== undefined) {
        try {
          spec.path = new RegExp(pathPattern)
        } catch (error) {
          throw new ApiError('BAD_REQUEST', `Invalid body field \`pathPattern\`: not a regular expression (${(error as Error).message})`)
        }
      }
      if (spec.status === undefined && spec.delayMs === undefined)
        throw new ApiError('BAD_REQUEST', 'Invalid body field `status`: give a status to answer, a delayMs to wait, or both')
      const fault = core.faults.add(spec)
      if (pathPattern !== undefined) ids.patterns.set(fault, pathPattern)
      return ids.describe(fault)
    },
  },
  {
    method: 'DELETE',
    path: '/faults',
    id: 'adminClearFaults',
    summary: 'Remove every fault',
    status: 204,
    run: (core) => void core.faults.clear(),
  },
  {
    method: 'DELETE',
    path: '/faults/{id}',
    id: 'adminDeleteFault',
    summary: 'Remove one fault',
    status: 204,
    run: (core, { params }, ids) => {
      const fault = core.faults.list().find((f) => ids.of(f) === params.id)
      if (!fault) throw new ApiError('NOT_FOUND', `No active fault with id "${params.id}" (a spent fault is gone)`)
      fault.remove()
      return undefined
    },
  },
  {
    method: 'POST',
    path: '/idle',
    id: 'adminIdle',
    summary: 'Answer once no background work is pending (`api.idle()`)',
    status: 200,
    run: async (core) => {
      await core.control.idle()
      return { idle: true }
    },
  },
  {
    method: 'GET',
    path: '/clock',
    id: 'adminGetClock',
    summary: 'The API\u2019s time, and whether it can be set',
    status: 200,
    run: (core) => ({ now: core.runtime.now().toISOString(), controllable: clockOf(core.runtime.now) !== undefined }),
  },
  {
    method: 'POST',
    path: '/clock/set',
    id: 'adminSetClock',
    summary: 'Set the API\u2019s clock (an API created with `now: createClock().now` only)',
    status: 200,
    body: ClockSetBody,
    bodyRequired: true,
    run: (core, { body }) => {
      controllable(core).set((body as z.output<typeof ClockSetBody>).at)
      return { now: core.runtime.now().toISOString() }
    },
  },
  {
    method: 'POST',
    path: '/clock/advance',
    id: 'adminAdvanceClock',
    summary: 'Move the API\u2019s clock by `ms` or a `duration` (an API created with `now: createClock().now` only)',
    status: 200,
    body: ClockAdvanceBody,
    bodyRequired: true,
    run: (core, { body }) => {
      const b = body as z.output<typeof ClockAdvanceBody>
      controllable(core).advance(b.ms ?? durationMs(b.duration!))
      return { now: core.runtime.now().toISOString() }
    },
  },
]

/** The routes of the control plane (for the OpenAPI document). */
export const ADMIN_ROUTES: readonly AdminRoute[] = ROUTES

function controllable(core: ApiCore) {
  const clock = clockOf(core.runtime.now)
  if (!clock)
    throw new ApiError(
      'CONFLICT',
      'This API\u2019s clock is not controllable: it was not created with a clock of createClock() (docs-content-api/testing) as its `now` option; it follows the real time',
    )
  return clock
}

/** Ids for faults (which have none in process): given when first listed, kept while the fault is. */
interface FaultIds {
  of(fault: Fault): string
  describe(fault: Fault): unknown
  /** The `pathPattern` a fault was added with, as given (a RegExp's `source` escapes slashes). */
  patterns: WeakMap<Fault, string>
}

function faultIds(): FaultIds {
  const ids = new WeakMap<Fault, string>()
  const patterns = new WeakMap<Fault, string>()
  let next = 0
  const of = (fault: Fault) => {
    let id = ids.get(fault)
    if (id === undefined) ids.set(fault, (id = `fault-${++next}`))
    return id
  }
  return {
    of,
    patterns,
    describe: (fault) => {
      const { path, ...spec } = fault.spec
      return {
        id: of(fault),
        ...spec,
        ...(path instanceof RegExp ? { pathPattern: patterns.get(fault) ?? path.source } : path !== undefined && { path }),
        hits: fault.hits,
        spent: fault.spent,
      }
    },
  }
}

/** Constant-time string comparison (the token must not leak through timing). */
function sameToken(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given)
  const b = new TextEncoder().encode(expected)
  let diff = a.length ^ b.length
  for (let i = 0; i < b.length; i++) diff |= (a[i % Math.max(a.length, 1)] ?? 0) ^ b[i]!
  return diff === 0
}

function matchPath(template: string, rest: string): Record<string, string> | undefined {
  const want = template.split('/')
  const got = rest.split('/')
  if (want.length !== got.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!
    if (w.startsWith('{')) {
      if (!got[i]) return undefined
      try {
        params[w.slice(1, -1)] = decodeURIComponent(got[i]!)
      } catch {
        return undefined
      }
    } else if (w !== got[i]) return undefined
  }
  return params
}

/** Whether a routed path is the control plane's. */
export const isAdminPath = (pathname: string): boolean => pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`)

/**
 * The control plane's handler: `pathname` is after the API's `basePath` and starts with the prefix.
 * Answers as the API does (`{"error":{"code","message"}}`); never journaled, never faulted.
 */
export function createAdminHandler(
  core: ApiCore,
  options: AdminOptions,
  onError: (error: unknown) => void,
): (request: Request, pathname: string, search: string) => Promise<Response> {
  const token = options.token
  if (token !== undefined && token.length < 16) throw new TypeError('admin.token must be at least 16 characters')
  const ids = faultIds()
  const answer = async (request: Request, pathname: string, search: string): Promise<Answer> => {
    if (token !== undefined) {
      const m = /^Bearer\s+(.+)$/i.exec((request.headers.get('authorization') ?? '').trim())
      const challenge = { 'www-authenticate': 'Bearer realm="docs-content-api control plane"' }
      if (!m) throw new ApiError('UNAUTHORIZED', `The control plane needs the admin token: send Authorization: Bearer <admin token>`, { headers: challenge })
      if (!sameToken(m[1]!.trim(), token))
        throw new ApiError('UNAUTHORIZED', 'Not the admin token (a user API token does not open the control plane)', { headers: challenge })
    }
    const rest = pathname.slice(ADMIN_PREFIX.length).replace(/\/+$/, '') || '/'
    const method = request.method === 'HEAD' ? 'GET' : request.method
    const onPath = ROUTES.map((r) => ({ r, params: matchPath(r.path, rest) })).filter((m) => m.params)
    if (onPath.length === 0) throw new ApiError('NOT_FOUND', `No control-plane route for ${request.method} ${pathname}`)
    const found = onPath.find((m) => m.r.method === method)
    if (!found) {
      const allow = onPath.map((m) => m.r.method).join(', ')
      throw new ApiError('METHOD_NOT_ALLOWED', `Method ${request.method} is not allowed on ${pathname}; allowed: ${allow}`, { headers: { allow } })
    }
    const route = found.r
    const query = route.query
      ? validate(route.query, Object.fromEntries(new URLSearchParams(search)), 'query parameter')
      : search && new URLSearchParams(search).size > 0
        ? validate(z.strictObject({}), Object.fromEntries(new URLSearchParams(search)), 'query parameter')
        : {}
    let body: unknown
    if (route.body) {
      const declared = Number(request.headers.get('content-length') ?? '0')
      if (declared > MAX_BODY_CHARS) throw new ApiError('PAYLOAD_TOO_LARGE', `The body is larger than ${MAX_BODY_CHARS} bytes`)
      const text = await request.text()
      if (text.length > MAX_BODY_CHARS) throw new ApiError('PAYLOAD_TOO_LARGE', `The body is larger than ${MAX_BODY_CHARS} characters`)
      if (text.trim() === '') {
        if (route.bodyRequired) throw new ApiError('BAD_REQUEST', 'A JSON body is required (Content-Type: application/json)')
      } else {
        const type = request.headers.get('content-type')
        if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type))
          throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json, got ${type}`)
        let parsed: unknown
        try {
          parsed = JSON.parse(text)
        } catch (error) {
          throw new ApiError('BAD_REQUEST', `The body is not JSON: ${(error as Error).message}`)
        }
        body = validate(route.body, parsed, 'body field')
      }
    }
    let result = route.run(core, { params: found.params!, query: query as Record<string, unknown>, body }, ids)
    if (result instanceof Promise) result = await result
    return jsonAnswer(route.status, route.status === 204 ? undefined : result)
  }
  return async (request, pathname, search) => {
    let out: Answer
    try {
      out = await answer(request, pathname, search)
    } catch (error) {
      out = errorAnswer(error, onError)
    }
    return toResponse(out, request.method === 'HEAD')
  }
}
