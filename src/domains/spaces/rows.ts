import { collection } from '../../storage/port.js'
import { parentKey, type MergeRules, type DefaultLevel } from '../common/rows.js'

/**
 * The rows the spaces area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

export interface SpaceRow {
  id: string
  organization: string
  parent?: string
  title: string
  emoji: string
  icon?: string
  visibility: 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private'
  createdAt: string
  updatedAt: string
  deletedAt?: string
  editMode?: 'live' | 'locked'
  mergeRules: MergeRules
  language?: string
  revision: string
  defaultLevel: DefaultLevel
  position: number
  comments: number
  changeRequests: number
  changeRequestsOpen: number
  changeRequestsDraft: number
}

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
