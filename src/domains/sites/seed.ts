import type { Context } from '../context.js'
import { SeedTimestampSchema, seedRule, type SeedDefaults } from '../../state/seed.js'
import { SiteCustomizationInputSchema } from './customization-schemas.js'
import { insertPublishingAuth, newPrivateKey } from './publishing-auth.js'
import { SiteCustomizationRowSchema, SitePublishingAuthRowSchema, SiteRowSchema } from './rows.js'
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

/** Rows hanging off one site: they name its organization (filled in when left out). */
const organizationOf = (d: SeedDefaults, row: { site: string; organization?: string | undefined }): string =>
  row.organization ?? d.tx.get('sites', row.site)?.organization ?? ''

/** The site of a site's settings row, in the row's organization, with no other such row. */
function checkSiteSetting(
  ctx: Context,
  collection: 'siteCustomizations' | 'sitePublishingAuth',
  row: { id: string; site: string; organization: string },
  fail: (field: string, rule: string) => never,
): void {
  const site = ctx.tx.get('sites', row.site)
  if (!site) fail('site', `no site "${row.site}"`)
  else if (site.organization !== row.organization) fail('organization', `must be the site's organization "${site.organization}"`)
  const rows: ReadonlyArray<{ row: { id: string } }> = ctx.tx.scan(collection, 'bySite', row.site)
  if (rows.some((e) => e.row.id !== row.id)) fail('site', `site "${row.site}" has another row of ${collection}`)
}

/** A site's customization and visitor authentication in a state document: one of each per site. */
export const siteSettingsSeedRules = [
  seedRule({
    collection: 'siteCustomizations',
    row: (d) =>
      SiteCustomizationRowSchema.partial({ organization: true })
        // The settings as `updateSiteCustomizationById` takes them: what is left out is the default.
        .extend({ settings: SiteCustomizationInputSchema, updatedAt: SeedTimestampSchema.default(d.now) })
        .transform((row) => ({ ...row, organization: organizationOf(d, row) })),
    check: ({ ctx, fail }, row) => checkSiteSetting(ctx, 'siteCustomizations', row, fail),
  }),
  seedRule({
    collection: 'sitePublishingAuth',
    row: (d) =>
      SitePublishingAuthRowSchema.partial({ organization: true })
        .extend({
          privateKey: SitePublishingAuthRowSchema.shape.privateKey.default(newPrivateKey),
          backend: SitePublishingAuthRowSchema.shape.backend.default('custom'),
        })
        .transform((row) => ({ ...row, organization: organizationOf(d, row) })),
    check: ({ ctx, fail }, row) => checkSiteSetting(ctx, 'sitePublishingAuth', row, fail),
    // Every site has its visitor authentication, as createSite makes it: a site loaded without one gets a new key.
    finish: ({ ctx }) => {
      for (const site of ctx.tx.all('sites')) if (ctx.tx.count('sitePublishingAuth', 'bySite', site.id) === 0) insertPublishingAuth(ctx, site)
    },
  }),
]
