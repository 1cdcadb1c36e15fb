import type { ReadContext } from '../context.js'
import { implement } from '../context.js'
import { indexSource, mapPage, paginateScan, type PageQuery } from '../../core/paging.js'
import { getCollection } from '../collections/model.js'
import { encodeTeam } from '../teams/encode.js'
import { encodeUser } from '../users/encode.js'
import { getCollectionGrant, grantCollection, inviteToCollection, revokeCollection } from './model.js'
import type { Principal } from '../space-permissions/model.js'
import { auditGrants } from '../audit/model.js'
import type { Context } from '../context.js'
import type { CollectionRow } from '../collections/rows.js'
import { collectionPermissionOperations } from './operations.js'

/** One page of a collection's user or team grants, in index order (O(log n + limit) a page). */
function grantPage(ctx: ReadContext, collection: string, type: 'user' | 'team', query: PageQuery) {
  return paginateScan(indexSource(ctx.tx, 'collectionGrants', 'byCollectionAndType', `${collection}/${type}`), query)
}

/** Run `change` on the grants of `principals` on a collection, recording what it changed (audit/model.ts). */
function audited<T>(ctx: Context, collection: CollectionRow, principals: readonly Principal[], change: () => T): T {
  const resource = { kind: 'collection' as const, id: collection.id, organization: collection.organization, title: collection.title }
  return auditGrants(ctx, resource, principals, (p) => getCollectionGrant(ctx, collection.id, p)?.role, change)
}

export const collectionPermissionHandlers = implement(collectionPermissionOperations, {
  inviteToCollection: (ctx, { params, body }) => {
    const collection = getCollection(ctx, params.collectionId)
    const principals = [...(body.users ?? []).map((user) => ({ user })), ...(body.teams ?? []).map((team) => ({ team }))]
    audited(ctx, collection, principals, () => inviteToCollection(ctx, collection, body))
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
    audited(ctx, getCollection(ctx, params.collectionId), [{ user: params.userId }], () =>
      grantCollection(ctx, params.collectionId, { user: params.userId }, body.role),
    )
  },
  removeUserFromCollection: (ctx, { params }) => {
    const collection = getCollection(ctx, params.collectionId)
    audited(ctx, collection, [{ user: params.userId }], () => revokeCollection(ctx, collection.id, { user: params.userId }))
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
    audited(ctx, getCollection(ctx, params.collectionId), [{ team: params.teamId }], () =>
      grantCollection(ctx, params.collectionId, { team: params.teamId }, body.role),
    )
  },
  removeTeamFromCollection: (ctx, { params }) => {
    const collection = getCollection(ctx, params.collectionId)
    audited(ctx, collection, [{ team: params.teamId }], () => revokeCollection(ctx, collection.id, { team: params.teamId }))
  },
})
