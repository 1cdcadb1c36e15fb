import { implement } from '../context.js'
import { indexSource, mapPage, paginateScan } from '../../core/paging.js'
import { rootKey } from '../common/rows.js'
import type { CollectionRow } from './rows.js'
import { memberRole } from '../access/levels.js'
import { encodeCollection } from './encode.js'
import { createCollection, deleteCollection, getCollection, updateCollection } from './model.js'
import { collectionOperations } from './operations.js'
import { moveCollection, transferCollection } from './placement.js'
import { placementOf } from './positions.js'

/** The collection operations bound to their handlers. */
export const collectionHandlers = implement(collectionOperations, {
  getCollectionById: (ctx, { params }) => encodeCollection(ctx, getCollection(ctx, params.collectionId)),

  // A missing or hidden collection answers 204 before this runs (`missingIsSuccess`).
  deleteCollectionById: (ctx, { params }) => {
    deleteCollection(ctx, ctx.tx.get('collections', params.collectionId)!)
  },

  updateCollectionById: (ctx, { params, body }) => encodeCollection(ctx, updateCollection(ctx, params.collectionId, body)),

  moveCollection: (ctx, { params, body }) =>
    encodeCollection(ctx, moveCollection(ctx, params.collectionId, { parent: body.parent, placement: placementOf('collection', body.position) })),

  transferCollection: (ctx, { params, body }) => encodeCollection(ctx, transferCollection(ctx, params.collectionId, body.organization)),

  listCollectionsInOrganizationById: (ctx, { params, query }) => {
    const organization = params.organizationId
    // Collections are shown to members with a role only (see access/levels.ts): no filter for them.
    const filter = memberRole(ctx.tx, organization, ctx.actor.user) ? undefined : (row: CollectionRow) => ctx.access.can('collection', row.id, 'view')
    // Nested: every collection in creation order; else the root ones, in position order.
    const source = query.nested
      ? indexSource(ctx.tx, 'collections', 'byOrganization', organization)
      : indexSource(ctx.tx, 'collections', 'byParent', rootKey(organization))
    return mapPage(paginateScan(source, query, filter), (e) => encodeCollection(ctx, e.row))
  },

  createCollection: (ctx, { params, body }) => encodeCollection(ctx, createCollection(ctx, params.organizationId, body)),
})
