import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { RoleOrGuestSchema } from '../common/schemas.js'
import { memberId } from './model.js'

/** Members of organizations in a state document. */
export const memberSeedRules = [
  seedRule({
    collection: 'members',
    row: (d) =>
      z
        .strictObject({
          id: z.string().optional(),
          organization: SeedIdSchema,
          user: SeedIdSchema,
          role: RoleOrGuestSchema.default('read'),
          disabled: z.boolean().default(false),
          sso: z.boolean().default(false),
          joinedAt: SeedTimestampSchema.default(d.now),
          lastSeenAt: SeedTimestampSchema.optional(),
        })
        .transform(({ id, ...m }) => ({ id: id ?? memberId(m.organization, m.user), ...m })),
    check: ({ ctx, fail }, row) => {
      if (row.id !== memberId(row.organization, row.user)) fail('id', `must be "${memberId(row.organization, row.user)}" (organization/user), or left out`)
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      if (!ctx.tx.get('users', row.user)) fail('user', `no user "${row.user}"`)
    },
  }),
]
