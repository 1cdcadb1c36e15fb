import type { z } from 'zod'
import { grantCollection, grantKind, grantRowSchema } from '../access/grants.js'

/**
 * The rows the collection-permissions area stores: direct grants of a role on a collection, the
 * same model as a space's grants (access/grants.ts). A grant counts on the collection, its
 * sub-collections and the `in-collection` spaces under it (domains/access/levels.ts).
 */

/** Grants on collections: rows `{ id, collection, organization, principal, role }` in `collectionGrants`. */
export const COLLECTION_GRANTS = grantKind('collection', 'collectionGrants')

/** A direct grant of a role on a collection to a user or a team (id `${collection}/user:${id}` or `${collection}/team:${id}`). */
export const CollectionGrantRowSchema = grantRowSchema('collection')
export type CollectionGrantRow = z.output<typeof CollectionGrantRowSchema>

/** The collections the collection-permissions area stores, with their indexes (`byCollection`, `byCollectionAndType`, `byPrincipal`). */
export const collectionPermissionsCollections = {
  collectionGrants: grantCollection<'collection', CollectionGrantRow>(COLLECTION_GRANTS),
}
