import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { redirectSourceKey, SiteRedirectRowSchema } from './rows.js'

const redirectRow = SiteRedirectRowSchema.shape

/**
 * Redirects of sites in a state document: a live and a draft redirect per source at most (sources
 * compared as the API compares them), and a destination's section or site-space, when it still
 * exists, of the redirect's own site (one that is gone is a redirect leading nowhere, which the
 * API can reach by removing it).
 */
export const siteRedirectSeedRules = [
  seedRule({
    collection: 'siteRedirects',
    row: (d) =>
      // The site's organization is filled in when left out.
      SiteRedirectRowSchema.partial({ organization: true })
        .extend({
          draft: redirectRow.draft.default(false),
          captureWildcard: redirectRow.captureWildcard.default(false),
          permanent: redirectRow.permanent.default(false),
          createdAt: SeedTimestampSchema.default(d.now),
        })
        .transform((row) => ({ ...row, organization: row.organization ?? d.tx.get('sites', row.site)?.organization ?? '' })),
    check: ({ ctx, fail }, row) => {
      const site = ctx.tx.get('sites', row.site)
      if (!site) return fail('site', `no site "${row.site}"`)
      if (site.organization !== row.organization) fail('organization', `must be the site's organization "${site.organization}"`)
      if (ctx.tx.count('siteRedirects', 'bySource', redirectSourceKey(row.site, row.draft, row.source)) > 1) {
        fail('source', `is the source of another ${row.draft ? 'draft' : 'live'} redirect of this site`)
      }
      const d = row.destination
      const named =
        d.kind === 'site-section' ? ctx.tx.get('siteSections', d.siteSectionId) : d.kind === 'external' ? undefined : ctx.tx.get('siteSpaces', d.siteSpaceId)
      if (named && named.site !== row.site) fail('destination', `names a ${d.kind === 'site-section' ? 'section' : 'site-space'} of another site`)
    },
  }),
]
