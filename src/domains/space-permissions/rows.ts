import type { z } from 'zod'
import { grantCollection, grantKind, grantRowSchema } from '../access/grants.js'

/**
 * The rows the space-permissions area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 * The grants model is shared with collections and sites (access/grants.ts).
 */

/** Grants on spaces: rows `{ id, space, organization, principal, role }` in `spaceGrants`. */
export const SPACE_GRANTS = grantKind('space', 'spaceGrants')

/** A direct grant of a role on a space to a user or a team (id `${space}/user:${id}` or `${space}/team:${id}`). */
export const SpaceGrantRowSchema = grantRowSchema('space')
export type SpaceGrantRow = z.output<typeof SpaceGrantRowSchema>

/** The collections the space-permissions area stores, with their indexes (`bySpace`, `bySpaceAndType`, `byPrincipal`). */
export const spacePermissionsCollections = {
  spaceGrants: grantCollection<'space', SpaceGrantRow>(SPACE_GRANTS),
}
