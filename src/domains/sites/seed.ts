import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { SiteRowSchema } from './rows.js'
import { lowerCaseProxyHost } from './schemas.js'

const siteRow = SiteRowSchema.shape

/** Sites in a state document: published addresses stay unique, as the site operations keep them. */
export const siteSeedRules = [
  seedRule({
    collection: 'sites',
    row: (d) =>
      SiteRowSchema.extend({
        type: siteRow.type.default('basic'),
        title: siteRow.title.default('Untitled site'),
        visibility: siteRow.visibility.default('public'),
        published: siteRow.published.default(false),
        createdAt: SeedTimestampSchema.default(d.now),
        agentsContext: siteRow.agentsContext.default('included'),
        // Kept as updateSiteById keeps it: host in lower case.
        proxy: siteRow.proxy.unwrap().transform(lowerCaseProxyHost).optional(),
        adaptiveSchema: siteRow.adaptiveSchema
          .unwrap()
          .extend({ updatedAt: SeedTimestampSchema.default(d.now) })
          .optional(),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      // Two sites never share a published address, and none is on the API's published host (sites/lifecycle.ts).
      const publishedHost = new URL(ctx.urls.published('/')).host
      if (row.hostname === publishedHost) fail('hostname', `"${row.hostname}" is the host of the API's published sites`)
      if (row.proxy !== undefined && row.proxy.slice(0, row.proxy.indexOf('/')) === publishedHost) {
        fail('proxy', `"${row.proxy}" is on the host of the API's published sites`)
      }
      if (row.hostname !== undefined && ctx.tx.count('sites', 'byHostname', row.hostname) > 1) fail('hostname', `"${row.hostname}" is used by another site`)
      if (row.proxy !== undefined && ctx.tx.count('sites', 'byProxy', row.proxy) > 1) fail('proxy', `"${row.proxy}" is used by another site`)
      if (row.basename !== undefined && ctx.tx.count('sites', 'byBasename', `${row.organization}/${row.basename}`) > 1) {
        fail('basename', `"${row.basename}" is used by another site of the organization`)
      }
    },
    // An organization's default content is one of its sites (organizations come before sites).
    finish: ({ ctx, fail }) => {
      ctx.tx.all('organizations').forEach((org) => {
        const site = org.defaultContent?.site
        if (site !== undefined && ctx.tx.get('sites', site)?.organization !== org.id)
          fail(`organizations[id=${org.id}].defaultContent.site`, `no site "${site}" in organization "${org.id}"`)
      })
    },
  }),
]
