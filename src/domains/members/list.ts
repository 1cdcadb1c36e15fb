import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { compareKeys, decodeCursor, paginate, type Page, type SortKey } from '../../core/paging.js'
import type { MemberRow } from './rows.js'
import type { SpaceGrantRow } from '../space-permissions/rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { TeamMemberRow, TeamRow } from '../teams/rows.js'
import type { Role } from '../../core/roles.js'
import type { ListMembersQuerySchema, ListMemberSpacesQuerySchema, ListMemberTeamsQuerySchema, MemberSort } from './schemas.js'

/**
 * The list queries of members. Each reads one index key (the organization's members, or one
 * role of it; the user's grants; the user's team memberships), never a whole collection, then
 * sorts by a key that ends with a unique id, so a cursor (the last key served) stays exact when
 * members join or leave between two pages.
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
  const entries = query.role
    ? ctx.tx.scan('members', 'byRole', `${organization}/${query.role}`)
    : ctx.tx.scan('members', 'byOrganization', organization)
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

/** A space and the role a member was granted on it. */
export interface MemberSpace {
  permission: Role
  space: SpaceRow
}

/**
 * The live spaces of the organization on which the user holds a direct grant, by grant time.
 * Spaces the caller cannot see are left out (a list must not reveal what a 404 would hide).
 */
export function listMemberSpaces(
  ctx: ReadContext,
  organization: string,
  user: string,
  query: z.output<typeof ListMemberSpacesQuerySchema>,
): Page<MemberSpace> {
  const items: Array<{ key: SortKey; grant: SpaceGrantRow; space: SpaceRow }> = []
  for (const { seq, row } of ctx.tx.scan('spaceGrants', 'byPrincipal', `user:${user}`)) {
    if (row.organization !== organization) continue
    const space = ctx.tx.get('spaces', row.space)
    if (!space || space.deletedAt) continue
    if (!ctx.access.can('space', space.id, 'view')) continue
    items.push({ key: [seq], grant: row, space })
  }
  const page = paginate(sortByKey(items, query.order), (item) => item.key, query, query.order)
  return { ...page, items: page.items.map((item) => ({ permission: item.grant.role, space: item.space })) }
}

/** A team and the member's membership row in it. */
export interface MemberTeam {
  team: TeamRow
  membership: TeamMemberRow
}

/** Teams of the organization the user belongs to, by title (case-insensitive), then id. */
export function listMemberTeams(
  ctx: ReadContext,
  organization: string,
  user: string,
  query: z.output<typeof ListMemberTeamsQuerySchema>,
): Page<MemberTeam> {
  const title = query.title?.toLowerCase()
  const items: Array<MemberTeam & { key: SortKey }> = []
  for (const { row } of ctx.tx.scan('teamMembers', 'byUser', user)) {
    if (row.organization !== organization) continue
    const team = ctx.tx.get('teams', row.team)
    if (!team || (title && !team.title.toLowerCase().includes(title))) continue
    items.push({ team, membership: row, key: [team.title.toLowerCase(), team.id] })
  }
  const page = paginate(sortByKey(items, 'asc'), (item) => item.key, query)
  return { ...page, items: page.items.map(({ team, membership }) => ({ team, membership })) }
}
