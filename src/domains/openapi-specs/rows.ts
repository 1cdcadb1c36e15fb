import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { UNFINISHED, readOnly } from '../common/rows.js'
import { UrlSchema } from '../common/schemas.js'
import { OpenAPISpecSlugSchema, OpenAPISpecVisibilitySchema } from './schemas.js'

/**
 * The rows the openapi-specs area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

/** Where an OpenAPI spec comes from: its text, or a URL fetched when it is processed. */
const SourceSchema = z.union([z.strictObject({ text: z.string().min(1) }), z.strictObject({ url: UrlSchema })], {
  error: 'must be {"text": "..."} or {"url": "..."}',
})
export type OpenAPISpecSource = z.output<typeof SourceSchema>

const ProcessErrorCodeSchema = z.enum(['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'])
export type OpenAPIProcessErrorCode = z.output<typeof ProcessErrorCodeSchema>

/**
 * An OpenAPI spec of an organization, addressed by its slug. A new source makes it `pending`; its
 * processing job (domains/openapi-specs/processing.ts) moves it to `progress`, then `complete`
 * with a new version, or with the error that stopped it.
 */
export const OpenAPISpecRowSchema = z.strictObject({
  id: SeedIdSchema,
  organization: SeedIdSchema,
  slug: OpenAPISpecSlugSchema,
  createdAt: SeedTimestampSchema,
  updatedAt: SeedTimestampSchema,
  visibility: OpenAPISpecVisibilitySchema,
  /** The URL of the latest source, when it was one. */
  sourceURL: UrlSchema.optional(),
  processingState: z.enum(['pending', 'progress', 'complete']),
  /** The source waiting for (or in) processing; removed once processing completes. */
  pendingSource: SourceSchema.optional(),
  /** Counts the sources given: a job for an older source writes nothing. */
  run: z.number().int().min(1),
  lastVersion: SeedIdSchema.optional(),
  lastProcessedAt: SeedTimestampSchema.optional(),
  lastProcessErrorCode: ProcessErrorCodeSchema.optional(),
  lastProcessedErrors: readOnly(z.array(z.strictObject({ message: z.string(), code: z.string().optional() }))),
  /** Errors found before `lastProcessedErrors` was cut to its first ones. */
  lastProcessedErrorCount: z.number().int().min(0),
})
export type OpenAPISpecRow = z.output<typeof OpenAPISpecRowSchema>

/** A processed version of an OpenAPI spec: the source text exactly as given or fetched. */
export const OpenAPISpecVersionRowSchema = z.strictObject({
  id: SeedIdSchema,
  spec: SeedIdSchema,
  /** The spec's organization. */
  organization: SeedIdSchema,
  createdAt: SeedTimestampSchema,
  text: z.string().min(1),
  format: z.enum(['json', 'yaml']),
  /** The URL the text was fetched from, for a URL source. */
  sourceURL: UrlSchema.optional(),
})
export type OpenAPISpecVersionRow = z.output<typeof OpenAPISpecVersionRowSchema>

/** The collections the openapi-specs area stores, with their indexes. */
export const openapiSpecsCollections = {
  openapiSpecs: collection<OpenAPISpecRow>({
    byOrganization: { key: (s) => s.organization },
    /** `${organization}/${slug}`: a slug names one spec of its organization. */
    bySlug: { key: (s) => `${s.organization}/${s.slug}` },
    /** Specs not yet `complete` (key `unfinished`), for core/resume.ts. */
    unfinished: { key: (s) => (s.processingState === 'complete' ? undefined : UNFINISHED) },
  }),
  /** Versions of a spec, oldest first. */
  openapiSpecVersions: collection<OpenAPISpecVersionRow>({ bySpec: { key: (v) => v.spec } }),
}
