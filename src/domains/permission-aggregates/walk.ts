import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { decodeCursor, encodeCursor } from '../../core/paging.js'
import type { IndexPosition } from '../../storage/port.js'
import type { MemberRow } from '../members/rows.js'

/**
 * How many members one page of a space's or collection's aggregate looks at, at most: five times
 * the page's `limit`, and never fewer than 250. A page stops when it is full or when it has looked
 * at this many members; it may then be short (or empty) and still carry `next` while members
 * remain, so its cost is bounded by the page's size, never by the organization's.
 */
export function scanBudget(limit: number): number {
  return Math.max(limit * 5, 250)
}

/** How many members one read of the index takes: small enough not to read far past a full page. */
const CHUNK = 64

export interface Walked<T> {
  items: T[]
  next?: { page: string }
}

/**
 * One page of an organization's members in index order (the `members` index by organization),
 * from the cursor: `pick` maps a member to an item, or to undefined to leave him out. The cursor
 * is the index position of the last member looked at (listed or not), so the next page starts
 * right after it even when members join or leave between two pages.
 */
export function walkMembers<T>(
  ctx: ReadContext,
  organization: string,
  query: { page?: string | undefined; limit: number },
  pick: (member: MemberRow) => T | undefined,
): Walked<T> {
  let after: IndexPosition | undefined
  if (query.page) {
    const key = decodeCursor(query.page)
    if (key.length !== 2 || typeof key[0] !== 'number' || typeof key[1] !== 'number') {
      throw new ApiError('BAD_REQUEST', 'Invalid query parameter `page`: not a cursor of this list')
    }
    after = { order: key[0], seq: key[1] }
  }
  const items: T[] = []
  if (query.limit === 0) return { items }
  const budget = scanBudget(query.limit)
  let scanned = 0
  let last: IndexPosition | undefined
  scan: while (scanned < budget) {
    const want = Math.min(CHUNK, budget - scanned)
    const chunk = ctx.tx.scan('members', 'byOrganization', organization, { after: last ?? after, limit: want })
    for (const entry of chunk) {
      scanned++
      last = { order: entry.order, seq: entry.seq }
      const item = pick(entry.row)
      if (item !== undefined) items.push(item)
      if (items.length === query.limit) break scan
    }
    if (chunk.length < want) break
  }
  if (!last || ctx.tx.scan('members', 'byOrganization', organization, { after: last, limit: 1 }).length === 0) return { items }
  return { items, next: { page: encodeCursor([last.order, last.seq]) } }
}
