import type { JsonDocument } from '../content/document.js'
import { collection } from '../../storage/port.js'

/**
 * The rows the change-requests area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

export type ChangeRequestStatus = 'draft' | 'open' | 'merged' | 'archived'

export interface ChangeRequestRow {
  id: string
  space: string
  organization: string
  number: number
  status: ChangeRequestStatus
  subject?: string
  description?: JsonDocument
  createdBy: string
  createdAt: string
  updatedAt: string
  /** The change request's current content. */
  revision: string
  /** Main's revision when the change request was created. */
  revisionInitial: string
  /** Main's revision the content was last based on (creation or the last update from main). */
  revisionMergedAncestor?: string
  revisionMerged?: string
  mergedBy?: string
  mergedAt?: string
  comments: number
  /** Who edited the content, in first-edit order, with their edit counts. */
  contributors: ReadonlyArray<{ user: string; count: number; updatedAt: string }>
}

export interface ReviewRow {
  id: string
  changeRequest: string
  space: string
  reviewer: string
  requestedBy?: string
  status: 'approved' | 'changes-requested'
  revision: string
  outdated: boolean
  createdAt: string
  updatedAt: string
}

export interface RequestedReviewerRow {
  /** `${changeRequest}/${user}` */
  id: string
  changeRequest: string
  space: string
  user: string
  requestedBy: string
  revision: string
  createdAt: string
}

/** The collections the change-requests area stores, with their indexes. */
export const changeRequestsCollections = {
  changeRequests: collection<ChangeRequestRow>({
    /** A space's change requests, in creation order; by status for the status filter. */
    bySpace: { key: (c) => c.space },
    bySpaceStatus: { key: (c) => `${c.space}/${c.status}` },
    /** `${organization}/${status}`: the organization list reads one status, never the whole organization. */
    byOrganizationStatus: { key: (c) => `${c.organization}/${c.status}` },
    /** `${space}/${number}`: a change request addressed by its number. */
    byNumber: { key: (c) => `${c.space}/${c.number}` },
  }),
  reviews: collection<ReviewRow>({ byChangeRequest: { key: (r) => r.changeRequest } }),
  requestedReviewers: collection<RequestedReviewerRow>({ byChangeRequest: { key: (r) => r.changeRequest } }),
}
