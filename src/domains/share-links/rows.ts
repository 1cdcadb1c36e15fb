import { collection } from '../../storage/port.js'

/**
 * The rows the share-links area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

export interface ShareLinkRow {
  id: string
  site: string
  organization: string
  /** The secret the published URL carries (`shareKey`). */
  key: string
  name: string
  active: boolean
  createdAt: string
}

/** The collections the share-links area stores, with their indexes. */
export const shareLinksCollections = {
  shareLinks: collection<ShareLinkRow>({
    bySite: { key: (l) => l.site },
    byKey: { key: (l) => l.key },
  }),
}
