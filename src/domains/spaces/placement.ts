import { produce } from '../common/produce.js'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { rootKey } from '../common/rows.js'
import type { SpaceRow } from './rows.js'
import { requireDestination } from '../collections/model.js'
import type { MoveInput } from '../collections/placement.js'
import { moveAmongSiblings } from '../collections/positions.js'
import { appendPosition } from '../common/sequence.js'
import { spaceTransferred } from '../hooks.js'
import { getSpace } from './model.js'

/**
 * Moves and transfers of spaces. A space taken out of collections to an organization's root
 * while its visibility is `in-collection` becomes `private`: it has no collection to follow, and
 * private is the one visibility that opens it to nobody new.
 */
function leaveCollectionVisibility(draft: { visibility: SpaceRow['visibility']; parent?: string }): void {
  if (draft.parent === undefined && draft.visibility === 'in-collection') draft.visibility = 'private'
}

/**
 * Move a space under another collection (null: the organization's root) and/or next to a sibling
 * space. A new parent needs `create` on it (or `createContent` for the root); a move that changes
 * nothing is a 409; a sibling that is not in the target parent is a 400.
 */
export function moveSpace(ctx: Context, id: string, input: MoveInput): SpaceRow {
  const space = getSpace(ctx, id)
  const parent = input.parent === undefined ? space.parent : (input.parent ?? undefined)
  const sameParent = parent === space.parent
  if (!sameParent) requireDestination(ctx, space.organization, parent)
  // The index keeps siblings in position order.
  const all = ctx.tx.scan('spaces', 'byParent', parent ?? rootKey(space.organization)).map((e) => e.row)
  const position = moveAmongSiblings(ctx, all, { id: space.id, label: 'space', sameParent }, input.placement, (row, p) =>
    ctx.tx.update('spaces', { ...row, position: p }),
  )
  const next = produce(space, (draft) => {
    if (parent === undefined) delete draft.parent
    else draft.parent = parent
    draft.position = position
    draft.updatedAt = ctx.nowIso()
    leaveCollectionVisibility(draft)
  })
  return ctx.tx.update('spaces', next)
}

export interface TransferInput {
  organization: string
  /** A collection of the target organization; its root when undefined. */
  parent?: string | undefined
}

/**
 * Transfer a space to another organization, another collection, or both; it lands at the end of
 * its new parent. Leaving the organization drops the direct grants (they name users and teams of
 * the old one) and the site-spaces, and moves the change requests to the new one. The caller needs `create` on the target collection, or `createContent` on the
 * target organization for its root.
 */
export function transferSpace(ctx: Context, id: string, input: TransferInput): SpaceRow {
  const space = getSpace(ctx, id)
  const sameOrganization = input.organization === space.organization
  if (sameOrganization && input.parent === space.parent) {
    throw new ApiError('CONFLICT', 'The transfer would not change anything: the space is already there')
  }
  requireDestination(ctx, input.organization, input.parent)
  if (!sameOrganization) {
    for (const { row } of ctx.tx.scan('spaceGrants', 'bySpace', space.id)) ctx.tx.delete('spaceGrants', row.id)
    // The areas above follow (domains/hooks.ts): sites publish only spaces of their own
    // organization (site-structure), change requests are listed under their space's (change-requests).
    spaceTransferred(ctx, space.id, input.organization)
  }
  const next = produce(space, (draft) => {
    draft.organization = input.organization
    if (input.parent === undefined) delete draft.parent
    else draft.parent = input.parent
    draft.position = appendPosition(ctx)
    draft.updatedAt = ctx.nowIso()
    leaveCollectionVisibility(draft)
  })
  return ctx.tx.update('spaces', next)
}
