import type { Context } from '../../core/context.js'
import { implement } from '../../core/operation.js'
import { mapPage, paginate, paginateScan } from '../../core/paging.js'
import { rootKey, type CollectionRow } from '../../storage/schema.js'
import { collectionLevelOf, memberRole } from '../access/levels.js'
import { encodeSpace } from '../spaces/encode.js'
import { canSee } from '../spaces/list.js'
import { encodeCollection } from './encode.js'
import { createCollection, deleteCollection, getCollection, updateCollection } from './model.js'
import { collectionOperations } from './operations.js'
import { moveCollection, transferCollection } from './placement.js'
import { placementOf, sortByPosition } from './positions.js'

/** Encode after a write: the caller's level is computed afresh (a write may have changed it). */
const fresh = (ctx: Context, row: CollectionRow) => encodeCollection(ctx, row, collectionLevelOf(ctx.tx, row, ctx.actor.user))

/** The collection operations bound to their handlers. */
export const collectionHandlers = implement(collectionOperations, {
  getCollectionById: (ctx, { params }) => encodeCollection(ctx, getCollection(ctx, params.collectionId)),

  // A missing or hidden collection answers 204 before this runs (`missingIsSuccess`).
  deleteCollectionById: (ctx, { params }) => {
    deleteCollection(ctx, ctx.tx.get('collections', params.collectionId)!)
  },

  updateCollectionById: (ctx, { params, body }) => fresh(ctx, updateCollection(ctx, params.collectionId, body)),

  listSpacesInCollectionById: (ctx, { params, query }) => {
    const collection = getCollection(ctx, params.collectionId)
    // Siblings are few (one collection's spaces): sort them by position and page by [position, seq].
    let entries = sortByPosition(ctx.tx.scan('spaces', 'byParent', collection.id))
    if (!memberRole(ctx.tx, collection.organization, ctx.actor.user)) entries = entries.filter((e) => canSee(ctx, 'space', e.row.id))
    const page = paginate(entries, (e) => [e.row.position, e.seq], query)
    return mapPage(page, (e) => encodeSpace(ctx, e.row))
  },

  moveCollection: (ctx, { params, body }) =>
    fresh(ctx, moveCollection(ctx, params.collectionId, { parent: body.parent, placement: placementOf('collection', body.position) })),

  transferCollection: (ctx, { params, body }) => fresh(ctx, transferCollection(ctx, params.collectionId, body.organization)),

  listCollectionsInOrganizationById: (ctx, { params, query }) => {
    const organization = params.organizationId
    // Collections are shown to members with a role only (see access/levels.ts): no filter for them.
    const filter = memberRole(ctx.tx, organization, ctx.actor.user) ? undefined : (row: CollectionRow) => canSee(ctx, 'collection', row.id)
    if (query.nested) {
      const source = {
        scan: (o?: { afterSeq?: number; limit?: number }) => ctx.tx.scan('collections', 'byOrganization', organization, o),
        count: () => ctx.tx.count('collections', 'byOrganization', organization),
      }
      return mapPage(paginateScan(source, query, filter), (e) => encodeCollection(ctx, e.row))
    }
    let roots = sortByPosition(ctx.tx.scan('collections', 'byParent', rootKey(organization)))
    if (filter) roots = roots.filter((e) => filter(e.row))
    return mapPage(paginate(roots, (e) => [e.row.position, e.seq], query), (e) => encodeCollection(ctx, e.row))
  },

  createCollection: (ctx, { params, body }) => fresh(ctx, createCollection(ctx, params.organizationId, body)),
})
