import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { AdaptiveJsonSchemaInputSchema, normaliseAdaptiveSchema } from './adaptive-schema.js'
import { SiteCustomizationBaseSchema } from './customization-schemas.js'
import {
  SiteAdaptiveContentSchema,
  SiteAgentsContextSchema,
  SiteBasenameSchema,
  SiteHostnameSchema,
  SiteProxyOriginSchema,
  SitePublishingAuthBackendSchema,
  SitePublishingAuthUrlSchema,
  SiteTitleSchema,
  SiteTypeSchema,
  SiteVisibilitySchema,
} from './schemas.js'

/**
 * The rows the sites area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

/** A published docs site of an organization. */
export const SiteRowSchema = z.strictObject({
  id: SeedIdSchema,
  organization: SeedIdSchema,
  type: SiteTypeSchema,
  title: SiteTitleSchema,
  visibility: SiteVisibilitySchema,
  published: z.boolean(),
  createdAt: SeedTimestampSchema,
  hostname: SiteHostnameSchema.optional(),
  basename: SiteBasenameSchema.optional(),
  /** The origin a proxy serves the site from (host and path, e.g. `company.com/docs`). */
  proxy: SiteProxyOriginSchema.optional(),
  adaptiveContent: SiteAdaptiveContentSchema.optional(),
  agentsContext: SiteAgentsContextSchema,
  /** The visitor schema of adaptive content, once set: stored normalised, as updateSiteAdaptiveSchema stores it. */
  adaptiveSchema: z.strictObject({ jsonSchema: AdaptiveJsonSchemaInputSchema.transform(normaliseAdaptiveSchema), updatedAt: SeedTimestampSchema }).optional(),
})
export type SiteRow = z.output<typeof SiteRowSchema>

export type SiteType = z.output<typeof SiteTypeSchema>

/** A site's customization, once set (a site without one shows DEFAULT_CUSTOMIZATION): one per site. */
export const SiteCustomizationRowSchema = z.strictObject({
  id: SeedIdSchema,
  site: SeedIdSchema,
  organization: SeedIdSchema,
  settings: SiteCustomizationBaseSchema,
  updatedAt: SeedTimestampSchema,
})
export type SiteCustomizationRow = z.output<typeof SiteCustomizationRowSchema>

/**
 * How visitors of a site authenticate (`SitePublishingAuth`): one per site, made with it. The
 * private key signs visitor tokens (HS256); regenerating it replaces it.
 */
export const SitePublishingAuthRowSchema = z.strictObject({
  id: SeedIdSchema,
  site: SeedIdSchema,
  organization: SeedIdSchema,
  privateKey: z.string().min(32, 'must be at least 32 characters'),
  backend: SitePublishingAuthBackendSchema,
  fallbackURL: SitePublishingAuthUrlSchema.optional(),
  logoutURL: SitePublishingAuthUrlSchema.optional(),
})
export type SitePublishingAuthRow = z.output<typeof SitePublishingAuthRowSchema>

/** The collections the sites area stores, with their indexes. */
export const sitesCollections = {
  sites: collection<SiteRow>({
    byOrganization: { key: (s) => s.organization },
    /** Custom hostnames are unique across sites. */
    byHostname: { key: (s) => s.hostname },
    /** So are proxy origins. */
    byProxy: { key: (s) => s.proxy },
    /** And basenames within an organization (`${organization}/${basename}`). */
    byBasename: { key: (s) => (s.basename === undefined ? undefined : `${s.organization}/${s.basename}`) },
  }),
  siteCustomizations: collection<SiteCustomizationRow>({
    bySite: { key: (c) => c.site },
  }),
  sitePublishingAuth: collection<SitePublishingAuthRow>({
    bySite: { key: (a) => a.site },
  }),
}
