import { produce } from '../common/produce.js'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { Role } from '../../core/roles.js'
import type { SpaceGrantRow } from './rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { TeamRow } from '../teams/rows.js'
import { addMember, memberId } from '../members/model.js'
import { getSpace } from '../spaces/model.js'

/** Who a space is shared with: one user or one team. */
export type Principal = { user: string } | { team: string }

/** The id of a grant row: `${space}/user:${id}` or `${space}/team:${id}`. */
export function grantId(space: string, principal: Principal): string {
  return 'user' in principal ? `${space}/user:${principal.user}` : `${space}/team:${principal.team}`
}

/** The direct grant of a user or team on a space, if any. */
export function getGrant(ctx: Context, space: string, principal: Principal): SpaceGrantRow | undefined {
  return ctx.tx.get('spaceGrants', grantId(space, principal))
}

/** A team of the space's organization, or a 404 (a team of another organization is not revealed). */
export function requireTeamOf(ctx: Context, organization: string, team: string): TeamRow {
  const row = ctx.tx.get('teams', team)
  if (!row || row.organization !== organization) throw new ApiError('NOT_FOUND', `Team ${team} not found`)
  return row
}

/** A user who is a member (a guest is fine) of the organization, or a 404. */
export function requireMemberOf(ctx: Context, organization: string, user: string): void {
  if (!ctx.tx.get('users', user)) throw new ApiError('NOT_FOUND', `User ${user} not found`)
  if (!ctx.tx.get('members', memberId(organization, user))) {
    throw new ApiError('NOT_FOUND', `User ${user} is not a member of the organization of this space`)
  }
}

/**
 * Set the direct role of a user or a team on a live space; `null` removes it. A user must be a
 * member of the space's organization (a guest is fine) and a team must belong to it, so a grant
 * never reaches outside the organization. Returns the grant, or undefined when removed.
 */
export function grantSpace(ctx: Context, spaceId: string, principal: Principal, role: Role | null): SpaceGrantRow | undefined {
  const space = getSpace(ctx, spaceId)
  if ('user' in principal) requireMemberOf(ctx, space.organization, principal.user)
  else requireTeamOf(ctx, space.organization, principal.team)
  if (role === null) {
    revokeSpace(ctx, space.id, principal)
    return undefined
  }
  const existing = getGrant(ctx, space.id, principal)
  if (existing) {
    const next = produce(existing, (draft) => {
      draft.role = role
    })
    return next === existing ? existing : ctx.tx.update('spaceGrants', next)
  }
  return ctx.tx.insert('spaceGrants', {
    id: grantId(space.id, principal),
    space: space.id,
    organization: space.organization,
    principal: 'user' in principal ? { type: 'user', user: principal.user } : { type: 'team', team: principal.team },
    role,
  })
}

/** Remove the direct grant of a user or a team on a space; returns whether there was one. */
export function revokeSpace(ctx: Context, spaceId: string, principal: Principal): boolean {
  return ctx.tx.delete('spaceGrants', grantId(spaceId, principal))
}

export interface Invitation {
  role: Role | null
  users?: readonly string[] | undefined
  teams?: readonly string[] | undefined
}

/**
 * Invite users and teams to a space with a role (re-inviting updates the role). A user who is
 * not yet a member of the space's organization joins it as a guest, as in the product: the grant
 * is what gives the guest access. `role: null` removes the listed grants and adds nobody.
 * Any unknown user or team fails the whole invitation (the request's transaction rolls back).
 */
export function inviteToSpace(ctx: Context, space: SpaceRow, invitation: Invitation): void {
  for (const user of new Set(invitation.users ?? [])) {
    if (invitation.role !== null) {
      if (!ctx.tx.get('users', user)) throw new ApiError('NOT_FOUND', `User ${user} not found`)
      addMember(ctx, space.organization, user, null)
    }
    grantSpace(ctx, space.id, { user }, invitation.role)
  }
  for (const team of new Set(invitation.teams ?? [])) grantSpace(ctx, space.id, { team }, invitation.role)
}

/** Remove every grant a user holds in an organization (for when the user leaves it). */
export function revokeUserGrantsInOrganization(ctx: Context, organization: string, user: string): number {
  let n = 0
  for (const { row } of ctx.tx.scan('spaceGrants', 'byPrincipal', `user:${user}`)) {
    if (row.organization === organization && ctx.tx.delete('spaceGrants', row.id)) n++
  }
  return n
}

/** Remove every grant of a team (for when the team is deleted). */
export function revokeTeamGrants(ctx: Context, team: string): number {
  let n = 0
  for (const { row } of ctx.tx.scan('spaceGrants', 'byPrincipal', `team:${team}`)) if (ctx.tx.delete('spaceGrants', row.id)) n++
  return n
}

/** Remove every grant on a space (for when the space is purged). */
export function revokeAllOnSpace(ctx: Context, space: string): number {
  let n = 0
  for (const { row } of ctx.tx.scan('spaceGrants', 'bySpace', space)) if (ctx.tx.delete('spaceGrants', row.id)) n++
  return n
}
