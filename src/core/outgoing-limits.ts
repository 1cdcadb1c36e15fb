/**
 * How much the API's outgoing fetches may hold at once. A request may name many URLs (a content
 * batch names up to 1,000 files), and many requests may come at once: without a bound, their
 * bodies, each up to its cap, would all be in memory together. Every fetch of a body the library
 * keeps (files by URL, OpenAPI spec URLs) takes a lease on one budget shared by the whole API
 * before it starts, for the most its body may take (its cap), and gives back what it will not
 * need once its headers announce a smaller Content-Length. Leases are granted first come, first
 * served: a fetch waits its turn rather than failing, and holds nothing while it waits.
 */

/** The `outgoing` option of createDocsApi. */
export interface OutgoingOptions {
  /**
   * The bytes of one content batch's files in all (base64 decoded and fetched by URL): past it,
   * the batch is a 413 naming the file that passed it.
   * @default 33554432 (32 MiB)
   */
  batchBytes?: number
  /**
   * How many files of one content batch are fetched at once.
   * @default 4
   */
  batchFetches?: number
  /**
   * Bytes the API's fetches (files by URL of every batch, OpenAPI spec URLs) may hold at once:
   * each reserves its cap (10 MiB) before it starts, or the Content-Length its server announced
   * once known, and waits its turn while the budget is taken. A single fetch whose cap is larger
   * than the budget runs alone.
   * @default 41943040 (40 MiB)
   */
  bytesInFlight?: number
  /**
   * Fetches at once across the API (files by URL, OpenAPI spec URLs); the others wait their turn.
   * @default 8
   */
  fetchesInFlight?: number
}

export const DEFAULT_OUTGOING = { batchBytes: 32 * 1024 * 1024, batchFetches: 4, bytesInFlight: 40 * 1024 * 1024, fetchesInFlight: 8 } as const

/** A fetch's share of the budget, from when it may start until its body is read (or it failed). */
export interface FetchLease {
  /** Keep only `bytes` (a Content-Length below the cap): the rest goes to the fetches waiting. */
  shrink(bytes: number): void
  /** Give everything back (idempotent). */
  release(): void
}

export interface FetchBudget {
  /** Wait until a fetch may start with `bytes` reserved (at most the whole budget). */
  acquire(bytes: number): Promise<FetchLease>
  /** Bytes reserved now, and fetches holding a lease: what the limits bound. */
  readonly bytesInFlight: number
  readonly fetchesInFlight: number
}

/** What the API's outgoing requests share: the budget, and the limits of one content batch. */
export interface Outgoing {
  readonly budget: FetchBudget
  readonly batchBytes: number
  readonly batchFetches: number
}

function positiveInteger(name: keyof OutgoingOptions, value: number | undefined): number {
  const n = value ?? DEFAULT_OUTGOING[name]
  if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`outgoing.${name} must be a positive integer, not ${String(value)}`)
  return n
}

export function createOutgoing(options: OutgoingOptions = {}): Outgoing {
  return {
    budget: createFetchBudget(positiveInteger('bytesInFlight', options.bytesInFlight), positiveInteger('fetchesInFlight', options.fetchesInFlight)),
    batchBytes: positiveInteger('batchBytes', options.batchBytes),
    batchFetches: positiveInteger('batchFetches', options.batchFetches),
  }
}

export function createFetchBudget(maxBytes: number, maxFetches: number): FetchBudget {
  let bytes = 0
  let fetches = 0
  const waiting: Array<{ bytes: number; grant: () => void }> = []
  // A reservation is at most the budget, so one always fits once nothing else is in flight.
  const fits = (reserve: number) => fetches < maxFetches && bytes + reserve <= maxBytes
  /** Start the waiting fetches that fit, in order: one that does not fit holds back those behind it (no starvation of large ones). */
  const wake = () => {
    while (waiting.length > 0 && fits(waiting[0]!.bytes)) waiting.shift()!.grant()
  }
  const lease = (reserved: number): FetchLease => {
    bytes += reserved
    fetches += 1
    let held = reserved
    let released = false
    return {
      shrink(to) {
        if (released || to >= held) return
        bytes -= held - Math.max(0, to)
        held = Math.max(0, to)
        wake()
      },
      release() {
        if (released) return
        released = true
        bytes -= held
        fetches -= 1
        wake()
      },
    }
  }
  return {
    acquire(wanted) {
      const reserve = Math.min(Math.max(0, wanted), maxBytes)
      if (waiting.length === 0 && fits(reserve)) return Promise.resolve(lease(reserve))
      return new Promise((resolve) => waiting.push({ bytes: reserve, grant: () => resolve(lease(reserve)) }))
    },
    get bytesInFlight() {
      return bytes
    },
    get fetchesInFlight() {
      return fetches
    },
  }
}
