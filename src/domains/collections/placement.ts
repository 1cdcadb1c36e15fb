import { produce } from '../common/produce.js'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { rootKey } from '../common/rows.js'
import type { CollectionRow } from './rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import { appendPosition } from '../common/sequence.js'
import { spaceTransferred } from '../hooks.js'
import { getCollection, isWithin, requireDestination } from './model.js'
import { moveAmongSiblings, type Placement } from './positions.js'

/** Where a move sends an item: a parent (or the root) and a place among its siblings. */
export interface MoveInput {
  /** A collection id, null for the organization's root, undefined to stay in the current parent. */
  parent?: string | null | undefined
  placement: Placement
}

/**
 * Move a collection under another parent and/or next to a sibling. Moving it into itself or
 * one of its descendants is a 400 (it would make a cycle); a move that changes nothing is a 409.
 * A new parent needs `create` on it (or `createContent` on the organization for the root);
 * reordering among the same siblings needs nothing more than admin on the collection.
 */
export function moveCollection(ctx: Context, id: string, input: MoveInput): CollectionRow {
  const collection = getCollection(ctx, id)
  const parent = input.parent === undefined ? collection.parent : (input.parent ?? undefined)
  const sameParent = parent === collection.parent
  if (parent !== undefined && isWithin(ctx, parent, collection.id)) {
    throw new ApiError('BAD_REQUEST', 'Invalid request: body field `parent`: cannot move a collection into itself or one of its descendants')
  }
  if (!sameParent) requireDestination(ctx, collection.organization, parent)
  // The index keeps siblings in position order.
  const all = ctx.tx.scan('collections', 'byParent', parent ?? rootKey(collection.organization)).map((e) => e.row)
  const position = moveAmongSiblings(ctx, all, { id: collection.id, label: 'collection', sameParent }, input.placement, (row, p) =>
    ctx.tx.update('collections', { ...row, position: p }),
  )
  const next = produce(collection, (draft) => {
    if (parent === undefined) delete draft.parent
    else draft.parent = parent
    draft.position = position
  })
  return ctx.tx.update('collections', next)
}

/**
 * Transfer a collection, with everything under it (nested collections, live and trashed spaces),
 * to another organization. It lands at the end of the target's root; nested items keep their
 * place inside it. The moved spaces leave the organization as `transferSpace` moves one: their
 * direct grants (they name users and teams of the old organization) and site-spaces are dropped,
 * their change requests go along. The caller needs `createContent` on the target organization.
 */
export function transferCollection(ctx: Context, id: string, organization: string): CollectionRow {
  const collection = getCollection(ctx, id)
  if (organization === collection.organization) {
    throw new ApiError('CONFLICT', 'The transfer would not change anything: the collection is already in this organization')
  }
  requireDestination(ctx, organization, undefined)
  const source = collection.organization
  // Walk the subtree through the byParent indexes: O(size of the subtree), never the whole store.
  const subtree = new Set<string>([collection.id])
  const queue = [collection.id]
  for (let c = queue.shift(); c !== undefined; c = queue.shift()) {
    // Direct grants name users and teams of the old organization: they are dropped, as a space's are.
    for (const { row } of ctx.tx.scan('collectionGrants', 'byCollection', c)) ctx.tx.delete('collectionGrants', row.id)
    for (const { row } of ctx.tx.scan('collections', 'byParent', c)) {
      subtree.add(row.id)
      queue.push(row.id)
      ctx.tx.update('collections', { ...row, organization })
    }
    for (const { row } of ctx.tx.scan('spaces', 'byParent', c)) transferSpaceRow(ctx, row, organization)
  }
  for (const { row } of ctx.tx.scan('spaces', 'deleted', source)) {
    if (row.parent !== undefined && subtree.has(row.parent)) transferSpaceRow(ctx, row, organization)
  }
  const next = produce(collection, (draft) => {
    draft.organization = organization
    delete draft.parent
    draft.position = appendPosition(ctx)
  })
  return ctx.tx.update('collections', next)
}

/** Move a space row to another organization (same parent); drop its direct grants and its site-spaces, take its change requests along. */
function transferSpaceRow(ctx: Context, space: SpaceRow, organization: string): void {
  for (const { row } of ctx.tx.scan('spaceGrants', 'bySpace', space.id)) ctx.tx.delete('spaceGrants', row.id)
  // Site-spaces and change requests follow in the areas above (domains/hooks.ts), as for transferSpace.
  spaceTransferred(ctx, space.id, organization)
  ctx.tx.update('spaces', { ...space, organization, updatedAt: ctx.nowIso() })
}
