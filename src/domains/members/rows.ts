import type { Role } from '../../core/roles.js'
import { collection } from '../../storage/port.js'

/**
 * The rows the members area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

export interface MemberRow {
  /** `${organization}/${user}` */
  id: string
  organization: string
  user: string
  /** null: a guest */
  role: Role | null
  disabled: boolean
  sso: boolean
  joinedAt: string
  lastSeenAt?: string
}

/** The collections the members area stores, with their indexes. */
export const membersCollections = {
  members: collection<MemberRow>({
    byOrganization: { key: (m) => m.organization },
    byUser: { key: (m) => m.user },
    /** `${organization}/${role ?? 'guest'}`: the role filter of the member list and the last-admin rule. */
    byRole: { key: (m) => `${m.organization}/${m.role ?? 'guest'}` },
  }),
}
