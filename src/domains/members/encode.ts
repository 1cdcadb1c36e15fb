import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { MemberRow } from './rows.js'
import { encodeUser } from '../users/encode.js'

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

export function encodeMember(ctx: ReadContext, row: MemberRow) {
  const user = ctx.tx.get('users', row.user)
  if (!user) throw new ApiError('NOT_FOUND', 'User not found')
  return {
    object: 'member' as const,
    id: row.user,
    role: row.role,
    user: encodeUser(ctx, user),
    disabled: row.disabled,
    joinedAt: row.joinedAt,
    ...(row.lastSeenAt !== undefined && { lastSeenAt: row.lastSeenAt }),
    sso: row.sso,
    spaces: memberSpaceCount(ctx, row.organization, row.user),
    teams: memberTeamCount(ctx, row.organization, row.user),
    sites: 0,
  }
}
