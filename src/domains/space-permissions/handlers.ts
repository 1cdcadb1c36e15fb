import type { ReadContext } from '../context.js'
import { implement } from '../context.js'
import { indexSource, mapPage, paginateScan, type PageQuery } from '../../core/paging.js'
import { getMember, requireUnlessSelf } from '../members/model.js'
import { encodeSpace } from '../spaces/encode.js'
import { getSpace } from '../spaces/model.js'
import { encodeTeam } from '../teams/encode.js'
import { encodeUser } from '../users/encode.js'
import { listMemberSpaces } from './member-spaces.js'
import { getGrant, grantSpace, inviteToSpace, revokeSpace, type Principal } from './model.js'
import { auditGrants } from '../audit/model.js'
import type { Context } from '../context.js'
import type { SpaceRow } from '../spaces/rows.js'
import { spacePermissionOperations } from './operations.js'

/** One page of a space's user or team grants, in index order (O(log n + limit) a page). */
function grantPage(ctx: ReadContext, space: string, type: 'user' | 'team', query: PageQuery) {
  return paginateScan(indexSource(ctx.tx, 'spaceGrants', 'bySpaceAndType', `${space}/${type}`), query)
}

/** Run `change` on the grants of `principals` on a space, recording what it changed (audit/model.ts). */
function audited<T>(ctx: Context, space: SpaceRow, principals: readonly Principal[], change: () => T): T {
  const resource = { kind: 'space' as const, id: space.id, organization: space.organization, title: space.title }
  return auditGrants(ctx, resource, principals, (p) => getGrant(ctx, space.id, p)?.role, change)
}

export const spacePermissionHandlers = implement(spacePermissionOperations, {
  inviteToSpace: (ctx, { params, body }) => {
    const space = getSpace(ctx, params.spaceId)
    const principals = [...(body.users ?? []).map((user) => ({ user })), ...(body.teams ?? []).map((team) => ({ team }))]
    audited(ctx, space, principals, () => inviteToSpace(ctx, space, body))
  },
  listUserPermissionsInSpace: (ctx, { params, query }) => {
    const space = getSpace(ctx, params.spaceId)
    return mapPage(grantPage(ctx, space.id, 'user', query), ({ row }) => {
      const user = row.principal.type === 'user' ? ctx.tx.get('users', row.principal.user) : undefined
      if (!user) throw new Error(`Grant ${row.id} points to no user`)
      return { permission: row.role, user: encodeUser(ctx, user, row.organization) }
    })
  },
  updateUserPermissionInSpace: (ctx, { params, body }) => {
    audited(ctx, getSpace(ctx, params.spaceId), [{ user: params.userId }], () => grantSpace(ctx, params.spaceId, { user: params.userId }, body.role))
  },
  removeUserFromSpace: (ctx, { params }) => {
    const space = getSpace(ctx, params.spaceId)
    audited(ctx, space, [{ user: params.userId }], () => revokeSpace(ctx, space.id, { user: params.userId }))
  },
  listTeamPermissionsInSpace: (ctx, { params, query }) => {
    const space = getSpace(ctx, params.spaceId)
    return mapPage(grantPage(ctx, space.id, 'team', query), ({ row }) => {
      const team = row.principal.type === 'team' ? ctx.tx.get('teams', row.principal.team) : undefined
      if (!team) throw new Error(`Grant ${row.id} points to no team`)
      return { permission: row.role, team: encodeTeam(ctx, team) }
    })
  },
  updateTeamPermissionInSpace: (ctx, { params, body }) => {
    audited(ctx, getSpace(ctx, params.spaceId), [{ team: params.teamId }], () => grantSpace(ctx, params.spaceId, { team: params.teamId }, body.role))
  },
  removeTeamFromSpace: (ctx, { params }) => {
    const space = getSpace(ctx, params.spaceId)
    audited(ctx, space, [{ team: params.teamId }], () => revokeSpace(ctx, space.id, { team: params.teamId }))
  },
  listSpacesForOrganizationMember: (ctx, { params, query }) => {
    requireUnlessSelf(ctx, params.organizationId, params.userId, 'listMembers')
    getMember(ctx, params.organizationId, params.userId)
    const page = listMemberSpaces(ctx, params.organizationId, params.userId, query)
    return mapPage(page, (item) => ({ permission: item.permission, space: encodeSpace(ctx, item.space) }))
  },
})
