import { z } from 'zod'
import type { Entry, IndexOf, ReadTx, RowOf, ScanOptions, Schema } from '../storage/port.js'
import { ApiError } from './errors.js'

/**
 * Paging on every list: `limit` (default 50, at most 1000) and an opaque `page` cursor.
 * A cursor holds the sort key of the last item served, never an offset, so the next page starts
 * right after that item even when items were inserted or deleted in between.
 */
export const DEFAULT_LIMIT = 50
export const MAX_LIMIT = 1000

export interface PageQuery {
  page?: string | undefined
  limit: number
}

export interface Page<T> {
  items: T[]
  count: number
  next?: { page: string }
}

/** A sort key: compared element by element (numbers numerically, strings by code unit). */
export type SortKey = readonly (string | number)[]

export function encodeCursor(key: SortKey): string {
  return btoa(unescape(encodeURIComponent(JSON.stringify(key))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

export function decodeCursor(page: string): SortKey {
  try {
    const json = decodeURIComponent(escape(atob(page.replace(/-/g, '+').replace(/_/g, '/'))))
    const key: unknown = JSON.parse(json)
    if (Array.isArray(key) && key.every((k) => typeof k === 'string' || typeof k === 'number')) return key
  } catch {
    // fall through to the error below
  }
  throw new ApiError('BAD_REQUEST', 'Invalid query parameter `page`: not a cursor returned by this API (use next.page)')
}

export function compareKeys(a: SortKey, b: SortKey): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a[i]!
    const y = b[i]!
    if (x === y) continue
    if (typeof x === 'number' && typeof y === 'number') return x - y
    return String(x) < String(y) ? -1 : 1
  }
  return a.length - b.length
}

/**
 * Page over items sorted by `keyOf` in `order`. The page starts after the cursor's key, found by
 * binary search, so a page costs O(log n + limit) once the items are sorted.
 */
export function paginate<T>(sorted: readonly T[], keyOf: (item: T) => SortKey, query: PageQuery, order: 'asc' | 'desc' = 'asc'): Page<T> {
  let start = 0
  if (query.page) {
    const after = decodeCursor(query.page)
    const sign = order === 'asc' ? 1 : -1
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (sign * compareKeys(keyOf(sorted[mid]!), after) <= 0) lo = mid + 1
      else hi = mid
    }
    start = lo
  }
  const items = sorted.slice(start, start + query.limit)
  const page: Page<T> = { items, count: sorted.length }
  if (items.length > 0 && start + items.length < sorted.length) {
    page.next = { page: encodeCursor(keyOf(items[items.length - 1]!)) }
  }
  return page
}

/** An index key to page over: its scan and its size (see the storage port). */
export interface ScanSource<R> {
  scan(options?: ScanOptions): Entry<R>[]
  count(): number
}

/** The rows under `key` in an index of the store, as a source to page over. */
export function indexSource<S extends Schema, C extends keyof S & string>(
  tx: ReadTx<S>,
  collection: C,
  index: IndexOf<S, C>,
  key: string,
): ScanSource<RowOf<S, C>> {
  return {
    scan: (options) => tx.scan(collection, index, key, options),
    count: () => tx.count(collection, index, key),
  }
}

/**
 * Page over the rows under one index key, in index order. Without a filter a page costs
 * O(log n + limit): the cursor is the index position (order, seq) of the last row served, and
 * the index seeks straight past it. With a filter (a caller who sees only some rows) the rows
 * are scanned and counted, then paged the same way.
 */
export function paginateScan<R>(source: ScanSource<R>, query: PageQuery, filter?: (row: R) => boolean): Page<Entry<R>> {
  const keyOf = (e: Entry<R>): SortKey => [e.order, e.seq]
  if (filter)
    return paginate(
      source.scan().filter((e) => filter(e.row)),
      keyOf,
      query,
    )
  let after: ScanOptions['after']
  if (query.page) {
    const key = decodeCursor(query.page)
    if (key.length !== 2 || typeof key[0] !== 'number' || typeof key[1] !== 'number') {
      throw new ApiError('BAD_REQUEST', 'Invalid query parameter `page`: not a cursor of this list')
    }
    after = { order: key[0], seq: key[1] }
  }
  const rows = source.scan({ after, limit: query.limit + 1 })
  const items = rows.slice(0, query.limit)
  const page: Page<Entry<R>> = { items, count: source.count() }
  if (rows.length > query.limit && items.length > 0) page.next = { page: encodeCursor(keyOf(items[items.length - 1]!)) }
  return page
}

/**
 * The position a cursor of a list paged by position holds: a whole number from `first` (the
 * first item's position: 0 or 1), as the API itself makes them; anything else is a 400 naming
 * `page` (a negative or fractional position would start a page at no item's boundary). A position
 * past the end is a cursor of a list that has since shrunk: it pages to nothing.
 */
export function decodePosition(page: string, first: 0 | 1): number {
  const key = decodeCursor(page)
  const position = key[0]
  if (key.length !== 1 || typeof position !== 'number' || !Number.isSafeInteger(position) || position < first) {
    throw new ApiError('BAD_REQUEST', 'Invalid query parameter `page`: not a cursor of this list')
  }
  return position
}

/**
 * Page over a list kept in its own order (a revision's files, a change request's contributors):
 * the cursor is the position of the last item served, counted from `first` (0 unless the list
 * says otherwise), which holds because such lists only grow at the end or are immutable.
 */
export function paginateList<T>(items: readonly T[], query: PageQuery, first: 0 | 1 = 0): Page<T> {
  const start = query.page ? decodePosition(query.page, first) + 1 - first : 0
  const served = items.slice(start, start + query.limit)
  const page: Page<T> = { items: served, count: items.length }
  if (served.length > 0 && start + served.length < items.length) page.next = { page: encodeCursor([start + served.length - 1 + first]) }
  return page
}

/** Apply `map` to the items of a page, keeping its envelope. */
export function mapPage<T, U>(page: Page<T>, map: (item: T) => U): Page<U> {
  const out: Page<U> = { items: page.items.map(map), count: page.count }
  if (page.next) out.next = page.next
  return out
}

/** A query parameter holding a boolean (`true` / `false`). */
export const queryBoolean = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true')

/**
 * A `limit` query parameter: a whole number from 0 to `max`, `fallback` when absent. Parsed
 * strictly: decimal digits only. A coercing `Number()` would take `0x10`, `1e2`, ` 7` and an empty
 * value (as 0) without a word; anything else stays a string and fails the number.
 */
export function limitParam(max: number, fallback: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : value),
    z
      .number({ error: 'must be a whole number written in decimal digits' })
      .int('must be a whole number written in decimal digits')
      .min(0, 'must be at least 0')
      .max(max, `must be at most ${max}`)
      .default(fallback),
  )
}

/** The paging parameters every list accepts. */
export const listQuery = z.object({
  page: z.string().min(1).optional().meta({ description: 'Cursor from `next.page` of the previous page.' }),
  limit: limitParam(MAX_LIMIT, DEFAULT_LIMIT).meta({ description: `Results per page (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).` }),
})

export const listOrder = z.enum(['asc', 'desc']).default('desc')
