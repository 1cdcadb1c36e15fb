import { createFairQueue, type FairQueue } from '../../core/fair-queue.js'

/** The bytes of PDFs an API keeps at most, by default (the `pdfCacheBytes` option). */
export const PDF_CACHE_BYTES = 64 * 1024 * 1024
/** PDFs rendered at once, API-wide: each holds its document's pages and its bytes until done. */
export const PDF_RENDERS_AT_ONCE = 2

/**
 * The PDFs of live tickets (`/pdf/<ticket>`), each made once and kept within a byte budget for the
 * whole API. What a ticket prints (`what`: pages of a revision) is immutable, so a PDF never goes
 * stale but for its title (the space's title and the change request's subject, read at each GET):
 * it is kept by `what` with the title it was made with, and made again when the title changed.
 * Tickets naming the same `what` share one PDF, which goes once no live ticket names it; past the
 * budget the least recently served go first (made again when asked for), and a PDF larger than
 * the whole budget is served but not kept. Asked for while it is being made, a PDF is waited for,
 * not made twice. Renders wait their turn in a fair queue (a few at a time, owners in turn).
 */
export interface PdfCache {
  /** A ticket naming `what` was issued. */
  retain(what: string): void
  /** A ticket naming `what` went (expired, or past a bound). */
  release(what: string): void
  /** The PDF of `what` titled `title` when it is kept (it is then the most recently served). */
  kept(what: string, title: string): Uint8Array | undefined
  /** The PDF of `what` titled `title`: kept, being made, or made now by `make` for `owner` (undefined: nothing to print). */
  get(what: string, title: string, owner: string, make: () => Promise<Uint8Array | undefined>): Promise<Uint8Array | undefined>
  /** Forgets every PDF, and the renders under way (the store went back to a snapshot: a revision id may now name other pages). */
  clear(): void
  readonly stats: PdfCacheStats
}

export interface PdfCacheStats {
  /** Renders started since the API was created. */
  renders: number
  /** PDFs kept, and their bytes. */
  entries: number
  bytes: number
}

declare module '../../core/services.js' {
  interface Services {
    /** The PDFs of change-request PDF tickets (domains/change-requests/pdf-cache.ts). */
    pdfs: PdfCache
  }
}

export function createPdfCache(budget = PDF_CACHE_BYTES, queue: FairQueue = createFairQueue(PDF_RENDERS_AT_ONCE)): PdfCache {
  if (!(budget >= 0)) throw new TypeError(`pdfCacheBytes must be a number of bytes, 0 or more (got ${budget})`)
  /** Live tickets naming each `what`. */
  const live = new Map<string, number>()
  /** Kept PDFs by `what`, least recently served first. */
  const kept = new Map<string, { title: string; bytes: Uint8Array }>()
  /** PDFs being made, by `what` and title. */
  let making = new Map<string, Promise<Uint8Array | undefined>>()
  const stats: PdfCacheStats = { renders: 0, entries: 0, bytes: 0 }

  const forget = (what: string) => {
    const entry = kept.get(what)
    if (!entry) return
    kept.delete(what)
    stats.bytes -= entry.bytes.byteLength
    stats.entries = kept.size
  }
  const keep = (what: string, title: string, bytes: Uint8Array) => {
    forget(what)
    if (bytes.byteLength > budget) return
    kept.set(what, { title, bytes })
    stats.bytes += bytes.byteLength
    while (stats.bytes > budget) forget(kept.keys().next().value!)
    stats.entries = kept.size
  }

  /** The kept PDF of `what` titled `title`, now the most recently served. */
  const served = (what: string, title: string): Uint8Array | undefined => {
    const entry = kept.get(what)
    if (!entry || entry.title !== title) return undefined
    kept.delete(what)
    kept.set(what, entry) // now the most recently served
    return entry.bytes
  }

  return {
    stats,
    retain(what) {
      live.set(what, (live.get(what) ?? 0) + 1)
    },
    release(what) {
      const count = (live.get(what) ?? 0) - 1
      if (count > 0) return void live.set(what, count)
      live.delete(what)
      forget(what)
    },
    kept: served,
    get(what, title, owner, make) {
      const bytes = served(what, title)
      if (bytes) return Promise.resolve(bytes)
      const key = JSON.stringify([what, title])
      const pending = making.get(key)
      if (pending) return pending
      const renders = making
      const made = queue
        .run(owner, () => {
          stats.renders++
          return make()
        })
        .then((bytes) => {
          // Not when the cache was cleared meanwhile, nor once no ticket names it any more.
          if (bytes && renders === making && live.has(what)) keep(what, title, bytes)
          return bytes
        })
        .finally(() => {
          if (renders.get(key) === made) renders.delete(key)
        })
      renders.set(key, made)
      return made
    },
    clear() {
      kept.clear()
      making = new Map()
      stats.entries = 0
      stats.bytes = 0
    },
  }
}
