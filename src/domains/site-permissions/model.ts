import { produce } from '../common/produce.js'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { Role } from '../../core/roles.js'
import { addMember } from '../members/model.js'
import { requireMemberOf, requireTeamOf, type Invitation, type Principal } from '../space-permissions/model.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteGrantRow } from './rows.js'

/** The id of a site grant row: `${site}/user:${id}` or `${site}/team:${id}`. */
export function siteGrantId(site: string, principal: Principal): string {
  return 'user' in principal ? `${site}/user:${principal.user}` : `${site}/team:${principal.team}`
}

/** The direct grant of a user or team on a site, if any. */
export function getSiteGrant(ctx: Context, site: string, principal: Principal): SiteGrantRow | undefined {
  return ctx.tx.get('siteGrants', siteGrantId(site, principal))
}

/**
 * Set the direct role of a user or a team on a site; `null` removes it. As on spaces, a user must
 * be a member of the site's organization (a guest is fine) and a team must belong to it (404
 * otherwise), so a grant never reaches outside the organization.
 */
export function grantSite(ctx: Context, site: SiteRow, principal: Principal, role: Role | null): SiteGrantRow | undefined {
  if ('user' in principal) requireMemberOf(ctx, site.organization, principal.user)
  else requireTeamOf(ctx, site.organization, principal.team)
  if (role === null) {
    revokeSite(ctx, site.id, principal)
    return undefined
  }
  const existing = getSiteGrant(ctx, site.id, principal)
  if (existing) {
    const next = produce(existing, (draft) => {
      draft.role = role
    })
    return next === existing ? existing : ctx.tx.update('siteGrants', next)
  }
  return ctx.tx.insert('siteGrants', {
    id: siteGrantId(site.id, principal),
    site: site.id,
    organization: site.organization,
    principal: 'user' in principal ? { type: 'user', user: principal.user } : { type: 'team', team: principal.team },
    role,
  })
}

/** Remove the direct grant of a user or a team on a site; returns whether there was one. */
export function revokeSite(ctx: Context, site: string, principal: Principal): boolean {
  return ctx.tx.delete('siteGrants', siteGrantId(site, principal))
}

/**
 * Invite users and teams to a site with a role, as `inviteToSpace` does: a user who is not yet a
 * member of the organization joins it as a guest; `role: null` removes the listed grants. Any
 * unknown user or team fails the whole invitation (the transaction rolls back).
 */
export function inviteToSite(ctx: Context, site: SiteRow, invitation: Invitation): void {
  for (const user of new Set(invitation.users ?? [])) {
    if (invitation.role !== null) {
      if (!ctx.tx.get('users', user)) throw new ApiError('NOT_FOUND', `User ${user} not found`)
      addMember(ctx, site.organization, user, null)
    }
    grantSite(ctx, site, { user }, invitation.role)
  }
  for (const team of new Set(invitation.teams ?? [])) grantSite(ctx, site, { team }, invitation.role)
}
