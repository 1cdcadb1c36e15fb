import { seedRule, type SeedCheck } from '../../state/seed.js'
import { SiteAgentFeedbackRowSchema, SiteInsightEventRowSchema } from './rows.js'

/** A row of a site: the site must be there, in the row's organization. */
function checkSite({ ctx, fail }: SeedCheck, row: { site: string; organization: string }): void {
  const site = ctx.tx.get('sites', row.site)
  if (!site) return fail('site', `no site "${row.site}"`)
  if (site.organization !== row.organization) fail('organization', `must be the site's organization "${site.organization}"`)
}

/** Insights rows in a state document, each of a site of its organization (the caps hold for what the API adds next). */
export const insightsSeedRules = [
  seedRule({
    collection: 'siteInsightEvents',
    // Instants in the one form the API writes (aggregations compare them as text).
    row: () => SiteInsightEventRowSchema.transform((row) => ({ ...row, at: new Date(row.at).toISOString() })),
    check: checkSite,
  }),
  seedRule({ collection: 'siteAgentFeedback', row: () => SiteAgentFeedbackRowSchema, check: checkSite }),
]
