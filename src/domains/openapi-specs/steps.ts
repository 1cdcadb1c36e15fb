import type { Slicer } from '../../core/slices.js'

/**
 * Work written as a generator that yields (nothing) at points where it may pause: the same code
 * runs at once (`runAtOnce`, for a request that needs the answer now) or in slices that give the
 * event loop back between them (`runInSlices`, for a background job). A long loop yields every
 * `STEP` items or so; `yield*` composes steps.
 */
export type Steps<T> = Generator<void, T, void>

/** Yield every this many items of a loop (a clock read per item would cost more than the item). */
export const STEP = 1024

export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
  }
}

export async function runInSlices<T>(steps: Steps<T>, slicer: Slicer): Promise<T> {
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
    const pause = slicer.maybeYield()
    if (pause) await pause
  }
}
