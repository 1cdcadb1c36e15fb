import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { TeamTitleSchema } from './schemas.js'

/**
 * The rows the teams area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

export const TeamRowSchema = z.strictObject({
  id: SeedIdSchema,
  organization: SeedIdSchema,
  title: TeamTitleSchema,
  createdAt: SeedTimestampSchema,
})
export type TeamRow = z.output<typeof TeamRowSchema>

export const TeamMemberRowSchema = z.strictObject({
  /** `${team}/${user}` */
  id: z.string(),
  team: SeedIdSchema,
  /** The team's organization. */
  organization: SeedIdSchema,
  user: SeedIdSchema,
  role: z.enum(['owner', 'member']),
})
export type TeamMemberRow = z.output<typeof TeamMemberRowSchema>

/** The collections the teams area stores, with their indexes. */
export const teamsCollections = {
  teams: collection<TeamRow>({ byOrganization: { key: (t) => t.organization } }),
  teamMembers: collection<TeamMemberRow>({
    byTeam: { key: (m) => m.team },
    byUser: { key: (m) => m.user },
  }),
}
