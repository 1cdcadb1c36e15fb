import type { ReadContext } from '../context.js'
import { implement } from '../context.js'
import { NO_CONTENT } from '../../core/operation.js'
import { indexSource, mapPage, paginateScan, type PageQuery } from '../../core/paging.js'
import { requireMemberOf, requireTeamOf } from '../space-permissions/model.js'
import { getSite } from '../sites/model.js'
import { encodeTeam } from '../teams/encode.js'
import { encodeUser } from '../users/encode.js'
import { getSiteGrant, grantSite, inviteToSite, revokeSite } from './model.js'
import type { Principal } from '../space-permissions/model.js'
import { auditGrants } from '../audit/model.js'
import type { Context } from '../context.js'
import type { SiteRow } from '../sites/rows.js'
import { sitePermissionOperations } from './operations.js'

/** One page of a site's user or team grants, in index order (O(log n + limit) a page). */
function grantPage(ctx: ReadContext, site: string, type: 'user' | 'team', query: PageQuery) {
  return paginateScan(indexSource(ctx.tx, 'siteGrants', 'bySiteAndType', `${site}/${type}`), query)
}

/** Run `change` on the grants of `principals` on a site, recording what it changed (audit/model.ts). */
function audited<T>(ctx: Context, site: SiteRow, principals: readonly Principal[], change: () => T): T {
  const resource = { kind: 'site' as const, id: site.id, organization: site.organization, title: site.title }
  return auditGrants(ctx, resource, principals, (p) => getSiteGrant(ctx, site.id, p)?.role, change)
}

export const sitePermissionHandlers = implement(sitePermissionOperations, {
  inviteToSite: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    const principals = [...(body.users ?? []).map((user) => ({ user })), ...(body.teams ?? []).map((team) => ({ team }))]
    audited(ctx, site, principals, () => inviteToSite(ctx, site, body))
  },
  listUserPermissionsInSite: (ctx, { params, query }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return mapPage(grantPage(ctx, site.id, 'user', query), ({ row }) => {
      const user = row.principal.type === 'user' ? ctx.tx.get('users', row.principal.user) : undefined
      if (!user) throw new Error(`Grant ${row.id} points to no user`)
      return { permission: row.role, user: encodeUser(ctx, user, row.organization) }
    })
  },
  updateUserPermissionInSite: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    audited(ctx, site, [{ user: params.userId }], () => grantSite(ctx, site, { user: params.userId }, body.role))
  },
  removeUserFromSite: (ctx, { params }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    requireMemberOf(ctx, site.organization, params.userId)
    return audited(ctx, site, [{ user: params.userId }], () => revokeSite(ctx, site.id, { user: params.userId })) ? undefined : NO_CONTENT
  },
  listTeamPermissionsInSite: (ctx, { params, query }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    return mapPage(grantPage(ctx, site.id, 'team', query), ({ row }) => {
      const team = row.principal.type === 'team' ? ctx.tx.get('teams', row.principal.team) : undefined
      if (!team) throw new Error(`Grant ${row.id} points to no team`)
      return { permission: row.role, team: encodeTeam(ctx, team) }
    })
  },
  updateTeamPermissionInSite: (ctx, { params, body }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    audited(ctx, site, [{ team: params.teamId }], () => grantSite(ctx, site, { team: params.teamId }, body.role))
  },
  removeTeamFromSite: (ctx, { params }) => {
    const site = getSite(ctx, params.organizationId, params.siteId)
    requireTeamOf(ctx, site.organization, params.teamId)
    return audited(ctx, site, [{ team: params.teamId }], () => revokeSite(ctx, site.id, { team: params.teamId })) ? undefined : NO_CONTENT
  },
})
