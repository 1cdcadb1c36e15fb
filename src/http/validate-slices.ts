import { z } from 'zod'
import type { Slicer } from '../core/slices.js'
import { validationError, type Where } from './codec.js'

/**
 * Validation of a large body in slices, so a body of several MiB (a content batch of 50 large
 * documents) does not hold the event loop while zod walks it: an object whose field is a list is
 * validated item by item, with a turn of the event loop whenever the slice has run its budget,
 * and the rest of it once. The answer and its errors are what `validate` gives (an item's issues
 * are named by their full path); other schemas are validated in one piece.
 */
export async function validateInSlices(
  schema: z.ZodType,
  value: unknown,
  where: Where,
  slicer: Slicer,
  context?: z.core.ParseContext<z.core.$ZodIssue>,
): Promise<unknown> {
  const split = splitOf(schema, value)
  if (!split) {
    const result = schema.safeParse(value, context)
    if (!result.success) throw validationError(where, result.error, value)
    return result.data
  }
  const { key, element, rest } = split
  const items = (value as Record<string, unknown[]>)[key]!
  const issues: z.core.$ZodIssue[] = []
  const outputs: unknown[] = []
  for (let i = 0; i < items.length; i++) {
    const result = element.safeParse(items[i], context)
    if (result.success) outputs.push(result.data)
    else for (const issue of result.error.issues) issues.push({ ...issue, path: [key, i, ...issue.path] })
    if (slicer.due()) await slicer.maybeYield()
  }
  // The other fields, and the list's own rules (its length), with items already checked taken as they are.
  const others = rest.safeParse(value, context)
  if (!others.success) issues.push(...others.error.issues)
  if (issues.length > 0) {
    // In the order validate reports them: by the field they are in, in the schema's order.
    const keys = Object.keys((schema as z.ZodObject).shape)
    const rank = (issue: z.core.$ZodIssue) => (issue.path.length === 0 ? keys.length : keys.indexOf(String(issue.path[0])))
    throw validationError(
      where,
      new z.ZodError(
        issues
          .map((issue, i) => [issue, i] as const)
          .sort(([a, i], [b, j]) => rank(a) - rank(b) || i - j)
          .map(([issue]) => issue),
      ),
      value,
    )
  }
  return { ...(others.data as Record<string, unknown>), [key]: outputs }
}

interface Split {
  key: string
  /** The schema of the list's items. */
  element: z.ZodType
  /** The object's schema with that list's items taken as they are. */
  rest: z.ZodType
}

/** Per object schema, per field: the split of its schema (made once). */
const splits = new WeakMap<z.ZodType, Map<string, Split | null>>()

type Def = { type: string; element?: z.ZodType; innerType?: z.ZodType }
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def

/** How to validate `value` in slices: by the items of its one list field of more than one item, if its schema is an object with such a field. */
function splitOf(schema: z.ZodType, value: unknown): Split | undefined {
  if (defOf(schema).type !== 'object' || value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const shape = (schema as z.ZodObject).shape
  const key = Object.keys(shape).find(
    (k) => Array.isArray((value as Record<string, unknown>)[k]) && (value as Record<string, unknown[]>)[k]!.length > 1 && listOf(shape[k]!) !== undefined,
  )
  if (key === undefined) return undefined
  let byKey = splits.get(schema)
  if (!byKey) splits.set(schema, (byKey = new Map()))
  let split = byKey.get(key)
  if (split === undefined) {
    const field = shape[key]!
    const list = listOf(field)!
    // The same list (its length rules) of items taken as they are; optional when the field was.
    const anyItems = (list as unknown as { clone(def: object): z.ZodType }).clone({ ...defOf(list), element: z.any() })
    const replaced = defOf(field).type === 'optional' ? anyItems.optional() : anyItems
    // safeExtend: a schema with refinements cannot be extended otherwise (they see the items as sent).
    split = { key, element: defOf(list).element!, rest: (schema as z.ZodObject).safeExtend({ [key]: replaced }) }
    byKey.set(key, split)
  }
  return split ?? undefined
}

/** The list schema of a field (itself, or inside `optional`), if it is one. */
function listOf(field: z.ZodType): z.ZodType | undefined {
  const def = defOf(field)
  if (def.type === 'array') return field
  if (def.type === 'optional' && def.innerType && defOf(def.innerType).type === 'array') return def.innerType
  return undefined
}
