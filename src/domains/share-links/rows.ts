import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { ShareLinkNameSchema } from './schemas.js'

/**
 * The rows the share-links area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

export const ShareLinkRowSchema = z.strictObject({
  id: SeedIdSchema,
  site: SeedIdSchema,
  /** The site's organization. */
  organization: SeedIdSchema,
  /** The secret the published URL carries (`shareKey`). */
  key: SeedIdSchema,
  name: ShareLinkNameSchema,
  active: z.boolean(),
  createdAt: SeedTimestampSchema,
})
export type ShareLinkRow = z.output<typeof ShareLinkRowSchema>

/** The collections the share-links area stores, with their indexes. */
export const shareLinksCollections = {
  shareLinks: collection<ShareLinkRow>({
    bySite: { key: (l) => l.site },
    byKey: { key: (l) => l.key },
  }),
}
