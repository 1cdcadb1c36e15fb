import type { Context } from '../context.js'
import type { Role } from '../../core/roles.js'
import { findGrant, grantRowId, inviteTo, removeGrant, setGrant, type Invitation, type Principal } from '../access/grants.js'
import { SPACE_GRANTS, type SpaceGrantRow } from './rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import { getSpace } from '../spaces/model.js'

// The grants model is shared with collections and sites (access/grants.ts); these are its space's.
export { requireMemberOf, requireTeamOf, type Invitation, type Principal } from '../access/grants.js'

/** The id of a grant row: `${space}/user:${id}` or `${space}/team:${id}`. */
export function grantId(space: string, principal: Principal): string {
  return grantRowId(space, principal)
}

/** The direct grant of a user or team on a space, if any. */
export function getGrant(ctx: Context, space: string, principal: Principal): SpaceGrantRow | undefined {
  return findGrant(ctx, SPACE_GRANTS, space, principal)
}

/**
 * Set the direct role of a user or a team on a live space; `null` removes it. A user must be a
 * member of the space's organization (a guest is fine) and a team must belong to it, so a grant
 * never reaches outside the organization. Returns the grant, or undefined when removed.
 */
export function grantSpace(ctx: Context, spaceId: string, principal: Principal, role: Role | null): SpaceGrantRow | undefined {
  return setGrant(ctx, SPACE_GRANTS, getSpace(ctx, spaceId), principal, role)
}

/** Remove the direct grant of a user or a team on a space; returns whether there was one. */
export function revokeSpace(ctx: Context, spaceId: string, principal: Principal): boolean {
  return removeGrant(ctx, SPACE_GRANTS, spaceId, principal)
}

/**
 * Invite users and teams to a space with a role (re-inviting updates the role). A user who is
 * not yet a member of the space's organization joins it as a guest, as in the product: the grant
 * is what gives the guest access. `role: null` removes the listed grants and adds nobody.
 * Any unknown user or team fails the whole invitation (the request's transaction rolls back).
 */
export function inviteToSpace(ctx: Context, space: SpaceRow, invitation: Invitation): void {
  inviteTo(ctx, SPACE_GRANTS, space, invitation, (principal, role) => grantSpace(ctx, space.id, principal, role))
}
