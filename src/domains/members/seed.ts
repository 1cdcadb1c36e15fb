import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { memberId } from './model.js'
import { MemberRowSchema } from './rows.js'

const memberRow = MemberRowSchema.shape

/** Members of organizations in a state document. */
export const memberSeedRules = [
  seedRule({
    collection: 'members',
    row: (d) =>
      MemberRowSchema.partial({ id: true })
        .extend({
          role: memberRow.role.default('read'),
          disabled: memberRow.disabled.default(false),
          sso: memberRow.sso.default(false),
          joinedAt: SeedTimestampSchema.default(d.now),
        })
        .transform(({ id, ...m }) => ({ id: id ?? memberId(m.organization, m.user), ...m })),
    check: ({ ctx, fail }, row) => {
      if (row.id !== memberId(row.organization, row.user)) fail('id', `must be "${memberId(row.organization, row.user)}" (organization/user), or left out`)
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      if (!ctx.tx.get('users', row.user)) fail('user', `no user "${row.user}"`)
    },
  }),
]
