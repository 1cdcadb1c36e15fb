import { z } from 'zod'
import { DefaultLevelSchema, TimestampSchema, UrlTextSchema, permissionsSchema } from '../common/schemas.js'

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const
export const SiteTypeSchema = z.enum(SITE_TYPES).meta({ id: 'SiteType', description: 'The type (plan) of a site.' })
export const SiteVisibilitySchema = z
  .enum(['public', 'unlisted', 'share-link', 'visitor-auth'])
  .meta({ id: 'SiteVisibility', description: 'Audience of a published site.' })
export const SiteTitleSchema = z.string().min(2, 'must be at least 2 characters').max(128, 'must be at most 128 characters').meta({ id: 'SiteTitle' })
export const SiteBasenameSchema = UrlTextSchema.min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .meta({ id: 'SiteBasename', description: 'Basename of the site in its published URL, e.g. `api`.' })
/** Dot-separated lower-case labels, at least three (the reference's and official pattern). */
export const SiteHostnameSchema = z
  .string()
  .max(512, 'must be at most 512 characters')
  .regex(
    /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/,
    'must be a lower-case hostname of at least three labels, e.g. docs.example.com',
  )
  .meta({ id: 'SiteHostname' })
/** A host followed by one or more path segments, e.g. `company.com/docs`. */
export const SiteProxyOriginSchema = z
  .string()
  .max(512, 'must be at most 512 characters')
  .regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, 'must be a host followed by a path, e.g. company.com/docs')
  .meta({ id: 'SiteProxyOrigin' })
/**
 * A proxy origin as the API keeps it: its host in lower case (host names are case-insensitive, and
 * URLs give them in lower case: published/resolve.ts looks a proxy up by a URL's host), its path as given.
 */
export const lowerCaseProxyHost = (origin: string) => origin.slice(0, origin.indexOf('/')).toLowerCase() + origin.slice(origin.indexOf('/'))
export const SiteAgentsContextSchema = z.enum(['excluded', 'included']).meta({ description: "Whether the site is in the agent's context." })
export const SiteAdaptiveContentSchema = z.object({ enabled: z.boolean() }).meta({ id: 'SiteAdaptiveContent' })

export const SITE_PERMISSION_KEYS = ['view', 'access', 'edit', 'create', 'admin', 'installIntegration', 'viewAdaptiveSchema', 'editAdaptiveSchema'] as const

export const SiteSchema = z
  .object({
    object: z.literal('site'),
    id: z.string(),
    type: SiteTypeSchema,
    appliedType: SiteTypeSchema,
    title: z.string(),
    hostname: z.string().optional(),
    basename: z.string().optional(),
    proxy: z.object({ origin: z.string(), target: z.string() }).optional(),
    visibility: SiteVisibilitySchema,
    defaultLevel: DefaultLevelSchema,
    permissions: permissionsSchema(SITE_PERMISSION_KEYS),
    published: z.boolean(),
    siteSpaces: z.number(),
    createdAt: TimestampSchema,
    adaptiveContent: SiteAdaptiveContentSchema.optional(),
    agentsContext: SiteAgentsContextSchema,
    features: z.array(z.object({ id: z.string(), plan: SiteTypeSchema, frozen: z.boolean() })),
    urls: z.object({
      location: z.string(),
      app: z.string(),
      preview: z.string(),
      published: z.string().optional(),
    }),
  })
  .meta({ id: 'Site' })

export const CreateSiteSchema = z.object({
  type: SiteTypeSchema.optional().meta({ description: 'The type of the site (default `basic`).' }),
  title: SiteTitleSchema.optional(),
  visibility: SiteVisibilitySchema.optional().meta({ description: 'Audience of the site once published (default `public`).' }),
  spaces: z
    .array(z.string().min(1, 'must not be empty'))
    .max(100, 'must list at most 100 spaces')
    .optional()
    .meta({ description: 'IDs of spaces to add to the site, in order (the first becomes the default).' }),
})

export const UpdateSiteSchema = z.object({
  title: SiteTitleSchema.optional(),
  visibility: SiteVisibilitySchema.optional(),
  basename: SiteBasenameSchema.optional(),
  hostname: SiteHostnameSchema.nullable().optional().meta({ description: 'Custom hostname of the site; null removes it.' }),
  adaptiveContent: SiteAdaptiveContentSchema.optional(),
  agentsContext: SiteAgentsContextSchema.optional(),
  defaultSiteSpace: z
    .string()
    .min(1, 'must not be empty')
    .optional()
    .meta({ description: "ID of the site-space to make the default at the root level, or in the site's default section when it has sections." }),
  defaultSiteSection: z.string().min(1, 'must not be empty').optional().meta({ description: 'ID of the site-section to make the default.' }),
  proxy: SiteProxyOriginSchema.transform(lowerCaseProxyHost)
    .nullable()
    .optional()
    .meta({ description: 'Serve the site from this host and path, e.g. `company.com/docs`; null removes the proxy.' }),
})

export const ListSitesQuerySchema = z.object({
  space: z.string().min(1).optional().meta({ description: 'Only sites publishing this space.' }),
  title: z.string().optional().meta({ description: 'Only sites whose title contains this text (case-insensitive).' }),
})

export const SitePublishingAuthBackendSchema = z
  .enum(['custom', 'integration'])
  .meta({ description: 'Who signs visitor tokens: your own backend (`custom`) or an authenticated-access integration (`integration`).' })
/** Where visitors are sent (a fallback or logout URL): an http or https page, never a script. */
export const SitePublishingAuthUrlSchema = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2048, 'must be at most 2048 characters')

export const SitePublishingAuthSchema = z
  .object({
    object: z.literal('publishing-auth'),
    backend: SitePublishingAuthBackendSchema,
    privateKey: z.string().meta({ description: 'Private key signing visitor tokens (HS256 JWTs).' }),
    fallbackURL: z.string().optional().meta({ description: 'Where a visitor without a valid token is sent.' }),
    logoutURL: z.string().optional(),
  })
  .meta({ id: 'SitePublishingAuth' })

export const SitePublishingAuthUpdateSchema = z.object({
  backend: SitePublishingAuthBackendSchema.optional().meta({ description: 'Omitted keeps the backend.' }),
  fallbackURL: SitePublishingAuthUrlSchema.nullable().optional().meta({ description: 'Omitted keeps the fallback URL; null removes it.' }),
  logoutURL: SitePublishingAuthUrlSchema.nullable().optional().meta({ description: 'Omitted keeps the logout URL; null removes it.' }),
})
