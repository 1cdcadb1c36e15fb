import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { MemberRow } from './rows.js'
import { encodeUser } from '../users/encode.js'
import { memberSiteCount, memberSpaceCount, memberTeamCount } from './model.js'

export function encodeMember(ctx: ReadContext, row: MemberRow) {
  const user = ctx.tx.get('users', row.user)
  if (!user) throw new ApiError('NOT_FOUND', 'User not found')
  return {
    object: 'member' as const,
    id: row.user,
    role: row.role,
    user: encodeUser(ctx, user, row.organization),
    disabled: row.disabled,
    joinedAt: row.joinedAt,
    ...(row.lastSeenAt !== undefined && { lastSeenAt: row.lastSeenAt }),
    sso: row.sso,
    spaces: memberSpaceCount(ctx, row.organization, row.user),
    teams: memberTeamCount(ctx, row.organization, row.user),
    sites: memberSiteCount(ctx, row.organization, row.user),
  }
}
