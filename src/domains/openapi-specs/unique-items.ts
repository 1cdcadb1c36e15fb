/**
 * The `uniqueItems` check of the specifications' schemas (schema-check.ts), which the generated
 * validators (generated/*.js, scripts/spec-schemas.ts) call: ajv's own compares each item with
 * every other (quadratic: an operation with a very long list of parameters would hold the event
 * loop); this one keys each item by its canonical JSON, in linear time.
 */

/** JSON with sorted keys: two values are deeply equal when their canonical JSON is the same. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined'
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  const keys = Object.keys(value).sort()
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`
}

/** The first item equal to an earlier one, as `[its index, the earlier one's]`; undefined when all are distinct. */
export function duplicateOf(data: readonly unknown[]): [number, number] | undefined {
  const seen = new Map<string, number>()
  for (let i = 0; i < data.length; i++) {
    const key = canonical(data[i])
    const earlier = seen.get(key)
    if (earlier !== undefined) return [i, earlier]
    seen.set(key, i)
  }
  return undefined
}
