import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { compareKeys, decodeCursor, paginate, type Page, type SortKey } from '../../core/paging.js'
import type { MemberRow } from './rows.js'
import type { ListMembersQuerySchema, MemberSort } from './schemas.js'

/**
 * The list query of members. It reads one index key (the organization's members, or one role of
 * it), never a whole collection, then sorts by a key that ends with a unique id, so a cursor (the
 * last key served) stays exact when members join or leave between two pages. A member's spaces
 * and teams are listed by the areas of those (space-permissions/member-spaces.ts, teams/list.ts).
 */

type ListMembersQuery = z.output<typeof ListMembersQuerySchema>

interface MemberItem {
  row: MemberRow
  key: SortKey
}

function sortValue(sort: MemberSort, row: MemberRow, name: string): string | undefined {
  if (sort === 'joinedAt') return row.joinedAt
  if (sort === 'lastSeenAt') return row.lastSeenAt
  // Case-insensitive, so "ada" and "Ada" sort together.
  return name.toLowerCase()
}

/** Sort `items` by key in `order` (keys are unique, so the order is total). */
function sortByKey<T extends { key: SortKey }>(items: T[], order: 'asc' | 'desc'): T[] {
  const sign = order === 'asc' ? 1 : -1
  return items.sort((a, b) => sign * compareKeys(a.key, b.key))
}

/** Members of an organization filtered by role and text, sorted by `sort` in `order`, one page. */
export function listMembers(ctx: ReadContext, organization: string, query: ListMembersQuery): Page<MemberRow> {
  // The cursor carries the sort it was made for: a cursor of another sort is a 400, not a wrong page.
  if (query.page && decodeCursor(query.page)[0] !== query.sort) {
    throw new ApiError('BAD_REQUEST', `Invalid query parameter \`page\`: the cursor was made for another \`sort\` than ${query.sort}`)
  }
  const entries = query.role ? ctx.tx.scan('members', 'byRole', `${organization}/${query.role}`) : ctx.tx.scan('members', 'byOrganization', organization)
  const search = query.search?.trim().toLowerCase()
  const items: MemberItem[] = []
  for (const { row } of entries) {
    const user = ctx.tx.get('users', row.user)
    if (!user) continue
    if (search && !user.displayName.toLowerCase().includes(search) && !user.email?.toLowerCase().includes(search)) continue
    const value = sortValue(query.sort, row, user.displayName)
    if (value === undefined) continue
    items.push({ row, key: [query.sort, value, row.user] })
  }
  const page = paginate(sortByKey(items, query.order), (item) => item.key, query, query.order)
  return { ...page, items: page.items.map((item) => item.row) }
}
