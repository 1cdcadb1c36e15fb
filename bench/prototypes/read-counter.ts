import type { ReadTx, StoragePort, WriteTx } from '../../src/storage/port.js'
import type { AppSchema } from '../../src/domains/schema.js'

/**
 * Issue 26, prototype (a): a store that counts the port reads the real API makes. It wraps a
 * store (the in-memory one) and hands every `read` and `transaction` a reader whose get, scan,
 * count, seqOf and all are counted (and recorded, for the replay of async-port.ts). Writes pass
 * through uncounted. Measurement tool only: not part of the library.
 */

export type ReadMethod = 'get' | 'scan' | 'count' | 'seqOf' | 'all'
/** One read as the API made it: the method and its arguments (replayed by async-port.ts). */
export type ReadCall = [ReadMethod, ...unknown[]]

export interface ReadCounter {
  store: StoragePort<AppSchema>
  /** The wrapped store (reads through it are not counted). */
  inner: StoragePort<AppSchema>
  /** Reads since the last `reset`, in order. */
  trace: ReadCall[]
  /** Start counting afresh. */
  reset(): void
  /** Reads since the last reset, by method. */
  byMethod(): Record<ReadMethod, number>
}

const METHODS: ReadMethod[] = ['get', 'scan', 'count', 'seqOf', 'all']

export function countingStore(inner: StoragePort<AppSchema>): ReadCounter {
  let trace: ReadCall[] = []
  const wrap = <T extends ReadTx<AppSchema>>(tx: T): T =>
    new Proxy(tx, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver)
        if (typeof key !== 'string' || !METHODS.includes(key as ReadMethod)) return typeof value === 'function' ? value.bind(target) : value
        return (...args: unknown[]) => {
          trace.push([key as ReadMethod, ...args])
          return (value as (...a: unknown[]) => unknown).apply(target, args)
        }
      },
    })
  const store: StoragePort<AppSchema> = {
    schema: inner.schema,
    snapshotCost: inner.snapshotCost ?? 'constant',
    read: (fn) => inner.read((tx) => fn(wrap(tx))),
    transaction: (fn) => inner.transaction((tx: WriteTx<AppSchema>) => fn(wrap(tx))),
    ...(inner.snapshot && { snapshot: () => inner.snapshot!() }),
    ...(inner.restore && { restore: (s) => inner.restore!(s) }),
  }
  return {
    store,
    inner,
    get trace() {
      return trace
    },
    reset: () => {
      trace = []
    },
    byMethod: () => {
      const out = Object.fromEntries(METHODS.map((m) => [m, 0])) as Record<ReadMethod, number>
      for (const [m] of trace) out[m]++
      return out
    },
  }
}
