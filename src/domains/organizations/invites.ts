import { ApiError } from '../../core/errors.js'
import { atLeast, type Role } from '../../core/roles.js'
import { produce } from '../common/produce.js'
import type { Context, ReadContext } from '../context.js'
import { addMember, memberId } from '../members/model.js'
import { getOrganization } from './model.js'
import type { InviteLinkRow } from './rows.js'

/**
 * Organization invites: invite links (a role anyone signed in who has the link joins with) and
 * invitations by email (the users are found by email, or created, and added as members at once,
 * as the official answer counts them: `users` added, `invited` their number).
 */

/** An invite link of the organization, or a 404 (also for one of another organization). */
export function getInviteLink(ctx: ReadContext, organization: string, id: string): InviteLinkRow {
  const invite = ctx.tx.get('inviteLinks', id)
  if (!invite || invite.organization !== organization) throw new ApiError('NOT_FOUND', 'Invite not found')
  return invite
}

/** Whether the caller already has what the invite gives (a membership with at least its role). */
export function isRedundant(ctx: ReadContext, invite: InviteLinkRow): boolean {
  const member = ctx.tx.get('members', memberId(invite.organization, ctx.actor.user))
  if (!member || member.disabled) return false
  return invite.role === null || (member.role !== null && atLeast(member.role, invite.role))
}

export function encodeInviteLink(ctx: ReadContext, invite: InviteLinkRow) {
  return { object: 'invite' as const, id: invite.id, role: invite.role, redundant: isRedundant(ctx, invite) }
}

export function createInviteLink(ctx: Context, organization: string, role: Role | null): InviteLinkRow {
  getOrganization(ctx, organization)
  return ctx.tx.insert('inviteLinks', { id: ctx.newId(), organization, role, createdAt: ctx.nowIso() })
}

export function updateInviteLink(ctx: Context, organization: string, id: string, role: Role | null): InviteLinkRow {
  const invite = getInviteLink(ctx, organization, id)
  if (invite.role === role) return invite
  return ctx.tx.update(
    'inviteLinks',
    produce(invite, (draft) => void (draft.role = role)),
  )
}

/**
 * Join an organization with one of its invite links: the caller becomes a member with the link's
 * role. Refused while the organization has invite links turned off (`inviteLinks: false`). A
 * member already holding the role (or more) stays as he is; a member with a lesser role is raised
 * to the link's; a disabled member is not re-enabled by a link (an admin disabled him).
 */
export function joinWithInviteLink(ctx: Context, organization: string, id: string): void {
  const org = getOrganization(ctx, organization)
  const invite = getInviteLink(ctx, organization, id)
  if (!org.inviteLinks) {
    throw new ApiError('BAD_REQUEST', 'Cannot join: invite links are disabled in this organization (its `inviteLinks` setting is false)')
  }
  const member = ctx.tx.get('members', memberId(organization, ctx.actor.user))
  if (!member) {
    addMember(ctx, organization, ctx.actor.user, invite.role)
    return
  }
  if (member.disabled) throw new ApiError('BAD_REQUEST', 'Cannot join: your membership of this organization is disabled')
  if (isRedundant(ctx, invite)) return
  ctx.tx.update(
    'members',
    produce(member, (draft) => void (draft.role = invite.role)),
  )
}

export interface InviteByEmail {
  email: string
  role: Role | null
}

/**
 * Invite users by email: each address is matched to a user (case-insensitively) or a new user is
 * created with it (display name: the address's local part, email unverified), then added as a
 * member with its role. An address given twice, or a user already a member, is a 400 naming the
 * entry (`emails[i]`) and nothing is added. With `sso`, the new members may sign in with the
 * organization's SSO, unless they already are SSO members of another organization: those are added
 * without it and listed in `failedSSOEmails`.
 */
export function inviteUsers(ctx: Context, organization: string, invites: InviteByEmail[], sso: boolean) {
  getOrganization(ctx, organization)
  const seen = new Map<string, number>()
  invites.forEach((invite, i) => {
    const key = invite.email.toLowerCase()
    const first = seen.get(key)
    if (first !== undefined)
      throw new ApiError('BAD_REQUEST', `Invalid request: body field \`emails[${i}]\`: ${invite.email} is already invited by emails[${first}]`)
    seen.set(key, i)
    const user = findUserByEmail(ctx, invite.email)
    if (user && ctx.tx.get('members', memberId(organization, user.id))) {
      throw new ApiError('BAD_REQUEST', `Invalid request: body field \`emails[${i}]\`: ${invite.email} is already a member of the organization`)
    }
  })
  const users: string[] = []
  const failedSSOEmails: string[] = []
  for (const invite of invites) {
    const user =
      findUserByEmail(ctx, invite.email) ??
      ctx.tx.insert('users', {
        id: ctx.newId(),
        displayName: invite.email.slice(0, invite.email.lastIndexOf('@')).slice(0, 255) || invite.email,
        email: invite.email,
        emailVerified: false,
      })
    const member = addMember(ctx, organization, user.id, invite.role)
    if (sso) {
      const elsewhere = ctx.tx.scan('members', 'byUser', user.id).some((e) => e.row.organization !== organization && e.row.sso)
      if (elsewhere) failedSSOEmails.push(invite.email)
      else
        ctx.tx.update(
          'members',
          produce(member, (draft) => void (draft.sso = true)),
        )
    }
    users.push(user.id)
  }
  return { users, invited: users.length, ...(sso && { failedSSOEmails }) }
}

function findUserByEmail(ctx: ReadContext, email: string) {
  return ctx.tx.scan('users', 'byEmail', email.toLowerCase())[0]?.row
}
