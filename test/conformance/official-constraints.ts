import fc from 'fast-check'
import { matching } from '../fuzz/zod-arbitrary.js'
import { officialValidator, resolveOfficial } from './official.js'

/**
 * The constraints an official request schema puts on its fields, found by walking the schema
 * ($refs resolved, allOf parts merged, each oneOf/anyOf option on its own), and bodies that
 * satisfy the schema, or break exactly one of its constraints. Used by official-limits.test.ts.
 */

/** A step from a schema node to a part of it: a property, an array's item, a map's entry, a composition's part. */
export type Step = { prop: string } | { item: true } | { entry: string } | { part: 'allOf' | 'oneOf' | 'anyOf'; index: number }

export const KEYWORDS = [
  'maxLength',
  'minLength',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'pattern',
  'enum',
  'const',
  'maxItems',
  'minItems',
] as const
export type Keyword = (typeof KEYWORDS)[number]

/** One constraint of the schema: where it is (the route), which keyword, on which schema node. */
export interface Constraint {
  route: Step[]
  keyword: Keyword
  node: any
  /** The route as a reader writes it: `mergeRules<oneOf0>.rules[]<oneOf4>.expression`. */
  label: string
}

/** A map's entry is written under this key, unless its names are constrained (`propertyNames`). */
const ENTRY_KEY = 'key'

export function labelOf(route: readonly Step[]): string {
  let out = ''
  for (const step of route) {
    if ('prop' in step) out += out ? `.${step.prop}` : step.prop
    else if ('item' in step) out += '[]'
    else if ('entry' in step) out += '{*}'
    else out += `<${step.part}${step.index}>`
  }
  return out || '(body)'
}

/** The JSON path a route reaches in a body built by `bodyFor` (compositions add nothing; items are the first). */
export function jsonPath(route: readonly Step[]): Array<string | number> {
  return route.flatMap((step): Array<string | number> => ('prop' in step ? [step.prop] : 'item' in step ? [0] : 'entry' in step ? [step.entry] : []))
}

const refName = (node: any): string | undefined => (typeof node?.$ref === 'string' ? node.$ref.split('/').pop() : undefined)

/**
 * Every constraint of `schema`, except inside the components named in `skip` (walked and
 * validated elsewhere, e.g. documents). A component met again below itself is not walked again.
 */
export function constraintsOf(schema: any, skip: ReadonlySet<string>, route: Step[] = [], seen: ReadonlySet<string> = new Set()): Constraint[] {
  const name = refName(schema)
  if (name && (skip.has(name) || seen.has(name))) return []
  const inner = name ? new Set([...seen, name]) : seen
  const node = resolveOfficial(schema)
  if (!node || typeof node !== 'object') return []
  const out: Constraint[] = KEYWORDS.filter((k) => k in node).map((keyword) => ({ route, keyword, node, label: labelOf(route) }))
  for (const part of ['allOf', 'oneOf', 'anyOf'] as const) {
    ;(node[part] ?? []).forEach((option: any, index: number) => out.push(...constraintsOf(option, skip, [...route, { part, index }], inner)))
  }
  for (const [prop, child] of Object.entries<any>(node.properties ?? {})) out.push(...constraintsOf(child, skip, [...route, { prop }], inner))
  if (node.items) out.push(...constraintsOf(node.items, skip, [...route, { item: true }], inner))
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    const entry = node.propertyNames ? String(bodyFor(node.propertyNames)) : ENTRY_KEY
    out.push(...constraintsOf(node.additionalProperties, skip, [...route, { entry }], inner))
  }
  return out
}

const isNullSchema = (schema: any) => {
  const node = resolveOfficial(schema)
  return node?.type === 'null' || (Array.isArray(node?.enum) && node.enum.every((v: unknown) => v === null))
}

const PATTERN_STRINGS = new Map<string, string>()

/** A string the node takes: its format's, its pattern's, or plain text, of a length it allows. */
function stringFor(node: any): string {
  const min = node.minLength ?? 0
  const max = node.maxLength ?? Infinity
  const fits = (s: string) => [...s].length >= min && [...s].length <= max
  if (node.format === 'uri') return 'https://example.com/x'
  if (node.format === 'date-time') return '2026-01-01T00:00:00.000Z'
  if (node.format === 'emoji') return '😀'
  if (node.format === 'email') return 'someone@example.com'
  if (node.pattern) {
    // Sampled once per pattern and lengths: a list of 500 items builds its item 500 times.
    const key = JSON.stringify([node.pattern, min, max])
    let found = PATTERN_STRINGS.get(key)
    if (found === undefined) {
      // `matching`: fast-check builds no strings for lookaheads (the redirect source pattern has two).
      const sample = fc.sample(matching(new RegExp(node.pattern)), { seed: 7, numRuns: 300 }).filter(fits)
      // The shortest readable one: fewer surprises for the schema under test.
      const readable = sample.filter((s) => /^[\x21-\x7e]+$/.test(s))
      PATTERN_STRINGS.set(key, (found = (readable.length ? readable : sample).sort((a, b) => a.length - b.length)[0] ?? ''))
    }
    return found
  }
  const text = 'value'.padEnd(min, 'x')
  return max === Infinity ? text : [...text].slice(0, max).join('')
}

/**
 * A value `schema` takes; along `route` the composition parts, properties, items and entries it
 * names are the ones built, and the node at its end is `leaf` (when given). Objects carry their
 * required properties; unions their first option that is not `null`; a node with properties of
 * its own and a composition is both, merged.
 */
export function bodyFor(schema: any, route: readonly Step[] = [], leaf?: { value: unknown }): unknown {
  const node = resolveOfficial(schema)
  if (route.length === 0 && leaf) return leaf.value
  if ('const' in node) return node.const
  if (node.enum) return node.enum.find((v: unknown) => v !== null) ?? node.enum[0]
  const [step, ...rest] = route
  const along = (part: string, index: number) => step !== undefined && 'part' in step && step.part === part && step.index === index
  const type = Array.isArray(node.type) ? node.type.find((t: string) => t !== 'null') : node.type
  const parts: unknown[] = []
  if (type === 'object' || node.properties || node.required || node.additionalProperties) {
    const own: Record<string, unknown> = {}
    for (const key of node.required ?? []) if (node.properties?.[key]) own[key] = bodyFor(node.properties[key])
    if (step && 'prop' in step) own[step.prop] = bodyFor(node.properties[step.prop], rest, leaf)
    if (step && 'entry' in step) own[step.entry] = bodyFor(node.additionalProperties, rest, leaf)
    parts.push(own)
  }
  ;(node.allOf ?? []).forEach((part: any, i: number) => parts.push(along('allOf', i) ? bodyFor(part, rest, leaf) : bodyFor(part)))
  for (const kind of ['oneOf', 'anyOf'] as const) {
    if (!node[kind]) continue
    const index = node[kind].findIndex((_: unknown, i: number) => along(kind, i))
    parts.push(index >= 0 ? bodyFor(node[kind][index], rest, leaf) : bodyFor(node[kind].find((o: any) => !isNullSchema(o)) ?? node[kind][0]))
  }
  if (parts.length) {
    const objects = parts.filter((p) => p !== null && typeof p === 'object' && !Array.isArray(p))
    return objects.length === parts.length ? Object.assign({}, ...objects) : parts.find((p) => !objects.includes(p))
  }
  if (type === 'array') {
    // `minLength` on an array is a slip of the official document for `minItems`: honour it the same way.
    const length = Math.max(node.minItems ?? 0, node.minLength ?? 0, step && 'item' in step ? 1 : 0)
    return Array.from({ length }, (_, i) => (i === 0 && step && 'item' in step ? bodyFor(node.items, rest, leaf) : bodyFor(node.items ?? {})))
  }
  if (type === 'string') return stringFor(node)
  if (type === 'number' || type === 'integer') {
    const low = node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : 1)
    return Math.min(low, node.maximum ?? Infinity)
  }
  if (type === 'boolean') return true
  if (type === 'null') return null
  return 'value'
}

const codePoints = (s: string) => [...s]

/**
 * A value that breaks exactly `keyword` of `node` (every other constraint of the node holds), built
 * from `valid`; undefined when none exists (a pattern no other string of the allowed lengths misses).
 */
export function violationOf(node: any, keyword: Keyword, valid: unknown): unknown {
  const without = { ...node }
  delete without[keyword]
  const candidates = (): unknown[] => {
    switch (keyword) {
      case 'maxLength': {
        const s = codePoints(String(valid))
        const last = s.at(-1) ?? 'x'
        return [
          s.concat(Array(node.maxLength + 1 - s.length).fill(last)).join(''),
          'x'.repeat(node.maxLength + 1),
          `https://example.com/${'x'.repeat(node.maxLength)}`,
        ]
      }
      case 'minLength':
        return node.minLength > 0
          ? [
              codePoints(String(valid))
                .slice(0, node.minLength - 1)
                .join(''),
            ]
          : []
      case 'maximum':
        return [node.maximum + 1, node.maximum + 0.5]
      case 'exclusiveMaximum':
        return [node.exclusiveMaximum]
      case 'minimum':
        return [node.minimum - 1, node.minimum - 0.5]
      case 'exclusiveMinimum':
        return [node.exclusiveMinimum]
      case 'pattern': {
        const s = String(valid)
        return ['', ' ', `${s} `, ` ${s}`, `${s}!`, `!${s}`, `${s}--${s}`, `${s}/`, 'a b', '-', '.', `${s}:${s}`]
      }
      case 'enum':
      case 'const':
        return typeof valid === 'boolean' ? [!valid] : typeof valid === 'number' ? [valid + 1000] : ['not-an-official-value', 'value']
      case 'maxItems':
        return [Array.from({ length: node.maxItems + 1 }, () => bodyFor(node.items ?? {}))]
      case 'minItems':
        return node.minItems > 0 ? [Array.from({ length: node.minItems - 1 }, () => bodyFor(node.items ?? {}))] : []
    }
  }
  return candidates().find((value) => !officialValidator(node)(value) && officialValidator(without)(value))
}
