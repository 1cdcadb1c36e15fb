import type { Row } from '../storage/port.js'

/**
 * Rows kept parsed and frozen in memory, by collection and id, with their sequence numbers.
 *
 * The file is the truth; the cache only saves parsing JSON again. It stays exact because the
 * store is the file's only writer (it holds SQLite's exclusive lock, see store.ts): every write
 * goes through the store, which puts the new row here (or removes a deleted one) in the same
 * step, and a rolled-back transaction evicts every row it touched, to be read again from the
 * file. Handing out the same frozen object while a row is unchanged also keeps caches keyed by
 * row identity working (src/core/json-cache.ts).
 *
 * Bounded by the characters of the rows' JSON (the parsed objects weigh a small multiple of
 * it); the oldest entries go first once past the bound (FIFO: a hit costs one lookup, nothing
 * else).
 */
export interface CachedRow {
  readonly row: Row
  readonly seq: number
  /** The length of the row's JSON: its share of the bound. */
  readonly chars: number
}

export class RowCache {
  private readonly entries = new Map<string, Map<string, CachedRow>>()
  /** Insertion order across collections, for eviction: [collection map, id] pairs. */
  private order: Array<Map<string, CachedRow> | string> = []
  private head = 0
  private chars = 0
  private size = 0

  constructor(readonly maxChars: number) {}

  private map(collection: string): Map<string, CachedRow> {
    let map = this.entries.get(collection)
    if (!map) this.entries.set(collection, (map = new Map()))
    return map
  }

  get(collection: string, id: string): CachedRow | undefined {
    return this.entries.get(collection)?.get(id)
  }

  set(collection: string, row: Row, seq: number, chars: number): void {
    if (this.maxChars <= 0) return
    const map = this.map(collection)
    const previous = map.get(row.id)
    if (previous) this.chars -= previous.chars
    else {
      this.order.push(map, row.id)
      this.size++
    }
    map.set(row.id, { row, seq, chars })
    this.chars += chars
    if (this.chars > this.maxChars) this.evict()
    // Rows deleted and cached again (a rollback evicts what it touched) leave stale pairs behind.
    else if (this.order.length - this.head > 4 * this.size + 4096) this.compact()
  }

  delete(collection: string, id: string): void {
    const map = this.entries.get(collection)
    const entry = map?.get(id)
    if (!entry) return
    map!.delete(id)
    this.chars -= entry.chars
    this.size--
    // Its place in `order` stays: eviction skips ids no longer in their map.
  }

  clear(): void {
    this.entries.clear()
    this.order = []
    this.head = 0
    this.chars = 0
    this.size = 0
  }

  /** Keep one pair per cached row in `order`, oldest first. */
  private compact(): void {
    const seen = new Set<CachedRow>()
    const kept: Array<Map<string, CachedRow> | string> = []
    for (let i = this.head; i < this.order.length; i += 2) {
      const map = this.order[i] as Map<string, CachedRow>
      const entry = map.get(this.order[i + 1] as string)
      if (entry && !seen.has(entry)) {
        seen.add(entry)
        kept.push(map, this.order[i + 1]!)
      }
    }
    this.order = kept
    this.head = 0
  }

  /** Drop the oldest entries until the cache holds three quarters of its bound. */
  private evict(): void {
    const target = this.maxChars * 0.75
    const { order } = this
    while (this.chars > target && this.head < order.length) {
      const map = order[this.head] as Map<string, CachedRow>
      const id = order[this.head + 1] as string
      this.head += 2
      const entry = map.get(id)
      if (entry) {
        map.delete(id)
        this.chars -= entry.chars
        this.size--
      }
    }
    // Compact the order list once its consumed head is the larger part.
    if (this.head > order.length / 2) {
      this.order = order.slice(this.head)
      this.head = 0
    }
  }
}
