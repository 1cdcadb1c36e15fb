import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { AdaptiveJsonSchemaInputSchema, normaliseAdaptiveSchema } from './adaptive-schema.js'
import {
  SiteAdaptiveContentSchema,
  SiteAgentsContextSchema,
  SiteBasenameSchema,
  SiteHostnameSchema,
  SiteProxyOriginSchema,
  SiteTitleSchema,
  SiteTypeSchema,
  SiteVisibilitySchema,
} from './schemas.js'

/** Sites in a state document: published addresses stay unique, as the site operations keep them. */
export const siteSeedRules = [
  seedRule({
    collection: 'sites',
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        organization: SeedIdSchema,
        type: SiteTypeSchema.default('basic'),
        title: SiteTitleSchema.default('Untitled site'),
        visibility: SiteVisibilitySchema.default('public'),
        published: z.boolean().default(false),
        createdAt: SeedTimestampSchema.default(d.now),
        hostname: SiteHostnameSchema.optional(),
        basename: SiteBasenameSchema.optional(),
        proxy: SiteProxyOriginSchema.optional(),
        adaptiveContent: SiteAdaptiveContentSchema.optional(),
        agentsContext: SiteAgentsContextSchema.default('included'),
        // Stored normalised, as updateSiteAdaptiveSchema stores it.
        adaptiveSchema: z
          .strictObject({ jsonSchema: AdaptiveJsonSchemaInputSchema.transform(normaliseAdaptiveSchema), updatedAt: SeedTimestampSchema.default(d.now) })
          .optional(),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
      // Two sites never share a published address.
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
        if (site !== undefined && ctx.tx.get('sites', site)?.organization !== org.id) fail(`organizations[id=${org.id}].defaultContent.site`, `no site "${site}" in organization "${org.id}"`)
      })
    },
  }),
]
