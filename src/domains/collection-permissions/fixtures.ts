import type { Role } from '../../core/roles.js'
import { parseInput, type System } from '../common/fixture-kit.js'
import { RoleSchema } from '../common/schemas.js'
import { getCollection } from '../collections/model.js'
import type { Principal } from '../space-permissions/model.js'
import { getCollectionGrant, inviteToCollection } from './model.js'

/** Test fixtures of collection permissions: built through the same domain functions as the API. */
export function collectionPermissionFixtures(system: System) {
  return {
    /**
     * Grant a user or a team a role on a collection, as `inviteToCollection` does: a user who is
     * not a member of the collection's organization joins it as a guest. Returns the grant row.
     * @example await api.fixtures.grantCollection(collection.id, { user: gina.id }, 'edit')
     */
    async grantCollection(collectionId: string, principal: Principal, role: Role) {
      const data = parseInput(RoleSchema, role, 'role')
      return system((ctx) => {
        const collection = getCollection(ctx, collectionId)
        inviteToCollection(ctx, collection, 'user' in principal ? { role: data, users: [principal.user] } : { role: data, teams: [principal.team] })
        return getCollectionGrant(ctx, collection.id, principal)!
      })
    },
  }
}
