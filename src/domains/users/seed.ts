import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { NotificationTokenRowSchema, TokenRowSchema, UserRowSchema } from './rows.js'

/** Users and their access tokens in a state document. */
export const userSeedRules = [
  seedRule({
    collection: 'users',
    row: () => UserRowSchema.extend({ emailVerified: UserRowSchema.shape.emailVerified.default(true) }),
  }),
  seedRule({
    collection: 'tokens',
    row: (d) => TokenRowSchema.extend({ createdAt: SeedTimestampSchema.default(d.now) }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('users', row.user)) fail('user', `no user "${row.user}"`)
    },
  }),
  seedRule({
    collection: 'notificationTokens',
    row: (d) => NotificationTokenRowSchema.extend({ createdAt: SeedTimestampSchema.default(d.now) }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('users', row.user)) fail('user', `no user "${row.user}"`)
    },
  }),
]
