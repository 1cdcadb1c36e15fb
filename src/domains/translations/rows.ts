import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { UNFINISHED, readOnly } from '../common/rows.js'
import { JsonDocumentSchema } from '../content/schemas.js'
import { LanguageSchema } from '../spaces/schemas.js'

/**
 * The rows the translations area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

const CountSchema = z.number().int().min(0)

/** The statistics of a translation's runs (official `Translation.stats`; durations in whole seconds). */
export const TranslationStatsSchema = z.strictObject({
  runs: CountSchema,
  totalWords: CountSchema,
  totalPages: CountSchema,
  totalDuration: CountSchema,
  latestRunDuration: CountSchema,
  latestPages: CountSchema,
  latestWords: CountSchema,
})
export type TranslationStats = z.output<typeof TranslationStatsSchema>

/**
 * A translation of a space into another language (domains/translations). A run is a background
 * job that writes the source's current content, translated, as a new revision of the result space
 * (made by the first run). `runToken` names the latest run requested: only the job holding it
 * moves `status`, so overlapping runs never leave it wrong.
 */
export const TranslationRowSchema = z.strictObject({
  id: SeedIdSchema,
  organization: SeedIdSchema,
  source: z.strictObject({ space: SeedIdSchema, language: LanguageSchema }),
  language: LanguageSchema,
  instructions: JsonDocumentSchema,
  createdBy: SeedIdSchema,
  createdAt: SeedTimestampSchema,
  updatedAt: SeedTimestampSchema,
  status: z.enum(['pending', 'running', 'completed']),
  runToken: z.string(),
  /** When the running run started (its duration is measured from here, on the API's clock). */
  runStartedAt: SeedTimestampSchema.optional(),
  result: z.strictObject({ space: SeedIdSchema, revision: SeedIdSchema, language: LanguageSchema }).optional(),
  stats: TranslationStatsSchema,
  /** Every source page a run has translated (`stats.totalPages` counts them). */
  translatedPages: readOnly(z.array(SeedIdSchema)),
  /**
   * Per source page, the source version last translated and the result version made from it:
   * a later run reuses the result while both are unchanged (and the instructions too: a change of
   * instructions empties this record), so it sends only new and changed pages to the translator.
   */
  pages: readOnly(z.record(z.string(), z.strictObject({ source: SeedIdSchema, result: SeedIdSchema }))),
  /** Source file id → its copy in the result space (copied once, by the first run that needs it). */
  files: readOnly(z.record(z.string(), SeedIdSchema)),
  /** Why the latest run failed (cleared by the next run that completes). */
  lastRunError: z.strictObject({ message: z.string(), at: SeedTimestampSchema }).optional(),
})
export type TranslationRow = z.output<typeof TranslationRowSchema>

/** The collections the translations area stores, with their indexes. */
export const translationsCollections = {
  /** Translations of an organization, in creation order; by source space (purged with it) and by result space. */
  translations: collection<TranslationRow>({
    byOrganization: { key: (t) => t.organization },
    bySource: { key: (t) => t.source.space },
    byResult: { key: (t) => t.result?.space },
    /** Translations with a run asked for or running (key `unfinished`), for core/resume.ts. */
    unfinished: { key: (t) => (t.status === 'completed' ? undefined : UNFINISHED) },
  }),
}
