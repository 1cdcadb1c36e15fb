import { collection } from '../../storage/port.js'

/**
 * The rows the teams area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

export interface TeamRow {
  id: string
  organization: string
  title: string
  createdAt: string
}

export interface TeamMemberRow {
  /** `${team}/${user}` */
  id: string
  team: string
  organization: string
  user: string
  role: 'owner' | 'member'
}

/** The collections the teams area stores, with their indexes. */
export const teamsCollections = {
  teams: collection<TeamRow>({ byOrganization: { key: (t) => t.organization } }),
  teamMembers: collection<TeamMemberRow>({
    byTeam: { key: (m) => m.team },
    byUser: { key: (m) => m.user },
  }),
}
