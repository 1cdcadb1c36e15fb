import type { ReadContext } from '../context.js'
import type { UserRow } from './rows.js'

/**
 * Whether the caller reads users' email addresses in an organization: a member with a role does; a
 * guest (a member without a role, who reaches only what he was granted) and anyone else does not,
 * except for his own address. Emails are how the organization's people are reached, so they stay
 * among its members, as the product's share dialogs show guests names only.
 */
export function seesEmailsIn(ctx: ReadContext, organization: string): boolean {
  const member = ctx.tx.get('members', `${organization}/${ctx.actor.user}`)
  return member !== undefined && !member.disabled && member.role !== null
}

/** Whose emails a user shown within a space may carry: the space's organization (see encodeUser). */
export function emailScopeOfSpace(ctx: ReadContext, space: string): string | boolean {
  return ctx.tx.get('spaces', space)?.organization ?? false
}

/**
 * The API resource of a user. `email` says whether the email goes in: an organization's id leaves
 * it out unless the caller is the user or sees emails in that organization (seesEmailsIn); `true`
 * (the default) when the caller settled it (their own user; seesEmailOf for getUserById).
 */
export function encodeUser(ctx: ReadContext, row: UserRow, email: string | boolean = true) {
  const shown = typeof email === 'boolean' ? email : row.id === ctx.actor.user || seesEmailsIn(ctx, email)
  return {
    object: 'user' as const,
    id: row.id,
    displayName: row.displayName,
    ...(shown && row.email !== undefined && { email: row.email }),
    ...(row.photoURL !== undefined && { photoURL: row.photoURL }),
    urls: { location: ctx.urls.api(`/users/${row.id}`) },
  }
}

/** Whether the caller reads a user's email anywhere: their own, or one of an organization where the caller sees emails. */
export function seesEmailOf(ctx: ReadContext, user: string): boolean {
  if (user === ctx.actor.user) return true
  for (const { row } of ctx.tx.scan('members', 'byUser', ctx.actor.user)) {
    if (ctx.tx.get('members', `${row.organization}/${user}`) && seesEmailsIn(ctx, row.organization)) return true
  }
  return false
}
