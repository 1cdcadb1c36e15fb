import fc from 'fast-check'
import type { OperationDef } from '../../src/index.js'
import { CONTENT_TYPES, HOSTILE_STRINGS, MALFORMED_BODIES, NUMERIC_QUERY_VALUES, UNKNOWN_IDS, longString, wrongTyped } from './hostile.js'
import type { FuzzRequest } from './requests.js'
import { canonicalOf } from './canonical.js'
import { CALLERS, MEMBER_CALLERS, type Caller } from './callers.js'
import type { FuzzWorld } from './world.js'
import { candidatesFor, idsForField, parentsOf } from './world-ids.js'
import { arbitraryOf } from './zod-arbitrary.js'

/**
 * Request generators for one operation: `validRequest` sends what the schemas accept (real ids
 * of the world most of the time), `hostileRequest` starts from one and breaks it (a field of the
 * wrong type, a missing field, a string past its limit, NaN-ish numbers, malformed or oversized
 * JSON, a wrong content type, unknown or foreign ids, a mangled Authorization header).
 */

const callerArb = fc.oneof({ arbitrary: fc.constantFrom(...MEMBER_CALLERS), weight: 8 }, { arbitrary: fc.constantFrom(...CALLERS), weight: 2 })

/**
 * Path parameters: the deepest one from the world's ids (the matrix target most often), the
 * others mostly its own parents (so a section comes under its own site and organization), and
 * now and then an unrelated or unknown id.
 */
function paramsArb(op: OperationDef, world: FuzzWorld): fc.Arbitrary<Record<string, string>> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
  if (!names.length) return fc.constant({})
  const one = (name: string) => {
    const ids = candidatesFor(world, name)
    const target = world.targets[name] ?? ids[0]!
    return fc.oneof(
      { arbitrary: fc.constant(target), weight: 5 },
      { arbitrary: fc.constantFrom(...ids), weight: 4 },
      { arbitrary: fc.constantFrom(...UNKNOWN_IDS), weight: 1 },
    )
  }
  const last = names[names.length - 1]!
  const others = names.slice(0, -1)
  return fc
    .tuple(
      one(last),
      fc.record(Object.fromEntries(others.map((n) => [n, one(n)]))),
      fc.array(fc.boolean(), { minLength: others.length, maxLength: others.length }),
    )
    .map(([id, random, coherent]) => {
      const parents = parentsOf(world, id)
      const out: Record<string, string> = { [last]: id }
      others.forEach((n, i) => (out[n] = coherent[i] !== false && parents[n] !== undefined ? parents[n]! : random[n]!))
      return out
    })
}

/** Query values are strings on the wire: numbers and booleans are sent as their text, arrays as repeated keys. */
export function queryPairs(value: unknown): Array<[string, string]> {
  if (!value || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([k, v]): Array<[string, string]> =>
    v === undefined ? [] : Array.isArray(v) ? v.map((x) => [k, String(x)]) : [[k, typeof v === 'object' ? JSON.stringify(v) : String(v)]],
  )
}

export function validRequest(op: OperationDef, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const idsFor = (field: string) => idsForField(world, field)
  const query: fc.Arbitrary<Array<[string, string]>> = op.query ? arbitraryOf(op.query, idsFor).map(queryPairs) : fc.constant([])
  const body = op.body ? arbitraryOf(op.body, idsFor).map((json) => (json === undefined ? undefined : { json })) : fc.constant(undefined)
  return fc.record({ caller: callerArb, params: paramsArb(op, world), query, body }).map(({ caller, params, query, body }) => {
    const req: FuzzRequest = { op: op.id, caller, method: op.method, params, query }
    if (body) req.body = body
    return req
  })
}

/**
 * A request likely to succeed: coherent path parameters and the schema's canonical body (required
 * fields only) whose id fields name random resources of the world. Random bodies rarely get past
 * validation on creating and moving operations; these do, so a batch of them writes for real.
 */
export function plausibleRequest(op: OperationDef, world: FuzzWorld, caller: Caller): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(paramsArb(op, world), fc.nat(), fc.boolean()).map(([params, n, withIds]) => {
    const idFor = (field: string) => {
      const ids = idsForField(world, field)
      return ids?.[(n + field.length) % ids.length]
    }
    const req: FuzzRequest = { op: op.id, caller, method: op.method, params, query: [] }
    if (op.body) req.body = { json: canonicalOf(op.body, idFor, '', withIds) }
    return req
  })
}

/** Every path into a JSON value (objects and arrays), the root first. */
function pathsOf(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [at]
  const children = Array.isArray(value) ? value.map((v, i) => pathsOf(v, [...at, i])) : Object.entries(value).map(([k, v]) => pathsOf(v, [...at, k]))
  return [at, ...children.flat()]
}

type Mutation = { kind: 'set'; value: unknown } | { kind: 'delete' } | { kind: 'addKey'; key: string; value: unknown }

function mutate(value: unknown, path: Array<string | number>, m: Mutation): unknown {
  if (path.length === 0) {
    if (m.kind === 'set') return m.value
    if (m.kind === 'addKey' && value && typeof value === 'object' && !Array.isArray(value)) return { ...value, [m.key]: m.value }
    return m.kind === 'delete' ? undefined : value
  }
  const [head, ...rest] = path
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) }
  if (rest.length === 0 && m.kind === 'delete') {
    if (Array.isArray(copy)) copy.splice(head as number, 1)
    else delete copy[head!]
    return copy
  }
  copy[head!] = mutate(copy[head!], rest, m)
  return copy
}

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  wrongTyped.map((value): Mutation => ({ kind: 'set', value })),
  longString(undefined).map((value): Mutation => ({ kind: 'set', value })),
  fc.constant<Mutation>({ kind: 'delete' }),
  fc
    .tuple(fc.constantFrom('__proto__', 'constructor', 'unknownKey', 'id', 'object'), wrongTyped)
    .map(([key, value]): Mutation => ({ kind: 'addKey', key, value })),
)

/** One way to break a request; several may apply to the same request. */
function breakage(op: OperationDef, world: FuzzWorld): fc.Arbitrary<(req: FuzzRequest) => FuzzRequest> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
  const foreign = [world.orgs.foreign, ...Object.values(world.candidates).map((ids) => ids[ids.length - 1]!)]
  type Way = fc.WeightedArbitrary<(req: FuzzRequest) => FuzzRequest>
  const ways: Way[] = [
    // A query parameter with a surprising value (the list paging ones most of all).
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom('limit', 'page', 'order', 'sort', 'nested', 'default', 'shareKey', 'search', 'type', 'published', 'role'),
          fc.constantFrom(...NUMERIC_QUERY_VALUES, ...HOSTILE_STRINGS, 'eyJhIjoxfQ', 'WyJ4Il0', 'W1sxXV0', 'W251bGxd'),
          fc.boolean(),
        )
        .map(([k, v, twice]) => (req) => ({ ...req, query: twice ? [...req.query, [k, v], [k, v]] : [...req.query.filter(([x]) => x !== k), [k, v]] })),
    },
    // A mangled Authorization header, or a Prefer header.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom<Record<string, string>>(
          { authorization: 'Bearer' },
          { authorization: 'Basic YTpi' },
          { authorization: 'bearer  gb_api_x  ' },
          { authorization: `Bearer ${'x'.repeat(5000)}` },
          { prefer: 'return=minimal' },
          { 'content-length': '99999999' },
        )
        .map((headers) => (req) => ({ ...req, headers: { ...req.headers, ...headers } })),
    },
  ]
  // A path parameter that names nothing, or a resource of the foreign organization.
  if (names.length) {
    ways.push({
      weight: 4,
      arbitrary: fc
        .tuple(fc.constantFrom(...names), fc.constantFrom(...UNKNOWN_IDS, ...HOSTILE_STRINGS.filter(Boolean), ...foreign))
        .map(([n, v]) => (req) => ({ ...req, params: { ...req.params, [n]: v } })),
    })
  }
  if (op.body) {
    const jsonOf = (req: FuzzRequest) => (req.body && 'json' in req.body ? req.body.json : {})
    ways.push(
      // One field of the body: a wrong type, removed, past every length limit, or an extra key.
      {
        weight: 8,
        arbitrary: fc.tuple(fc.nat(), mutationArb).map(([n, m]) => (req) => {
          const paths = pathsOf(jsonOf(req))
          return { ...req, body: { json: mutate(jsonOf(req), paths[n % paths.length]!, m) } }
        }),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom(...MALFORMED_BODIES), fc.constantFrom('application/json', ...CONTENT_TYPES))
          .map(([text, contentType]) => (req) => ({ ...req, body: { text, contentType } })),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...CONTENT_TYPES).map((contentType) => (req) => ({ ...req, body: { text: JSON.stringify(jsonOf(req)), contentType } })),
      },
      { weight: 1, arbitrary: fc.constantFrom(1024 * 1024 + 1, 1_500_000).map((oversize) => (req) => ({ ...req, body: { oversize } })) },
    )
  }
  return fc.oneof(...ways)
}

export function hostileRequest(op: OperationDef, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(validRequest(op, world), fc.array(breakage(op, world), { minLength: 1, maxLength: 3 }))
    .map(([req, breaks]) => breaks.reduce((r, b) => b(r), req))
}
