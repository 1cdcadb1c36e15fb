import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { ShareLinkNameSchema } from './schemas.js'

/** Share links of sites in a state document; keys are unique (a key opens exactly one site). */
export const shareLinkSeedRules = [
  seedRule({
    collection: 'shareLinks',
    row: (d) =>
      z
        .strictObject({
          id: SeedIdSchema,
          site: SeedIdSchema,
          organization: SeedIdSchema.optional(),
          key: SeedIdSchema.default(d.newId),
          name: ShareLinkNameSchema.default(''),
          active: z.boolean().default(true),
          createdAt: SeedTimestampSchema.default(d.now),
        })
        .transform((row) => ({ ...row, organization: row.organization ?? d.tx.get('sites', row.site)?.organization ?? '' })),
    check: ({ ctx, fail }, row) => {
      const site = ctx.tx.get('sites', row.site)
      if (!site) return fail('site', `no site "${row.site}"`)
      if (site.organization !== row.organization) fail('organization', `must be the site's organization "${site.organization}"`)
      if (ctx.tx.count('shareLinks', 'byKey', row.key) > 1) fail('key', 'is the key of another share link')
    },
  }),
]
