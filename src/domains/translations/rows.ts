import type { JsonDocument } from '../content/document.js'
import { collection } from '../../storage/port.js'
import { UNFINISHED } from '../common/rows.js'

/**
 * The rows the translations area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

/** The statistics of a translation's runs (official `Translation.stats`; durations in whole seconds). */
export interface TranslationStats {
  runs: number
  totalWords: number
  totalPages: number
  totalDuration: number
  latestRunDuration: number
  latestPages: number
  latestWords: number
}

/**
 * A translation of a space into another language (domains/translations). A run is a background
 * job that writes the source's current content, translated, as a new revision of the result space
 * (made by the first run). `runToken` names the latest run requested: only the job holding it
 * moves `status`, so overlapping runs never leave it wrong.
 */
export interface TranslationRow {
  id: string
  organization: string
  source: { space: string; language: string }
  language: string
  instructions: JsonDocument
  createdBy: string
  createdAt: string
  updatedAt: string
  status: 'pending' | 'running' | 'completed'
  runToken: string
  /** When the running run started (its duration is measured from here, on the API's clock). */
  runStartedAt?: string
  result?: { space: string; revision: string; language: string }
  stats: TranslationStats
  /** Every source page a run has translated (`stats.totalPages` counts them). */
  translatedPages: readonly string[]
  /**
   * Per source page, the source version last translated and the result version made from it:
   * a later run reuses the result while both are unchanged (and the instructions too: a change of
   * instructions empties this record), so it sends only new and changed pages to the translator.
   */
  pages: Readonly<Record<string, { source: string; result: string }>>
  /** Source file id → its copy in the result space (copied once, by the first run that needs it). */
  files: Readonly<Record<string, string>>
  /** Why the latest run failed (cleared by the next run that completes). */
  lastRunError?: { message: string; at: string }
}

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
