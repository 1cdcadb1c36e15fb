import type { ReadTx, Schema } from '../storage/port.js'
import type { Slicer } from './slices.js'

/**
 * Work an answer needs done first, outside any transaction, when doing it inside would hold the
 * event loop (bringing a search index up to date after a large merge): a handler calls
 * `ctx.beforehand(warm)`, which throws a NotYet; the request's transaction ends (nothing it did is
 * kept), `warm` runs in slices with reads of its own, and the operation runs again, finding the
 * work done. Past MAX_WARMUPS runs (content changing under it all along), or in a system
 * transaction, `beforehand` returns and the caller does the work inline.
 */
export interface WarmEnv<S extends Schema = Schema> {
  /** A read transaction of its own (keep each short: the slices yield between them). */
  read<T>(fn: (tx: ReadTx<S>) => T): T
  slicer: Slicer
}

export type Warm<S extends Schema = Schema> = (env: WarmEnv<S>) => Promise<void>

/** How many times an operation is run again after warming up before it does the work inline. */
export const MAX_WARMUPS = 3

const NOT_YET = Symbol.for('docs-content-api.not-yet')

/** Thrown out of a request's transaction by `ctx.beforehand`: warm up, then run the operation again. */
export class NotYet {
  readonly [NOT_YET] = true as const
  constructor(readonly warm: Warm) {}

  static isNotYet(value: unknown): value is NotYet {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[NOT_YET] === true
  }
}
