import type { Role } from '../../core/roles.js'
import { collection } from '../../storage/port.js'

/**
 * The rows the space-permissions area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

/** A direct grant of a role on a space to a user or a team. */
export interface SpaceGrantRow {
  /** `${space}/user:${id}` or `${space}/team:${id}` */
  id: string
  space: string
  organization: string
  principal: { type: 'user'; user: string } | { type: 'team'; team: string }
  role: Role
}

/** The collections the space-permissions area stores, with their indexes. */
export const spacePermissionsCollections = {
  spaceGrants: collection<SpaceGrantRow>({
    bySpace: { key: (g) => g.space },
    /** A space's user grants (`${space}/user`) or team grants (`${space}/team`), for paging each list. */
    bySpaceAndType: { key: (g) => `${g.space}/${g.principal.type}` },
    byPrincipal: { key: (g) => (g.principal.type === 'user' ? `user:${g.principal.user}` : `team:${g.principal.team}`) },
  }),
}
