import type { Context } from '../context.js'
import type { Role } from '../../core/roles.js'
import { findGrant, grantRowId, inviteTo, removeGrant, setGrant, type Invitation, type Principal } from '../access/grants.js'
import type { SiteRow } from '../sites/rows.js'
import { SITE_GRANTS, type SiteGrantRow } from './rows.js'

/** The id of a site grant row: `${site}/user:${id}` or `${site}/team:${id}`. */
export function siteGrantId(site: string, principal: Principal): string {
  return grantRowId(site, principal)
}

/** The direct grant of a user or team on a site, if any. */
export function getSiteGrant(ctx: Context, site: string, principal: Principal): SiteGrantRow | undefined {
  return findGrant(ctx, SITE_GRANTS, site, principal)
}

/**
 * Set the direct role of a user or a team on a site; `null` removes it. As on spaces, a user must
 * be a member of the site's organization (a guest is fine) and a team must belong to it (404
 * otherwise), so a grant never reaches outside the organization.
 */
export function grantSite(ctx: Context, site: SiteRow, principal: Principal, role: Role | null): SiteGrantRow | undefined {
  return setGrant(ctx, SITE_GRANTS, site, principal, role)
}

/** Remove the direct grant of a user or a team on a site; returns whether there was one. */
export function revokeSite(ctx: Context, site: string, principal: Principal): boolean {
  return removeGrant(ctx, SITE_GRANTS, site, principal)
}

/**
 * Invite users and teams to a site with a role, as `inviteToSpace` does: a user who is not yet a
 * member of the organization joins it as a guest; `role: null` removes the listed grants. Any
 * unknown user or team fails the whole invitation (the transaction rolls back).
 */
export function inviteToSite(ctx: Context, site: SiteRow, invitation: Invitation): void {
  inviteTo(ctx, SITE_GRANTS, site, invitation, (principal, role) => grantSite(ctx, site, principal, role))
}
