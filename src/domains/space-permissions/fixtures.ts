import type { Role } from '../../core/roles.js'
import { parseInput, type System } from '../common/fixture-kit.js'
import { RoleSchema } from '../common/schemas.js'
import { getSpace } from '../spaces/model.js'
import { getGrant, inviteToSpace, type Principal } from './model.js'

/** Test fixtures of space permissions: built through the same domain functions as the API. */
export function spacePermissionFixtures(system: System) {
  return {
    /**
     * Grant a user or a team a role on a space, as `inviteToSpace` does: a user who is not a
     * member of the space's organization joins it as a guest. Returns the grant row.
     * @example await api.fixtures.grantSpace(space.id, { user: gina.id }, 'edit')
     */
    async grantSpace(spaceId: string, principal: Principal, role: Role) {
      const data = parseInput(RoleSchema, role, 'role')
      return system((ctx) => {
        const space = getSpace(ctx, spaceId)
        inviteToSpace(ctx, space, 'user' in principal ? { role: data, users: [principal.user] } : { role: data, teams: [principal.team] })
        return getGrant(ctx, space.id, principal)!
      })
    },
  }
}
