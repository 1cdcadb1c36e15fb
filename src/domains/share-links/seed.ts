import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { ShareLinkRowSchema } from './rows.js'

const shareLinkRow = ShareLinkRowSchema.shape

/** Share links of sites in a state document; keys are unique (a key opens exactly one site). */
export const shareLinkSeedRules = [
  seedRule({
    collection: 'shareLinks',
    row: (d) =>
      // The site's organization is filled in when left out.
      ShareLinkRowSchema.partial({ organization: true })
        .extend({
          key: shareLinkRow.key.default(d.newId),
          name: shareLinkRow.name.default(''),
          active: shareLinkRow.active.default(true),
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
