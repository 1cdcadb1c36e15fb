import fc from 'fast-check'
import type { z } from 'zod'
import { HOSTILE_STRINGS, HOSTILE_URLS } from './hostile.js'
import { pathologicalMarkdown } from './pathological.js'

/**
 * zod 4 schemas to fast-check arbitraries, by walking `schema._zod.def`. No maintained library
 * does this for zod 4 with fast-check 4 (zod-fast-check 0.10 wants zod 3 and fast-check < 4).
 * Values respect the declared types and checks (lengths, bounds, regex, formats); refinements
 * (`.refine`) are not solved, so a few generated values are still a 400, which is fine for a
 * fuzzer. The walk knows the def types the operation table uses; an unknown one yields
 * `fc.anything()`, so a new schema feature degrades the fuzzing instead of breaking the suite.
 */

/** Ids for a string field, by the field's name (undefined: not an id field). */
export type IdsFor = (field: string) => readonly string[] | undefined

// The def fields we read; zod's own def types differ per kind, so the walk reads them loosely.
interface Def {
  type: string
  checks?: Array<{ _zod: { def: CheckDef } }>
  [key: string]: any
}
interface CheckDef {
  check: string
  format?: string
  pattern?: RegExp
  minimum?: number
  maximum?: number
  length?: number
  value?: number | bigint
  inclusive?: boolean
}

export const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def
const checksOf = (def: Def): CheckDef[] => (def.checks ?? []).map((c) => c._zod.def)

/** Whether a schema is a bare transform (the input side of `z.preprocess`). */
export const isTransform = (schema: z.ZodType): boolean => defOf(schema).type === 'transform'

/** Whether an object field may be left out. */
export function isOptional(schema: z.ZodType): boolean {
  const t = defOf(schema).type
  return t === 'optional' || t === 'default' || t === 'prefault' || t === 'catch'
}

/** Length bounds of a string or array from its checks. */
export function lengthBounds(def: Def): { min: number; max: number | undefined } {
  let min = 0
  let max: number | undefined
  for (const c of checksOf(def)) {
    if (c.check === 'min_length') min = Math.max(min, c.minimum!)
    if (c.check === 'max_length') max = Math.min(max ?? Infinity, c.maximum!)
    if (c.check === 'length_equals') min = max = c.length!
  }
  return { min, max }
}

/** The regex or format a string must match, if any. */
export function stringFormat(def: Def): { format?: string; pattern?: RegExp } {
  const check = checksOf(def).find((c) => c.check === 'string_format')
  if (check) return { format: check.format!, pattern: check.pattern! }
  return def.format ? { format: def.format, pattern: def.pattern } : {}
}

function numberBounds(def: Def): { min: number; max: number; int: boolean } {
  let min = -1e9
  let max = 1e9
  let int = false
  for (const c of checksOf(def)) {
    if (c.check === 'greater_than') min = Number(c.value) + (c.inclusive ? 0 : 1)
    if (c.check === 'less_than') max = Number(c.value) - (c.inclusive ? 0 : 1)
    if (c.check === 'number_format' && /int/.test(c.format ?? '')) int = true
  }
  return { min, max, int }
}

/**
 * A string of length in [min, max]: for an id field mostly the world's ids, else any text, with
 * hostile strings mixed in when they fit (zod counts UTF-16 units, so long ones are cut to fit).
 */
function boundedString(min: number, max: number | undefined, ids: readonly string[]): fc.Arbitrary<string> {
  const fits = (s: string) => s.length >= min && (max === undefined || s.length <= max)
  const cap = Math.min(max ?? 40, Math.max(min, 40))
  const fit = (s: string) => (max !== undefined && s.length > max ? s.slice(0, max) : s)
  // Not `unit: 'binary'`: its first shrink builds a map of every code point; the hostile strings
  // bring the code units a grapheme never has (lone surrogates, NUL).
  const text = fc
    .oneof(fc.string({ minLength: min, maxLength: cap, unit: 'grapheme' }), fc.string({ minLength: min, maxLength: cap, unit: 'binary-ascii' }))
    .map(fit)
  const hostile = HOSTILE_STRINGS.filter(fits)
  const known = ids.filter(fits)
  const parts: Array<fc.WeightedArbitrary<string>> = [{ arbitrary: text, weight: 2 }]
  if (hostile.length) parts.push({ arbitrary: fc.constantFrom(...hostile), weight: 2 })
  if (known.length) parts.push({ arbitrary: fc.constantFrom(...known), weight: 12 })
  return fc.oneof(...parts)
}

/**
 * Strings matching a regex. fast-check refuses flags (`i`, `s`) and lookaheads, so it generates
 * from the source without them and keeps what the real regex accepts.
 */
export function matching(pattern: RegExp): fc.Arbitrary<string> {
  const simpler = pattern.source.replace(/\(\?[=!][^()]*\)/g, '')
  return fc.stringMatching(new RegExp(simpler)).filter((s) => pattern.test(s))
}

// Built once: constructing fc.webUrl tokenizes its percent-encoding alphabet (a second each time).
const WEB_URL = fc.webUrl({ size: 'small' })
const BAD_URL = fc.constantFrom(...HOSTILE_URLS)
/** Markdown built to be slow to parse (test/fuzz/pathological.ts), at most this long in a fuzzed field. */
const PATHOLOGICAL_BYTES = 64_000
const EMAIL = fc.emailAddress()

function stringArbitrary(def: Def, field: string, idsFor: IdsFor): fc.Arbitrary<string> {
  const { format, pattern } = stringFormat(def)
  const { min, max } = lengthBounds(def)
  if (format === 'email') return EMAIL
  // A URL field is fetched (a file, a spec, a Git remote) or shown as a link: now and then one no request may reach or carry.
  if (format === 'url')
    return fc.oneof({ arbitrary: WEB_URL, weight: 3 }, { arbitrary: BAD_URL, weight: 1 }).filter((u) => max === undefined || u.length <= max)
  if (pattern) return matching(pattern).filter((s) => s.length >= min && (max === undefined || s.length <= max))
  // A markdown field is parsed: now and then markdown built to make a parser quadratic.
  if (field === 'markdown') {
    return fc.oneof(
      { arbitrary: boundedString(min, max, []), weight: 2 },
      { arbitrary: pathologicalMarkdown(Math.min(max ?? PATHOLOGICAL_BYTES, PATHOLOGICAL_BYTES)), weight: 1 },
    )
  }
  return boundedString(min, max, idsFor(field) ?? [])
}

/** An arbitrary of values the schema accepts (refinements aside). `field` names the value for `idsFor`. */
export function arbitraryOf(schema: z.ZodType, idsFor: IdsFor, field = '', depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema)
  const inner = (s: z.ZodType, name = field) => arbitraryOf(s, idsFor, name, depth + 1)
  if (depth > 12) return fc.constant(undefined)
  switch (def.type) {
    case 'string':
      return stringArbitrary(def, field, idsFor)
    case 'number': {
      const { min, max, int } = numberBounds(def)
      const n = int ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) }) : fc.double({ min, max, noNaN: true })
      return def.coerce ? n.map(String) : n
    }
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]))
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>))
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return inner(def.innerType)
    case 'nullable':
      return fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: inner(def.innerType), weight: 3 })
    case 'pipe':
      // The input side: a transform's output is never what a client sends. A preprocess (a
      // transform feeding a schema) is the other way round: what it feeds is what is sent.
      return inner(isTransform(def.in) ? def.out : def.in)
    case 'lazy':
      return inner(def.getter())
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((o) => inner(o)))
    case 'array': {
      const { min, max } = lengthBounds(def)
      return fc.array(inner(def.element), { minLength: min, maxLength: Math.min(max ?? 4, Math.max(min, 4)) })
    }
    case 'record':
      return fc.dictionary(inner(def.keyType, '') as fc.Arbitrary<string>, inner(def.valueType), { maxKeys: 3 })
    case 'object':
      return objectArbitrary(def, idsFor, depth)
    default:
      // never, unknown, any and kinds this walk does not know.
      return def.type === 'never' ? fc.constant(undefined) : fc.anything({ maxDepth: 2 })
  }
}

function objectArbitrary(def: Def, idsFor: IdsFor, depth: number): fc.Arbitrary<unknown> {
  const shape = def.shape as Record<string, z.ZodType>
  const keys = Object.keys(shape)
  const fields = Object.fromEntries(keys.map((k) => [k, arbitraryOf(shape[k]!, idsFor, k, depth + 1)]))
  const requiredKeys = keys.filter((k) => !isOptional(shape[k]!))
  const record = fc.record(fields, { requiredKeys })
  const catchall = def.catchall && defOf(def.catchall).type !== 'never' ? def.catchall : undefined
  if (!catchall) return record
  const extra = fc.dictionary(fc.stringMatching(/^[A-Za-z_]\w{0,8}$/), arbitraryOf(catchall, idsFor, '', depth + 1), { maxKeys: 2 })
  return fc.tuple(record, extra).map(([r, e]) => ({ ...e, ...(r as object) }))
}
