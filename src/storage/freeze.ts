/**
 * Freeze a row and everything in it (rows are JSON-like: plain objects and arrays): what a store
 * hands out cannot be changed by its caller. Shared by the adapters.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  Object.freeze(value)
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key]
    if (typeof v === 'object' && v !== null) deepFreeze(v)
  }
  return value
}
