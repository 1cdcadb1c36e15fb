import type { Context } from '../context.js'
import type { Role } from '../../core/roles.js'
import { findGrant, grantRowId, inviteTo, removeGrant, setGrant, type Invitation, type Principal } from '../access/grants.js'
import { COLLECTION_GRANTS, type CollectionGrantRow } from './rows.js'
import type { CollectionRow } from '../collections/rows.js'
import { getCollection } from '../collections/model.js'

/** The id of a collection grant row: `${collection}/user:${id}` or `${collection}/team:${id}`. */
export function collectionGrantId(collection: string, principal: Principal): string {
  return grantRowId(collection, principal)
}

/** The direct grant of a user or team on a collection, if any. */
export function getCollectionGrant(ctx: Context, collection: string, principal: Principal): CollectionGrantRow | undefined {
  return findGrant(ctx, COLLECTION_GRANTS, collection, principal)
}

/**
 * Set the direct role of a user or a team on a collection; `null` removes it. As for a space, a
 * user must be a member of the collection's organization (a guest is fine) and a team must
 * belong to it (404 otherwise). Returns the grant, or undefined when removed.
 */
export function grantCollection(ctx: Context, collectionId: string, principal: Principal, role: Role | null): CollectionGrantRow | undefined {
  return setGrant(ctx, COLLECTION_GRANTS, getCollection(ctx, collectionId), principal, role)
}

/** Remove the direct grant of a user or a team on a collection; returns whether there was one. */
export function revokeCollection(ctx: Context, collectionId: string, principal: Principal): boolean {
  return removeGrant(ctx, COLLECTION_GRANTS, collectionId, principal)
}

/**
 * Invite users and teams to a collection with a role, as `inviteToSpace` does for a space: a user
 * not yet a member of the organization joins it as a guest; `role: null` removes the listed grants.
 * Any unknown user or team fails the whole invitation (the transaction rolls back).
 */
export function inviteToCollection(ctx: Context, collection: CollectionRow, invitation: Invitation): void {
  inviteTo(ctx, COLLECTION_GRANTS, collection, invitation, (principal, role) => grantCollection(ctx, collection.id, principal, role))
}
