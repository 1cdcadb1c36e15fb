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

/**
 * `deepFreeze` in slices, for values too large to freeze in one turn of the event loop (a batch's
 * documents, frozen before its transaction, which then finds them frozen and stops at once):
 * iterative, with a turn of the loop whenever `slicer` says the slice has run its budget.
 */
export async function deepFreezeInSlices(value: unknown, slicer: { due(): boolean; maybeYield(): Promise<void> | undefined }): Promise<void> {
  const stack: unknown[] = [value]
  let steps = 0
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) continue
    Object.freeze(v)
    for (const key in v) {
      const child = (v as Record<string, unknown>)[key]
      if (typeof child === 'object' && child !== null) stack.push(child)
    }
    if (++steps % 256 === 0 && slicer.due()) await slicer.maybeYield()
  }
}
