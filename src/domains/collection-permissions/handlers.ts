import type { ReadContext } from '../context.js'
import { implement } from '../context.js'
import { indexSource, mapPage, paginateScan, type PageQuery } from '../../core/paging.js'
import { getCollection } from '../collections/model.js'
import { encodeTeam } from '../teams/encode.js'
import { encodeUser } from '../users/encode.js'
import { grantCollection, inviteToCollection, revokeCollection } from './model.js'
import { collectionPermissionOperations } from './operations.js'

/** One page of a collection's user or team grants, in index order (O(log n + limit) a page). */
function grantPage(ctx: ReadContext, collection: string, type: 'user' | 'team', query: PageQuery) {
  return paginateScan(indexSource(ctx.tx, 'collectionGrants', 'byCollectionAndType', `${collection}/${type}`), query)
}

export const collectionPermissionHandlers = implement(collectionPermissionOperations, {
  inviteToCollection: (ctx, { params, body }) => {
    inviteToCollection(ctx, getCollection(ctx, params.collectionId), body)
  },
  listUserPermissionsInCollection: (ctx, { params, query }) => {
    const collection = getCollection(ctx, params.collectionId)
    return mapPage(grantPage(ctx, collection.id, 'user', query), ({ row }) => {
      const user = row.principal.type === 'user' ? ctx.tx.get('users', row.principal.user) : undefined
      if (!user) throw new Error(`Grant ${row.id} points to no user`)
      return { permission: row.role, user: encodeUser(ctx, user, row.organization) }
    })
  },
  updateUserPermissionInCollection: (ctx, { params, body }) => {
    grantCollection(ctx, params.collectionId, { user: params.userId }, body.role)
  },
  removeUserFromCollection: (ctx, { params }) => {
    revokeCollection(ctx, getCollection(ctx, params.collectionId).id, { user: params.userId })
  },
  listTeamPermissionsInCollection: (ctx, { params, query }) => {
    const collection = getCollection(ctx, params.collectionId)
    return mapPage(grantPage(ctx, collection.id, 'team', query), ({ row }) => {
      const team = row.principal.type === 'team' ? ctx.tx.get('teams', row.principal.team) : undefined
      if (!team) throw new Error(`Grant ${row.id} points to no team`)
      return { permission: row.role, team: encodeTeam(ctx, team) }
    })
  },
  updateTeamPermissionInCollection: (ctx, { params, body }) => {
    grantCollection(ctx, params.collectionId, { team: params.teamId }, body.role)
  },
  removeTeamFromCollection: (ctx, { params }) => {
    revokeCollection(ctx, getCollection(ctx, params.collectionId).id, { team: params.teamId })
  },
})
