import type { Context } from '../../core/context.js'
import { ApiError } from '../../core/errors.js'
import type { Role } from '../../core/roles.js'
import type { MemberRow } from '../../storage/schema.js'

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
