import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { readOnly } from '../common/rows.js'
import { JsonDocumentSchema } from '../content/schemas.js'
import { SubjectSchema } from './schemas.js'

/**
 * The rows the change-requests area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

const ChangeRequestStatusSchema = z.enum(['draft', 'open', 'merged', 'archived'])
export type ChangeRequestStatus = z.output<typeof ChangeRequestStatusSchema>

export const ChangeRequestRowSchema = z.strictObject({
  id: SeedIdSchema,
  space: SeedIdSchema,
  /** The space's organization. */
  organization: SeedIdSchema,
  number: z.number().int().min(1),
  status: ChangeRequestStatusSchema,
  subject: SubjectSchema.optional(),
  description: JsonDocumentSchema.optional(),
  createdBy: SeedIdSchema,
  createdAt: SeedTimestampSchema,
  updatedAt: SeedTimestampSchema,
  /** The change request's current content. */
  revision: SeedIdSchema,
  /** Main's revision when the change request was created. */
  revisionInitial: SeedIdSchema,
  /** Main's revision the content was last based on (creation or the last update from main). */
  revisionMergedAncestor: SeedIdSchema.optional(),
  revisionMerged: SeedIdSchema.optional(),
  mergedBy: SeedIdSchema.optional(),
  mergedAt: SeedTimestampSchema.optional(),
  /** Its open comments (seed.ts recounts them once a document is in: derived). */
  comments: z.number().int().min(0),
  /** Who edited the content, in first-edit order, with their edit counts. */
  contributors: readOnly(z.array(z.strictObject({ user: SeedIdSchema, count: z.number().int().min(1), updatedAt: SeedTimestampSchema }))),
})
export type ChangeRequestRow = z.output<typeof ChangeRequestRowSchema>

export const ReviewRowSchema = z.strictObject({
  id: SeedIdSchema,
  changeRequest: SeedIdSchema,
  space: SeedIdSchema,
  reviewer: SeedIdSchema,
  requestedBy: SeedIdSchema.optional(),
  status: z.enum(['approved', 'changes-requested']),
  revision: SeedIdSchema,
  outdated: z.boolean(),
  createdAt: SeedTimestampSchema,
  updatedAt: SeedTimestampSchema,
})
export type ReviewRow = z.output<typeof ReviewRowSchema>

export const RequestedReviewerRowSchema = z.strictObject({
  /** `${changeRequest}/${user}` */
  id: SeedIdSchema,
  changeRequest: SeedIdSchema,
  space: SeedIdSchema,
  user: SeedIdSchema,
  requestedBy: SeedIdSchema,
  revision: SeedIdSchema,
  createdAt: SeedTimestampSchema,
})
export type RequestedReviewerRow = z.output<typeof RequestedReviewerRowSchema>

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
