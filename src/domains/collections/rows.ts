import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { parentKey } from '../common/rows.js'
import { DefaultLevelSchema } from '../common/schemas.js'
import { CollectionTitleSchema } from './schemas.js'

/**
 * The rows the collections area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

export const CollectionRowSchema = z.strictObject({
  id: SeedIdSchema,
  organization: SeedIdSchema,
  parent: SeedIdSchema.optional(),
  title: CollectionTitleSchema,
  description: z.string().optional(),
  defaultLevel: DefaultLevelSchema,
  /** Sort key among the siblings under the same parent (a fractional index). */
  position: z.number().finite(),
  createdAt: SeedTimestampSchema,
})
export type CollectionRow = z.output<typeof CollectionRowSchema>

/** The collections the collections area stores, with their indexes. */
export const collectionsCollections = {
  collections: collection<CollectionRow>({
    byOrganization: { key: (c) => c.organization },
    /** Collections under a parent (or an organization's root), in position order. */
    byParent: { key: parentKey, order: (c) => c.position },
  }),
}
