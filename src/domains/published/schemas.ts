import { z } from 'zod'
import { UrlOfAnySchemeSchema } from '../common/schemas.js'
import { CollectionSchema } from '../collections/schemas.js'
import { SpaceSchema } from '../spaces/schemas.js'
import { ChangeRequestSchema } from '../change-requests/schemas.js'
import { PageSchema } from '../content/schemas.js'

/** Schemas of URL resolution (ids name the official components they mirror). */

export const SiteVisitorPayloadSchema = z
  .object({
    type: z.enum(['human', 'agent']).optional().meta({ description: 'Whether the visitor is a human or an AI agent. Defaults to human.' }),
    jwtToken: z
      .string()
      .max(8192, 'must be at most 8192 characters')
      .optional()
      .meta({ description: 'A visitor token signed with the key of the site (visitor authentication).' }),
    unsignedClaims: z.record(z.string(), z.unknown()).optional().meta({ description: 'Claims of the visitor that nobody signed (adaptive content).' }),
  })
  .meta({ id: 'SiteVisitorPayload' })

/** The body of `resolvePublishedContentByUrl`; unknown fields are ignored (GitBook's renderer sends a `cacheBust`). */
export const ResolveUrlBodySchema = z.object({
  url: UrlOfAnySchemeSchema.meta({ description: 'URL to resolve.' }),
  redirectOnError: z
    .boolean()
    .default(false)
    .meta({ description: 'When true, an invalid visitor token answers a redirect to the site login instead of a 401.' }),
  visitor: SiteVisitorPayloadSchema.optional(),
})

export const ResolveUrlQuerySchema = z.object({
  url: UrlOfAnySchemeSchema.meta({ description: 'URL to resolve.' }),
  visitorAuthToken: z
    .string()
    .max(8192, 'must be at most 8192 characters')
    .optional()
    .meta({ description: 'A visitor token signed with the key of the site.' }),
  redirectOnError: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .meta({ description: 'When true, an invalid visitor token answers a redirect to the site login instead of a 401.' }),
})

export const PublishedSiteContentSchema = z
  .object({
    site: z.string(),
    siteSection: z.string().optional(),
    siteSpace: z.string(),
    space: z.string(),
    changeRequest: z.string().optional(),
    revision: z.string().optional(),
    pathname: z.string(),
    basePath: z.string(),
    siteBasePath: z.string(),
    apiToken: z.string(),
    organization: z.string(),
    shareKey: z.string().optional(),
    complete: z.boolean(),
    contextId: z.string().optional(),
    canonicalUrl: z.string(),
    preview: z.boolean().optional(),
  })
  .meta({ id: 'PublishedSiteContent' })

export const PublishedContentRedirectSchema = z
  .union([
    z.object({ target: z.enum(['application', 'content']), redirect: z.string() }),
    z.object({ target: z.literal('external'), site: z.string(), redirect: z.string() }),
  ])
  .meta({ id: 'PublishedContentRedirect' })

export const PublishedSiteContentLookupSchema = z.union([PublishedContentRedirectSchema, PublishedSiteContentSchema]).meta({ id: 'PublishedSiteContentLookup' })

export const ContentUrlQuerySchema = z.object({
  url: UrlOfAnySchemeSchema.meta({ description: 'URL to resolve: of the application, or of published content.' }),
})

/** What `getContentByUrl` answers: a collection, or a space with its change request and page when the URL names them. */
export const ContentByUrlSchema = z.union([
  z.object({ collection: CollectionSchema }),
  z.object({ space: SpaceSchema, changeRequest: ChangeRequestSchema.optional(), page: PageSchema.optional() }),
])
