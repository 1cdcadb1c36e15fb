import { z } from 'zod'
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
