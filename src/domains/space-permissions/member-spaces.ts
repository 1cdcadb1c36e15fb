import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import { compareKeys, paginate, type Page, type SortKey } from '../../core/paging.js'
import type { Role } from '../../core/roles.js'
import type { SpaceGrantRow } from './rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { ListMemberSpacesQuerySchema } from './schemas.js'

/**
 * A member's spaces (`listSpacesForOrganizationMember`): the user's direct grants, from one index
 * key (never a whole collection), sorted by a key that ends with a unique sequence, so a cursor
 * stays exact when grants come and go between two pages.
 */

/** A space and the role a member was granted on it. */
export interface MemberSpace {
  permission: Role
  space: SpaceRow
}

/**
 * The live spaces of the organization on which the user holds a direct grant, by grant time.
 * Spaces the caller cannot see are left out (a list must not reveal what a 404 would hide).
 */
export function listMemberSpaces(ctx: ReadContext, organization: string, user: string, query: z.output<typeof ListMemberSpacesQuerySchema>): Page<MemberSpace> {
  const items: Array<{ key: SortKey; grant: SpaceGrantRow; space: SpaceRow }> = []
  for (const { seq, row } of ctx.tx.scan('spaceGrants', 'byPrincipal', `user:${user}`)) {
    if (row.organization !== organization) continue
    const space = ctx.tx.get('spaces', row.space)
    if (!space || space.deletedAt) continue
    if (!ctx.access.can('space', space.id, 'view')) continue
    items.push({ key: [seq], grant: row, space })
  }
  const sign = query.order === 'asc' ? 1 : -1
  items.sort((a, b) => sign * compareKeys(a.key, b.key))
  const page = paginate(items, (item) => item.key, query, query.order)
  return { ...page, items: page.items.map((item) => ({ permission: item.grant.role, space: item.space })) }
}
