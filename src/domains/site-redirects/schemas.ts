import { z } from 'zod'
import { listQuery, queryBoolean } from '../../core/paging.js'
import { ShareKeySchema, TimestampSchema, UrlOfAnySchemeSchema } from '../common/schemas.js'

/** Resources and bodies of site redirects, as the official document has them (SiteRedirect and its parts). */

/**
 * The official `SiteRedirectSourcePath`: a path of the site, from its root, with a leading slash,
 * no trailing slash, no query or fragment, segments of unreserved characters or percent-escapes,
 * and at most one `*`, at the end (`/docs/*` or `/changelog*`: a wildcard).
 */
export const SITE_REDIRECT_SOURCE_PATTERN =
  /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/

export const SiteRedirectSourcePathSchema = z
  .string()
  .max(512, 'must be at most 512 characters')
  .regex(
    SITE_REDIRECT_SOURCE_PATTERN,
    'must be a path starting with `/`, of segments of letters, digits, `-._~+` or %-escapes, without a trailing `/`, query or fragment, with `*` only at the end',
  )
  .meta({ id: 'SiteRedirectSourcePath', description: 'The source path to redirect from.' })

/** An external destination: an absolute http or https URL (a redirect sends visitors' browsers there). */
export const SiteRedirectUrlSchema = UrlOfAnySchemeSchema.refine((url) => /^https?:\/\//i.test(url), { message: 'must be an http or https URL' })

const shapes = {
  section: { kind: z.literal('site-section'), siteSectionId: z.string() },
  siteSpace: { kind: z.literal('site-space'), siteSpaceId: z.string() },
  page: { kind: z.literal('site-page'), siteSpaceId: z.string(), pageId: z.string() },
  external: { kind: z.literal('external'), url: SiteRedirectUrlSchema },
  path: { kind: z.literal('path'), spaceId: z.string(), path: z.string() },
}

export const SiteRedirectDestinationSchema = z
  .discriminatedUnion('kind', [
    z.object(shapes.section).meta({ id: 'SiteRedirectDestinationSiteSection' }),
    z.object(shapes.siteSpace).meta({ id: 'SiteRedirectDestinationSiteSpace' }),
    z.object(shapes.page).meta({ id: 'SiteRedirectDestinationPage' }),
    z.object(shapes.external).meta({ id: 'SiteRedirectDestinationExternal' }),
  ])
  .meta({ id: 'SiteRedirectDestination', description: 'Where a redirect leads: a section, a site-space or a page of the site, or an external URL.' })
export type SiteRedirectDestination = z.output<typeof SiteRedirectDestinationSchema>

/** A destination as stored: the same kinds, unknown keys refused (a state document is loaded strictly). */
export const StoredDestinationSchema = z.discriminatedUnion('kind', [
  z.strictObject(shapes.section),
  z.strictObject(shapes.siteSpace),
  z.strictObject(shapes.page),
  z.strictObject(shapes.external),
])

/** A destination in a request: one of the stored kinds, or a page named by its space and path (stored as the page it names). */
export const SiteRedirectInputDestinationSchema = z
  .discriminatedUnion('kind', [
    ...SiteRedirectDestinationSchema.options,
    z
      .object(shapes.path)
      .meta({ id: 'SiteRedirectInputDestinationPath', description: 'A page named by the space published in the site and its path in the space.' }),
  ])
  .meta({ id: 'SiteRedirectInputDestination' })
export type SiteRedirectInputDestination = z.output<typeof SiteRedirectInputDestinationSchema>

export const SiteRedirectSchema = z
  .object({
    object: z.literal('site-redirect'),
    id: z.string(),
    source: z.string(),
    draft: z.boolean(),
    captureWildcard: z.boolean(),
    permanent: z.boolean(),
    destination: SiteRedirectDestinationSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema.optional(),
  })
  .meta({ id: 'SiteRedirect' })

const captureWildcard = z.boolean().meta({ description: 'Append the part of the path the wildcard matched to the destination.' })
const permanent = z.boolean().meta({ description: 'Whether the redirect is permanent for public live traffic.' })

export const CreateSiteRedirectSchema = z.object({
  source: SiteRedirectSourcePathSchema,
  captureWildcard: captureWildcard.default(false),
  draft: z.boolean().default(false).meta({ description: 'Whether the redirect is a draft, not live.' }),
  permanent: permanent.default(false),
  destination: SiteRedirectInputDestinationSchema,
})

/** A redirect update: only the fields given change (the official body has no required field). */
export const UpdateSiteRedirectSchema = z.object({
  source: SiteRedirectSourcePathSchema.optional(),
  captureWildcard: captureWildcard.optional(),
  draft: z.boolean().optional().meta({ description: 'False makes a draft redirect live; true takes a live one back to draft.' }),
  permanent: permanent.optional(),
  destination: SiteRedirectDestinationSchema.optional(),
})

const PublishItemSchema = z.object({
  source: SiteRedirectSourcePathSchema,
  intent: z.literal('publish').meta({ description: 'Publish the draft redirect of this source to live, removing the draft.' }),
})

const UpsertItemSchema = z.object({
  source: SiteRedirectSourcePathSchema,
  intent: z
    .enum(['live', 'draft'], { error: 'must be live, draft or publish' })
    .default('live')
    .meta({ description: 'Which redirect of the source the item sets or deletes: the live one or the draft.' }),
  captureWildcard: captureWildcard.default(false),
  permanent: permanent.optional(),
  destination: SiteRedirectInputDestinationSchema.nullable().meta({ description: 'null deletes the redirect of this source and intent.' }),
})

export type BulkItem = z.output<typeof PublishItemSchema> | z.output<typeof UpsertItemSchema>

export const BulkUpsertSiteRedirectsSchema = z.object({
  redirects: z
    .array(z.union([PublishItemSchema, UpsertItemSchema]))
    .min(1, 'must hold at least 1 item')
    .max(500, 'must hold at most 500 items'),
})

const result = <S extends string>(status: S, description: string, withId: boolean) =>
  z.object({
    status: z.literal(status).meta({ description }),
    source: z.string(),
    draft: z.boolean(),
    ...(withId ? { id: z.string() } : {}),
  })

export const BulkUpsertResultSchema = z.object({
  results: z.array(
    z.union([
      result('created', 'The redirect was created.', true),
      result('updated', 'The redirect was updated.', true),
      result('deleted', 'The redirect was deleted.', false),
      result('published', 'The draft redirect was published to live and removed from draft.', true),
      z.object({ status: z.literal('error'), source: z.string(), draft: z.boolean(), error: z.string() }),
    ]),
  ),
})
export type BulkResult = z.input<typeof BulkUpsertResultSchema>['results'][number]

export const ListSiteRedirectsQuerySchema = listQuery.extend({
  search: z.string().optional().meta({ description: 'Only redirects whose source contains this text (case-insensitive).' }),
  draft: queryBoolean.optional().meta({ description: 'Draft redirects (true) or live ones (false, the default).' }),
  orderBy: z
    .enum(['createdAt', 'updatedAt', 'source'], { error: 'must be createdAt, updatedAt or source' })
    .default('createdAt')
    .meta({ id: 'SiteRedirectOrderBy', description: 'Newest created first, newest updated first, or by source.' }),
})

export const GetSiteRedirectBySourceQuerySchema = z.object({
  shareKey: ShareKeySchema,
  source: SiteRedirectSourcePathSchema,
})

export const ResolvedSiteRedirectSchema = z.object({
  redirect: SiteRedirectSchema,
  target: z.string().meta({ description: 'URL of the destination of the redirect.' }),
})
