import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'

/** Users and their access tokens in a state document. */
export const userSeedRules = [
  seedRule({
    collection: 'users',
    row: () =>
      z.strictObject({
        id: SeedIdSchema,
        displayName: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
        email: z.email({ error: 'must be an email address' }).optional(),
        emailVerified: z.boolean().default(true),
        photoURL: z.url({ error: 'must be a URL' }).optional(),
      }),
  }),
  seedRule({
    collection: 'tokens',
    row: (d) =>
      z.strictObject({
        // The token string itself, as sent in `Authorization: Bearer <token>`.
        id: z.string().regex(/^[\x21-\x7e]{8,512}$/, 'must be a token of 8..512 printable ASCII characters without spaces'),
        user: SeedIdSchema,
        createdAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('users', row.user)) fail('user', `no user "${row.user}"`)
    },
  }),
]
