/**
 * Long synchronous work (laying out a PDF, indexing a space...) cut into slices, so one request
 * never holds the event loop for long: the work checks `due()` between small steps and, once the
 * slice has run `budgetMs`, awaits `maybeYield()`, which lets timers, I/O and other requests run
 * (a macrotask, not a microtask: a resolved promise would not let them in) and starts a new slice.
 *
 * @example
 * const slicer = createSlicer(20)
 * for (const item of items) {
 *   work(item)
 *   if (slicer.due()) await slicer.maybeYield()
 * }
 */
export interface Slicer {
  /** Whether the current slice has run its budget (one clock read: cheap enough for every step). */
  due(): boolean
  /** A turn of the event loop when the slice is due (then a new slice starts); nothing otherwise. */
  maybeYield(): Promise<void> | undefined
}

/** The default slice: well under the 100 ms a request may hold the loop, long enough that the turns cost little. */
export const SLICE_MS = 20

/** Resolve in a later turn of the event loop (a macrotask), so what waits to run gets its turn first. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}

export function createSlicer(budgetMs = SLICE_MS): Slicer {
  let start = performance.now()
  const due = () => performance.now() - start >= budgetMs
  return {
    due,
    maybeYield() {
      if (!due()) return undefined
      return nextTurn().then(() => {
        start = performance.now()
      })
    },
  }
}
