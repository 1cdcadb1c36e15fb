import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { RoleOrGuestSchema } from '../common/schemas.js'

/**
 * The rows the members area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

export const MemberRowSchema = z.strictObject({
  /** `${organization}/${user}` */
  id: z.string(),
  organization: SeedIdSchema,
  user: SeedIdSchema,
  /** null: a guest */
  role: RoleOrGuestSchema,
  disabled: z.boolean(),
  sso: z.boolean(),
  joinedAt: SeedTimestampSchema,
  lastSeenAt: SeedTimestampSchema.optional(),
})
export type MemberRow = z.output<typeof MemberRowSchema>

/** The collections the members area stores, with their indexes. */
export const membersCollections = {
  members: collection<MemberRow>({
    byOrganization: { key: (m) => m.organization },
    byUser: { key: (m) => m.user },
    /** `${organization}/${role ?? 'guest'}`: the role filter of the member list and the last-admin rule. */
    byRole: { key: (m) => `${m.organization}/${m.role ?? 'guest'}` },
  }),
}
