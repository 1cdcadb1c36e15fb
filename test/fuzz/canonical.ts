import fc from 'fast-check'
import type { z } from 'zod'
import { defOf, isOptional, isTransform, lengthBounds, matching, stringFormat } from './zod-arbitrary.js'

/**
 * One deterministic, minimal valid value of a schema: required fields only (optional ones are
 * added one by one only when a refinement needs them), the first enum member, the first union
 * option, strings named like ids filled by `idFor`. This is the body the authorization matrix
 * sends, so it must be a request an authorized caller can succeed with.
 */
export type IdFor = (field: string) => string | undefined

/**
 * `withIds`: also fill optional fields that `idFor` knows (one id in an id array), for bodies
 * that should name resources (grants to users and teams, spaces of a new site...).
 */
export function canonicalOf(schema: z.ZodType, idFor: IdFor, field = '', withIds = false): unknown {
  const def = defOf(schema)
  const inner = (s: z.ZodType, name = field) => canonicalOf(s, idFor, name, withIds)
  switch (def.type) {
    case 'string': {
      const id = idFor(field)
      if (id !== undefined) return id
      const { format, pattern } = stringFormat(def)
      const { min, max } = lengthBounds(def)
      if (format === 'email') return 'fuzz@acme.test'
      if (format === 'url') return 'https://example.com/fuzz.png'
      const fits = (s: string) => s.length >= min && (max === undefined || s.length <= max)
      if (pattern) return fc.sample(matching(pattern), { seed: 1, numRuns: 50 }).find(fits)
      const text = 'Fuzz value'.padEnd(min, '!')
      return max === undefined ? text : text.slice(0, max)
    }
    case 'number': {
      let n = 1
      for (const c of (def.checks ?? []).map((x) => x._zod.def)) {
        if (c.check === 'greater_than') n = Math.max(n, Number(c.value))
        if (c.check === 'less_than') n = Math.min(n, Number(c.value))
      }
      return def.coerce ? String(n) : n
    }
    case 'boolean':
      return true
    case 'null':
      return null
    case 'literal':
      return def.values[0]
    case 'enum':
      return Object.values(def.entries)[0]
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
    case 'nullable':
      return inner(def.innerType)
    case 'pipe':
      return inner(isTransform(def.in) ? def.out : def.in)
    case 'lazy':
      return inner(def.getter())
    case 'union':
      return inner(def.options[0])
    case 'array': {
      const { min, max } = lengthBounds(def)
      const length = withIds && idFor(field) !== undefined && (max ?? 1) >= 1 ? Math.max(min, 1) : min
      return Array.from({ length }, () => inner(def.element))
    }
    case 'record':
      return {}
    case 'object':
      return canonicalObject(schema, idFor, withIds)
    default:
      return undefined
  }
}

function canonicalObject(schema: z.ZodType, idFor: IdFor, withIds: boolean): Record<string, unknown> {
  const shape = defOf(schema).shape as Record<string, z.ZodType>
  const out: Record<string, unknown> = {}
  for (const [key, s] of Object.entries(shape)) {
    if (!isOptional(s) || (withIds && idFor(key) !== undefined)) out[key] = canonicalOf(s, idFor, key, withIds)
  }
  // A refinement may need an optional field (`give active or name`): add them until it passes.
  for (const [key, s] of Object.entries(shape)) {
    if (schema.safeParse(out).success) break
    if (isOptional(s) && !(key in out)) out[key] = canonicalOf(s, idFor, key, withIds)
  }
  return out
}
