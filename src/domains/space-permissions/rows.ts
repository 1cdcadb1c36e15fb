import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema } from '../../state/seed.js'
import { RoleSchema } from '../common/schemas.js'

/**
 * The rows the space-permissions area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

/** A direct grant of a role on a space to a user or a team. */
export const SpaceGrantRowSchema = z.strictObject({
  /** `${space}/user:${id}` or `${space}/team:${id}` */
  id: z.string(),
  space: SeedIdSchema,
  /** The space's organization. */
  organization: SeedIdSchema,
  principal: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('user'), user: SeedIdSchema }),
    z.strictObject({ type: z.literal('team'), team: SeedIdSchema }),
  ]),
  role: RoleSchema,
})
export type SpaceGrantRow = z.output<typeof SpaceGrantRowSchema>

/** The collections the space-permissions area stores, with their indexes. */
export const spacePermissionsCollections = {
  spaceGrants: collection<SpaceGrantRow>({
    bySpace: { key: (g) => g.space },
    /** A space's user grants (`${space}/user`) or team grants (`${space}/team`), for paging each list. */
    bySpaceAndType: { key: (g) => `${g.space}/${g.principal.type}` },
    byPrincipal: { key: (g) => (g.principal.type === 'user' ? `user:${g.principal.user}` : `team:${g.principal.team}`) },
  }),
}
