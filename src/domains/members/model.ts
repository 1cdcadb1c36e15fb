import { produce } from '../common/produce.js'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { Action } from '../../core/policy.js'
import type { Role } from '../../core/roles.js'
import type { MemberRow } from './rows.js'

/** Id of a membership row. */
export const memberId = (organization: string, user: string): string => `${organization}/${user}`

/** Add a user to an organization (a no-op returning the membership when already a member). */
export function addMember(ctx: Context, organization: string, user: string, role: Role | null): MemberRow {
  if (!ctx.tx.get('users', user)) throw new ApiError('NOT_FOUND', `User ${user} not found`)
  const existing = ctx.tx.get('members', memberId(organization, user))
  if (existing) return existing
  return ctx.tx.insert('members', {
    id: memberId(organization, user),
    organization,
    user,
    role,
    disabled: false,
    sso: false,
    joinedAt: ctx.nowIso(),
  })
}

/** The membership of a user, or a 404. */
export function getMember(ctx: ReadContext, organization: string, user: string): MemberRow {
  const member = ctx.tx.get('members', memberId(organization, user))
  if (!member) throw new ApiError('NOT_FOUND', 'Member not found')
  return member
}

/**
 * Refuse a change that would leave the organization without an enabled admin: without one,
 * nobody could manage members or content any more. Reads only the admins' index key.
 */
function assertKeepsAnAdmin(ctx: Context, member: MemberRow, what: string): void {
  if (member.role !== 'admin' || member.disabled) return
  for (const { row } of ctx.tx.scan('members', 'byRole', `${member.organization}/admin`)) {
    if (row.id !== member.id && !row.disabled) return
  }
  throw new ApiError('BAD_REQUEST', `Cannot ${what} the last admin of the organization: make another member admin first`)
}

/** Change a member's role (null: guest). */
export function updateMemberRole(ctx: Context, organization: string, user: string, role: Role | null | undefined): MemberRow {
  const member = getMember(ctx, organization, user)
  if (role === undefined || role === member.role) return member
  if (role !== 'admin') assertKeepsAnAdmin(ctx, member, 'demote')
  return ctx.tx.update(
    'members',
    produce(member, (draft) => void (draft.role = role)),
  )
}

/**
 * Remove every grant a user or a team holds on spaces, collections and sites (of `organization`
 * only, when given): a member removed from the organization, a team deleted. Returns how many.
 */
export function removeAllGrantsOf(ctx: Context, principal: { user: string } | { team: string }, organization?: string): number {
  const key = 'user' in principal ? `user:${principal.user}` : `team:${principal.team}`
  let n = 0
  for (const collection of ['spaceGrants', 'collectionGrants', 'siteGrants'] as const) {
    // The three grant collections share their row shape and their `byPrincipal` index.
    for (const { row } of ctx.tx.scan(collection as 'spaceGrants', 'byPrincipal', key)) {
      if ((organization === undefined || row.organization === organization) && ctx.tx.delete(collection, row.id)) n++
    }
  }
  return n
}

/**
 * Remove a user from an organization, with their team memberships and direct space grants in
 * it (they would otherwise give access back if the user rejoined). False when not a member.
 */
export function removeMember(ctx: Context, organization: string, user: string): boolean {
  const member = ctx.tx.get('members', memberId(organization, user))
  if (!member) return false
  assertKeepsAnAdmin(ctx, member, 'remove')
  for (const { row } of ctx.tx.scan('teamMembers', 'byUser', user)) {
    if (row.organization === organization) ctx.tx.delete('teamMembers', row.id)
  }
  removeAllGrantsOf(ctx, { user }, organization)
  ctx.tx.delete('members', member.id)
  return true
}

/** Record that the member was active now. */
export function touchMember(ctx: Context, organization: string, user: string): MemberRow {
  const member = getMember(ctx, organization, user)
  const now = ctx.nowIso()
  return ctx.tx.update(
    'members',
    produce(member, (draft) => void (draft.lastSeenAt = now)),
  )
}

/** Mark a member as able to sign in with the organization's SSO. */
export function setSsoMember(ctx: Context, organization: string, user: string): MemberRow {
  const member = getMember(ctx, organization, user)
  if (member.sso) return member
  return ctx.tx.update(
    'members',
    produce(member, (draft) => void (draft.sso = true)),
  )
}

/** Sites of `organization` on which the user holds a direct grant (a site's grants go with it). */
export function memberSiteCount(ctx: ReadContext, organization: string, user: string): number {
  let n = 0
  for (const { row } of ctx.tx.scan('siteGrants', 'byPrincipal', `user:${user}`)) if (row.organization === organization) n++
  return n
}

/** Live spaces of `organization` on which the user holds a direct grant. */
export function memberSpaceCount(ctx: ReadContext, organization: string, user: string): number {
  let n = 0
  for (const { row } of ctx.tx.scan('spaceGrants', 'byPrincipal', `user:${user}`)) {
    if (row.organization !== organization) continue
    const space = ctx.tx.get('spaces', row.space)
    if (space && !space.deletedAt) n++
  }
  return n
}

/** Teams of `organization` the user belongs to. */
export function memberTeamCount(ctx: ReadContext, organization: string, user: string): number {
  let n = 0
  for (const { row } of ctx.tx.scan('teamMembers', 'byUser', user)) if (row.organization === organization) n++
  return n
}

/** What a member may do on their own membership needs `action` only when aimed at someone else. */
export function requireUnlessSelf(ctx: ReadContext, organization: string, user: string, action: Action): void {
  if (user !== ctx.actor.user) ctx.access.require('organization', organization, action)
}
