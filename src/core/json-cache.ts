/**
 * A bounded cache of the JSON text of row versions.
 *
 * Rows are immutable: a write stores a new row object, a rollback puts the previous object back.
 * So the JSON of a row *object* never goes stale, and an entry is valid exactly while it was made
 * from the very object the store holds now: `get` compares identities. A write (a new object)
 * or a rollback (the old object again, the entry having been replaced meanwhile) makes `get`
 * miss, and the next encoding replaces the entry. Nothing has to invalidate anything.
 *
 * Entries are kept by row id (one per row: a new version replaces the old one) in insertion
 * order, and the oldest go first once the text held passes `maxChars`. A hit does not reorder
 * (FIFO rather than LRU: a hit costs one Map lookup and nothing else).
 */
export interface JsonCache<R extends { readonly id: string }> {
  /** The text cached for this very row version; undefined when there is none. */
  get(row: R): string | undefined
  /** Cache `json` as the text of `row` (replacing the row's previous entry); returns `json`. */
  set(row: R, json: string): string
  /** Entries held. */
  readonly size: number
  /** Characters of JSON text held. */
  readonly chars: number
  readonly maxChars: number
}

interface CacheEntry<R> {
  readonly row: R
  readonly json: string
}

export function createJsonCache<R extends { readonly id: string }>(maxChars: number): JsonCache<R> {
  const entries = new Map<string, CacheEntry<R>>()
  let chars = 0
  return {
    get(row) {
      const entry = entries.get(row.id)
      return entry !== undefined && entry.row === row ? entry.json : undefined
    },
    set(row, json) {
      const previous = entries.get(row.id)
      if (previous) {
        chars -= previous.json.length
        entries.delete(row.id)
      }
      if (json.length > maxChars) return json
      entries.set(row.id, { row, json })
      chars += json.length
      while (chars > maxChars) {
        const oldest = entries.entries().next().value!
        chars -= oldest[1].json.length
        entries.delete(oldest[0])
      }
      return json
    },
    get size() {
      return entries.size
    },
    get chars() {
      return chars
    },
    maxChars,
  }
}
