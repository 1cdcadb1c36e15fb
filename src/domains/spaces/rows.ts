import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { parentKey } from '../common/rows.js'
import { DefaultLevelSchema, MergeRulesSchema, UrlSchema } from '../common/schemas.js'
import { EmojiSchema, LanguageSchema, SpaceEditModeSchema, SpaceTitleSchema, SpaceVisibilitySchema } from './schemas.js'

/**
 * The rows the spaces area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

/** A counter of a space (seed.ts recounts them once a document is in: they are derived). */
const CounterSchema = z.number().int().min(0)

export const SpaceRowSchema = z.strictObject({
  id: SeedIdSchema,
  organization: SeedIdSchema,
  parent: SeedIdSchema.optional(),
  title: SpaceTitleSchema,
  emoji: EmojiSchema,
  icon: UrlSchema.optional(),
  visibility: SpaceVisibilitySchema,
  createdAt: SeedTimestampSchema,
  updatedAt: SeedTimestampSchema,
  deletedAt: SeedTimestampSchema.optional(),
  editMode: SpaceEditModeSchema.optional(),
  mergeRules: MergeRulesSchema,
  language: LanguageSchema.optional(),
  revision: SeedIdSchema,
  defaultLevel: DefaultLevelSchema,
  position: z.number().finite(),
  comments: CounterSchema,
  changeRequests: CounterSchema,
  changeRequestsOpen: CounterSchema,
  changeRequestsDraft: CounterSchema,
})
export type SpaceRow = z.output<typeof SpaceRowSchema>

/** The collections the spaces area stores, with their indexes. */
export const spacesCollections = {
  spaces: collection<SpaceRow>({
    /** Live spaces of an organization; deleted ones leave this index. */
    byOrganization: { key: (s) => (s.deletedAt ? undefined : s.organization) },
    /** Live spaces under a collection, or at an organization's root, in position order. */
    byParent: { key: (s) => (s.deletedAt ? undefined : parentKey(s)), order: (s) => s.position },
    /** Deleted spaces, waiting for restore or purge. */
    deleted: { key: (s) => (s.deletedAt ? s.organization : undefined) },
  }),
}
