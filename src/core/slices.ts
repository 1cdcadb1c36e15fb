/**
 * Long work in slices, so one job never holds the event loop: the work calls `maybeYield()`
 * between small steps, and once the current slice has run `budgetMs` it waits for a macrotask
 * (`setTimeout`, so timers, I/O and other requests run in between) before the next slice. A
 * microtask would not do: the event loop only turns between macrotasks.
 */
export interface Slicer {
  /** Undefined while the slice has time left (nothing to wait for); once it is spent, a promise resolved on a later turn of the event loop. */
  maybeYield(): Promise<void> | undefined
}

export function createSlicer(budgetMs: number): Slicer {
  let start = performance.now()
  return {
    maybeYield() {
      if (performance.now() - start < budgetMs) return undefined
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          start = performance.now()
          resolve()
        }, 0),
      )
    },
  }
}
