import { z } from 'zod'
import { queryBoolean, listQuery } from '../../core/paging.js'
import { TimestampSchema, UrlSchema } from '../common/schemas.js'
import { OrganizationSchema } from '../organizations/schemas.js'
import { INTEGRATION_SCOPES } from '../../core/scopes.js'

/** Integrations (official `Integration`, `PublishIntegration`): names, manifests, list filters. */

export const INTEGRATION_NAME_PATTERN = /^[a-zA-Z0-9-_.]+$/
export const IntegrationNameSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .regex(INTEGRATION_NAME_PATTERN, 'must be letters, digits, "-", "_" or "."')

export const IntegrationTargetSchema = z.enum(['all', 'site', 'space', 'organization']).meta({ id: 'IntegrationTarget' })
export const IntegrationVisibilitySchema = z.enum(['public', 'private', 'unlisted']).meta({ id: 'IntegrationVisibility' })
/** The official IntegrationScope enum: the one list the scope table (core/scopes.ts) keeps. */
export const IntegrationScopeSchema = z.enum(INTEGRATION_SCOPES).meta({ id: 'IntegrationScope' })
export const IntegrationCategorySchema = z
  .enum(['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other'])
  .meta({ id: 'IntegrationCategory' })

const Base64Schema = z.base64({ error: 'must be base64 content' })
const TitleSchema = z.string().min(2, 'must be at least 2 characters').max(40, 'must be at most 40 characters')
const DescriptionSchema = z.string().max(150, 'must be at most 150 characters')
const ComponentSchema = z.object({ componentId: z.string().min(1, 'must not be empty') }).meta({ id: 'IntegrationConfigurationComponent' })

export const IntegrationBlockSchema = z
  .object({
    id: z.string().min(1, 'must not be empty'),
    title: TitleSchema,
    description: DescriptionSchema.optional(),
    icon: z.string().optional(),
    urlUnfurl: z.array(z.string()).optional(),
    markdown: z.object({ codeblock: z.string(), body: z.string() }).optional(),
  })
  .meta({ id: 'IntegrationBlock' })

export const IntegrationContentSourceSchema = z
  .object({
    id: z.string().min(1, 'must not be empty'),
    title: TitleSchema,
    description: DescriptionSchema.optional(),
    icon: z.string().optional(),
    configuration: ComponentSchema,
  })
  .meta({ id: 'IntegrationContentSource' })

const propertyText = {
  title: z.string().min(2, 'must be at least 2 characters').max(50, 'must be at most 50 characters').optional(),
  description: z.string().max(100, 'must be at most 100 characters').optional(),
}
const PropertySchema = z.discriminatedUnion('type', [
  z.object({
    ...propertyText,
    type: z.literal('string'),
    default: z.string().optional(),
    completion_url: z.string().optional(),
    enum: z.array(z.string()).optional(),
  }),
  z.object({ ...propertyText, type: z.literal('number'), default: z.number().optional() }),
  z.object({ ...propertyText, type: z.literal('boolean'), default: z.boolean().optional() }),
  z.object({ ...propertyText, type: z.literal('button'), callback_url: z.string(), button_text: z.string() }),
])
const ConfigurationSchemaSchema = z
  .object({ properties: z.record(z.string(), PropertySchema), required: z.array(z.string()).optional() })
  .superRefine((c, ctx) => {
    const seen = new Set<string>()
    c.required?.forEach((name, i) => {
      if (!(name in c.properties)) ctx.addIssue({ code: 'custom', path: ['required', i], message: `"${name}" is not one of the configuration's properties` })
      if (seen.has(name)) ctx.addIssue({ code: 'custom', path: ['required', i], message: `"${name}" is listed twice` })
      seen.add(name)
    })
  })
export const IntegrationConfigurationSchema = z.union([ConfigurationSchemaSchema, ComponentSchema]).meta({ id: 'IntegrationConfiguration' })
export const IntegrationConfigurationsSchema = z
  .object({
    account: IntegrationConfigurationSchema.optional(),
    space: IntegrationConfigurationSchema.optional(),
    site: IntegrationConfigurationSchema.optional(),
  })
  .meta({ id: 'IntegrationConfigurations' })

export const IntegrationExternalLinksSchema = z
  .array(z.object({ url: UrlSchema, label: z.string() }))
  .max(5, 'must hold at most 5 links')
  .meta({ id: 'IntegrationExternalLinks' })

const CSP_DIRECTIVES = [
  'base-uri',
  'block-all-mixed-content',
  'child-src',
  'connect-src',
  'default-src',
  'font-src',
  'form-action',
  'frame-ancestors',
  'frame-src',
  'img-src',
  'manifest-src',
  'media-src',
  'navigate-to',
  'object-src',
  'plugin-types',
  'prefetch-src',
  'referrer',
  'report-to',
  'report-uri',
  'require-sri-for',
  'require-trusted-types-for',
  'sandbox',
  'script-src',
  'script-src-attr',
  'script-src-elem',
  'style-src',
  'style-src-attr',
  'style-src-elem',
  'trusted-types',
  'upgrade-insecure-requests',
  'worker-src',
] as const
export const ContentSecurityPolicySchema = z
  .union([z.string(), z.partialRecord(z.enum(CSP_DIRECTIVES), z.string())])
  .meta({ id: 'IntegrationContentSecurityPolicy' })

/** Ids of blocks or content sources: unique within the integration. */
const uniqueIds =
  <T extends { id: string }>(what: string) =>
  (items: T[] | undefined, ctx: z.RefinementCtx) => {
    const seen = new Set<string>()
    items?.forEach((item, i) => {
      if (seen.has(item.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `"${item.id}" is the id of another ${what}` })
      seen.add(item.id)
    })
  }

/** The body of a publish: the whole manifest (what it leaves out takes its default, see docs/behaviour/integrations.md). */
export const PublishIntegrationSchema = z
  .object({
    runtime: z.enum(['v1', 'v2']).optional(),
    icon: Base64Schema.optional(),
    title: z.string().min(2, 'must be at least 2 characters').max(30, 'must be at most 30 characters'),
    description: z.string().max(100, 'must be at most 100 characters'),
    summary: z.string().max(2048, 'must be at most 2048 characters').optional(),
    previewImages: z.array(Base64Schema).max(3, 'must hold at most 3 images').optional(),
    visibility: IntegrationVisibilitySchema.optional(),
    target: IntegrationTargetSchema.optional(),
    scopes: z.array(IntegrationScopeSchema),
    categories: z.array(IntegrationCategorySchema).optional(),
    blocks: z.array(IntegrationBlockSchema).superRefine(uniqueIds('block')).optional(),
    contentSources: z.array(IntegrationContentSourceSchema).superRefine(uniqueIds('content source')).optional(),
    externalLinks: IntegrationExternalLinksSchema.optional(),
    configurations: IntegrationConfigurationsSchema.optional(),
    script: z.string(),
    organization: z.string().min(1, 'must not be empty').meta({ description: 'Id or hostname (subdomain) of the organization publishing the integration.' }),
    secrets: z
      .record(z.string(), z.string())
      .refine((s) => Object.keys(s).length <= 20, 'must hold at most 20 secrets')
      .optional(),
    contentSecurityPolicy: ContentSecurityPolicySchema.optional(),
  })
  .meta({ id: 'PublishIntegration' })

export const INTEGRATION_PERMISSION_KEYS = ['admin'] as const

export const IntegrationSchema = z
  .object({
    object: z.literal('integration'),
    name: z.string(),
    version: z.number(),
    title: z.string(),
    description: z.string(),
    summary: z.string().optional(),
    previewImages: z.array(z.string()),
    target: IntegrationTargetSchema,
    verified: z.boolean(),
    visibility: IntegrationVisibilitySchema,
    scopes: z.array(IntegrationScopeSchema),
    categories: z.array(IntegrationCategorySchema),
    blocks: z.array(IntegrationBlockSchema),
    contentSources: z.array(IntegrationContentSourceSchema),
    configurations: IntegrationConfigurationsSchema,
    externalLinks: IntegrationExternalLinksSchema,
    owner: OrganizationSchema,
    urls: z.object({
      location: z.string(),
      icon: z.string().optional(),
      app: z.string(),
      assets: z.string(),
      publicEndpoint: z.string(),
      publicContentEndpoint: z.string(),
    }),
    permissions: z.object({ admin: z.boolean() }),
    contentSecurityPolicy: ContentSecurityPolicySchema.optional(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Integration' })

export const ListIntegrationsQuerySchema = listQuery.extend({
  search: z.string().max(512, 'must be at most 512 characters').optional().meta({ description: 'Part of the name or title, any case.' }),
  category: IntegrationCategorySchema.optional(),
  blockDomain: z
    .string()
    .max(100, 'must be at most 100 characters')
    .regex(INTEGRATION_NAME_PATTERN, 'must be letters, digits, "-", "_" or "."')
    .optional()
    .meta({ description: 'Integrations with a block unfurling URLs of this domain (or a subdomain of it).' }),
  blocks: queryBoolean.optional().meta({ description: 'true: only integrations with blocks; false: only those without.' }),
  contentSources: queryBoolean.optional().meta({ description: 'true: only integrations with content sources; false: only those without.' }),
  owner: z.string().min(1, 'must not be empty').optional().meta({ description: 'Id of the owner organization.' }),
  scope: IntegrationScopeSchema.optional(),
  target: IntegrationTargetSchema.optional().meta({
    description: 'Integrations installable on this target (its own target, or `all`); `all` lists those installable everywhere.',
  }),
})
