import { z } from 'zod'
import { listOrder, listQuery } from '../../core/paging.js'
import { ROLES } from '../../core/roles.js'
import { RoleOrGuestSchema, TimestampSchema, UserSchema } from '../common/schemas.js'

export const MemberSchema = z
  .object({
    object: z.literal('member'),
    id: z.string(),
    role: RoleOrGuestSchema,
    user: UserSchema,
    disabled: z.boolean(),
    joinedAt: TimestampSchema,
    lastSeenAt: TimestampSchema.optional(),
    sso: z.boolean(),
    spaces: z.number(),
    teams: z.number(),
    sites: z.number(),
  })
  .meta({ id: 'OrganizationMember' })

export const MEMBER_SORTS = ['joinedAt', 'lastSeenAt', 'name'] as const
export type MemberSort = (typeof MEMBER_SORTS)[number]

export const ListMembersQuerySchema = listQuery.extend({
  order: listOrder.meta({ description: 'Sort direction (default `desc`).' }),
  role: z
    .enum([...ROLES, 'guest'], { error: `must be one of ${[...ROLES, 'guest'].join(', ')}` })
    .optional()
    .meta({ description: 'Only members with this role (`guest`: members without a role).' }),
  search: z.string().optional().meta({ description: 'Case-insensitive text matched against display name and email.' }),
  sort: z
    .enum(MEMBER_SORTS, { error: `must be one of ${MEMBER_SORTS.join(', ')}` })
    .default('joinedAt')
    .meta({ description: 'Sort key (default `joinedAt`); `lastSeenAt` lists only members seen at least once.' }),
})

export const UpdateMemberSchema = z.object({
  role: RoleOrGuestSchema.optional().meta({ description: 'The new role; null makes the member a guest. Absent: unchanged.' }),
})

export const PingResponseSchema = z.object({
  gitbookVisitorClaims: z.string().optional().meta({ description: 'Claims to attach to the user (never set by this implementation).' }),
})
