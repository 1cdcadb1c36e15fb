import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import { implement } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { compareKeys, decodeCursor, paginate, type SortKey } from '../../core/paging.js'
import { ROLES, type Role } from '../../core/roles.js'
import { collectionAccessOf, siteAccessOf, spaceAccessOf, type Access } from '../access/levels.js'
import { getCollection } from '../collections/model.js'
import type { MemberRow } from '../members/rows.js'
import { getSite } from '../sites/model.js'
import { getSpace } from '../spaces/model.js'
import { encodeUser, seesEmailsIn } from '../users/encode.js'
import type { UserRow } from '../users/rows.js'
import { permissionAggregateOperations } from './operations.js'
import type { ContentAggregateQuerySchema, SiteAggregateQuerySchema } from './schemas.js'
import type { CollectionRow } from '../collections/rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import { walkMembers } from './walk.js'

const isRole = (level: string): level is Role => (ROLES as readonly string[]).includes(level)

/**
 * The item of a member on a space or collection: his effective role when it is one (`visitor`
 * and `guest` are no roles: a member at those levels is not listed), filtered by `role`.
 */
function contentItem(ctx: ReadContext, member: MemberRow, found: Access | null, role: Role | undefined) {
  if (!found || !isRole(found.level) || (role && found.level !== role)) return undefined
  const user = ctx.tx.get('users', member.user)
  if (!user) return undefined
  const origin = found.origin
  // Levels a member gets on a space or collection never come from a site or the visibility.
  if (origin.type === 'site' || origin.type === 'visibility') throw new Error(`Unexpected origin ${origin.type} on content`)
  return { permission: found.level, user: encodeUser(ctx, user, member.organization), origin }
}

type ContentQuery = z.output<typeof ContentAggregateQuerySchema>

/** One page of a space's aggregate: the organization's members from the cursor, each with his level on the space. */
export function spaceAggregate(ctx: ReadContext, space: SpaceRow, query: ContentQuery) {
  return walkMembers(ctx, space.organization, query, (member) => contentItem(ctx, member, spaceAccessOf(ctx.tx, space, member.user), query.role))
}

/** One page of a collection's aggregate, as a space's. */
export function collectionAggregate(ctx: ReadContext, collection: CollectionRow, query: ContentQuery) {
  return walkMembers(ctx, collection.organization, query, (member) => contentItem(ctx, member, collectionAccessOf(ctx.tx, collection, member.user), query.role))
}

type SiteQuery = z.output<typeof SiteAggregateQuerySchema>

function sortValue(query: SiteQuery, member: MemberRow, user: UserRow): string | undefined {
  if (query.sort === 'joinedAt') return member.joinedAt
  if (query.sort === 'lastSeenAt') return member.lastSeenAt
  return user.displayName.toLowerCase()
}

export const permissionAggregateHandlers = implement(permissionAggregateOperations, {
  listPermissionsAggregateInSpace: (ctx, { params, query }) => spaceAggregate(ctx, getSpace(ctx, params.spaceId), query),
  listPermissionsAggregateInCollection: (ctx, { params, query }) => collectionAggregate(ctx, getCollection(ctx, params.collectionId), query),
  /**
   * Every enabled member of the site's organization (guests included, their permission null
   * unless a grant gives them a role), sorted as the member list sorts, so this reads the
   * organization's members (or the team's) and sorts them, as listMembersInOrganizationById does.
   */
  listPermissionsAggregateInSite: (ctx, { params, query }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    if (query.page && decodeCursor(query.page)[0] !== query.sort) {
      throw new ApiError('BAD_REQUEST', `Invalid query parameter \`page\`: the cursor was made for another \`sort\` than ${query.sort}`)
    }
    let members: MemberRow[]
    if (query.team) {
      const team = ctx.tx.get('teams', query.team)
      if (!team || team.organization !== site.organization) throw new ApiError('NOT_FOUND', `Team ${query.team} not found`)
      members = ctx.tx.scan('teamMembers', 'byTeam', team.id).flatMap(({ row }) => ctx.tx.get('members', `${site.organization}/${row.user}`) ?? [])
    } else {
      members = ctx.tx.scan('members', 'byOrganization', site.organization).map((e) => e.row)
    }
    const search = query.search?.trim().toLowerCase()
    // A guest (who reads no member's email) searches by display name only: an email match would tell him the address.
    const byEmail = seesEmailsIn(ctx, site.organization)
    const found: Array<{ key: SortKey; item: ReturnType<typeof siteItem> }> = []
    for (const member of members) {
      const access = siteAccessOf(ctx.tx, site, member.user)
      if (!access) continue
      const permission = isRole(access.level) ? access.level : null
      if (query.role && (permission ?? 'guest') !== query.role) continue
      const user = ctx.tx.get('users', member.user)
      if (!user) continue
      if (search && !user.displayName.toLowerCase().includes(search) && !(byEmail && user.email?.toLowerCase().includes(search))) continue
      const value = sortValue(query, member, user)
      if (value === undefined) continue
      found.push({ key: [query.sort, value, member.user], item: siteItem(ctx, member, user, access, permission) })
    }
    const sign = query.order === 'asc' ? 1 : -1
    found.sort((a, b) => sign * compareKeys(a.key, b.key))
    const page = paginate(found, (f) => f.key, query, query.order)
    return { ...page, items: page.items.map((f) => f.item) }
  },
})

function siteItem(ctx: ReadContext, member: MemberRow, user: UserRow, access: Access, permission: Role | null) {
  const origin = access.origin
  if (origin.type !== 'organization' && origin.type !== 'site') throw new Error(`Unexpected origin ${origin.type} on a site`)
  return {
    permission,
    user: encodeUser(ctx, user, member.organization),
    origin,
    disabled: member.disabled,
    ...(member.lastSeenAt !== undefined && { lastSeenAt: member.lastSeenAt }),
  }
}
