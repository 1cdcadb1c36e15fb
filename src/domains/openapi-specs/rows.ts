import { collection } from '../../storage/port.js'
import { UNFINISHED } from '../common/rows.js'

/**
 * The rows the openapi-specs area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

/** Where an OpenAPI spec comes from: its text, or a URL fetched when it is processed. */
export type OpenAPISpecSource = { text: string } | { url: string }

export type OpenAPIProcessErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR'

/**
 * An OpenAPI spec of an organization, addressed by its slug. A new source makes it `pending`; its
 * processing job (domains/openapi-specs/processing.ts) moves it to `progress`, then `complete`
 * with a new version, or with the error that stopped it.
 */
export interface OpenAPISpecRow {
  id: string
  organization: string
  slug: string
  createdAt: string
  updatedAt: string
  visibility: 'private' | 'public'
  /** The URL of the latest source, when it was one. */
  sourceURL?: string
  processingState: 'pending' | 'progress' | 'complete'
  /** The source waiting for (or in) processing; removed once processing completes. */
  pendingSource?: OpenAPISpecSource
  /** Counts the sources given: a job for an older source writes nothing. */
  run: number
  lastVersion?: string
  lastProcessedAt?: string
  lastProcessErrorCode?: OpenAPIProcessErrorCode
  lastProcessedErrors: ReadonlyArray<{ message: string; code?: string }>
  /** Errors found before `lastProcessedErrors` was cut to its first ones. */
  lastProcessedErrorCount: number
}

/** A processed version of an OpenAPI spec: the source text exactly as given or fetched. */
export interface OpenAPISpecVersionRow {
  id: string
  spec: string
  organization: string
  createdAt: string
  text: string
  format: 'json' | 'yaml'
  /** The URL the text was fetched from, for a URL source. */
  sourceURL?: string
}

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
