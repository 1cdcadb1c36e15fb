import { collection } from '../../storage/port.js'
import { parentKey, type DefaultLevel } from '../common/rows.js'

/**
 * The rows the collections area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

export interface CollectionRow {
  id: string
  organization: string
  parent?: string
  title: string
  description?: string
  defaultLevel: DefaultLevel
  /** Sort key among the siblings under the same parent (a fractional index). */
  position: number
  createdAt: string
}

/** The collections the collections area stores, with their indexes. */
export const collectionsCollections = {
  collections: collection<CollectionRow>({
    byOrganization: { key: (c) => c.organization },
    /** Collections under a parent (or an organization's root), in position order. */
    byParent: { key: parentKey, order: (c) => c.position },
  }),
}
