import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema } from '../../state/seed.js'
import { RoleSchema } from '../common/schemas.js'

/**
 * The rows the collection-permissions area stores: direct grants of a role on a collection, the
 * same shape as a space's grants (space-permissions/rows.ts). A grant counts on the collection,
 * its sub-collections and the `in-collection` spaces under it (domains/access/levels.ts).
 */

/** A direct grant of a role on a collection to a user or a team. */
export const CollectionGrantRowSchema = z.strictObject({
  /** `${collection}/user:${id}` or `${collection}/team:${id}` */
  id: z.string(),
  collection: SeedIdSchema,
  /** The collection's organization. */
  organization: SeedIdSchema,
  principal: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('user'), user: SeedIdSchema }),
    z.strictObject({ type: z.literal('team'), team: SeedIdSchema }),
  ]),
  role: RoleSchema,
})
export type CollectionGrantRow = z.output<typeof CollectionGrantRowSchema>

/** The collections the collection-permissions area stores, with their indexes. */
export const collectionPermissionsCollections = {
  collectionGrants: collection<CollectionGrantRow>({
    byCollection: { key: (g) => g.collection },
    /** A collection's user grants (`${collection}/user`) or team grants (`${collection}/team`). */
    byCollectionAndType: { key: (g) => `${g.collection}/${g.principal.type}` },
    byPrincipal: { key: (g) => (g.principal.type === 'user' ? `user:${g.principal.user}` : `team:${g.principal.team}`) },
  }),
}
