import { produce } from '../common/produce.js'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { Role } from '../../core/roles.js'
import type { CollectionGrantRow } from './rows.js'
import type { CollectionRow } from '../collections/rows.js'
import { getCollection } from '../collections/model.js'
import { addMember } from '../members/model.js'
import { requireMemberOf, requireTeamOf, type Invitation, type Principal } from '../space-permissions/model.js'

/** The id of a collection grant row: `${collection}/user:${id}` or `${collection}/team:${id}`. */
export function collectionGrantId(collection: string, principal: Principal): string {
  return 'user' in principal ? `${collection}/user:${principal.user}` : `${collection}/team:${principal.team}`
}

/** The direct grant of a user or team on a collection, if any. */
export function getCollectionGrant(ctx: Context, collection: string, principal: Principal): CollectionGrantRow | undefined {
  return ctx.tx.get('collectionGrants', collectionGrantId(collection, principal))
}

/**
 * Set the direct role of a user or a team on a collection; `null` removes it. As for a space, a
 * user must be a member of the collection's organization (a guest is fine) and a team must
 * belong to it (404 otherwise). Returns the grant, or undefined when removed.
 */
export function grantCollection(ctx: Context, collectionId: string, principal: Principal, role: Role | null): CollectionGrantRow | undefined {
  const collection = getCollection(ctx, collectionId)
  if ('user' in principal) requireMemberOf(ctx, collection.organization, principal.user)
  else requireTeamOf(ctx, collection.organization, principal.team)
  if (role === null) {
    revokeCollection(ctx, collection.id, principal)
    return undefined
  }
  const existing = getCollectionGrant(ctx, collection.id, principal)
  if (existing) {
    const next = produce(existing, (draft) => {
      draft.role = role
    })
    return next === existing ? existing : ctx.tx.update('collectionGrants', next)
  }
  return ctx.tx.insert('collectionGrants', {
    id: collectionGrantId(collection.id, principal),
    collection: collection.id,
    organization: collection.organization,
    principal: 'user' in principal ? { type: 'user', user: principal.user } : { type: 'team', team: principal.team },
    role,
  })
}

/** Remove the direct grant of a user or a team on a collection; returns whether there was one. */
export function revokeCollection(ctx: Context, collectionId: string, principal: Principal): boolean {
  return ctx.tx.delete('collectionGrants', collectionGrantId(collectionId, principal))
}

/**
 * Invite users and teams to a collection with a role, as `inviteToSpace` does for a space: a user
 * not yet a member of the organization joins it as a guest; `role: null` removes the listed grants.
 * Any unknown user or team fails the whole invitation (the transaction rolls back).
 */
export function inviteToCollection(ctx: Context, collection: CollectionRow, invitation: Invitation): void {
  for (const user of new Set(invitation.users ?? [])) {
    if (invitation.role !== null) {
      if (!ctx.tx.get('users', user)) throw new ApiError('NOT_FOUND', `User ${user} not found`)
      addMember(ctx, collection.organization, user, null)
    }
    grantCollection(ctx, collection.id, { user }, invitation.role)
  }
  for (const team of new Set(invitation.teams ?? [])) grantCollection(ctx, collection.id, { team }, invitation.role)
}
