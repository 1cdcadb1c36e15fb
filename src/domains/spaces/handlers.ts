import { implement } from '../context.js'
import { indexSource, mapPage, paginateScan } from '../../core/paging.js'
import { getCollection } from '../collections/model.js'
import { placementOf } from '../collections/positions.js'
import { encodeSpaceForJson, encodeSpaceJson } from './encode.js'
import { deleteSpace, restoreSpace } from './lifecycle.js'
import { recordAudit } from '../audit/model.js'
import { organizationSpaces } from './list.js'
import { createSpace, duplicateSpace, getSpace, updateSpace } from './model.js'
import { spaceOperations } from './operations.js'
import { moveSpace, transferSpace } from './placement.js'

/** The space operations bound to their handlers. */
export const spaceHandlers = implement(spaceOperations, {
  // A `shareKey` counts in the space's level (access/levels.ts): it can open a space of a share-link site.
  // Reads serve the JSON text kept per row version (encodeSpaceJson). A write answers its new
  // version serialized once (encodeSpaceForJson): keeping that text would only hold memory the
  // next read can fill, and a 201 takes its `Location` from the object.
  getSpaceById: (ctx, { params }) => encodeSpaceJson(ctx, getSpace(ctx, params.spaceId)),

  // A missing or hidden space answers 204 before this runs (`missingIsSuccess`); so does one already deleted.
  deleteSpaceById: (ctx, { params }) => {
    const space = ctx.tx.get('spaces', params.spaceId)!
    deleteSpace(ctx, space)
    recordAudit(ctx, { organization: space.organization, action: 'space.deleted', target: { type: 'space', id: space.id, label: space.title }, payload: {} })
  },

  updateSpaceById: (ctx, { params, body }) => {
    // Of what a PATCH sets, only the default level enters the caller's level (access/levels.ts):
    // otherwise the level the permission check worked out (before the write) still holds.
    const level = body.defaultLevel === undefined ? ctx.access.level('space', params.spaceId) : undefined
    return encodeSpaceForJson(ctx, updateSpace(ctx, params.spaceId, body), level)
  },

  duplicateSpace: (ctx, { params }) => encodeSpaceForJson(ctx, duplicateSpace(ctx, params.spaceId)),

  restoreSpace: (ctx, { params }) => {
    const wasDeleted = ctx.tx.get('spaces', params.spaceId)?.deletedAt !== undefined
    const space = restoreSpace(ctx, params.spaceId)
    if (wasDeleted)
      recordAudit(ctx, { organization: space.organization, action: 'space.restored', target: { type: 'space', id: space.id, label: space.title }, payload: {} })
    return encodeSpaceForJson(ctx, space)
  },

  moveSpace: (ctx, { params, body }) =>
    encodeSpaceForJson(ctx, moveSpace(ctx, params.spaceId, { parent: body.parent, placement: placementOf('space', body.position) })),

  transferSpace: (ctx, { params, body }) => encodeSpaceForJson(ctx, transferSpace(ctx, params.spaceId, body)),

  listSpacesInOrganizationById: (ctx, { params, query }) => {
    const { page, level } = organizationSpaces(ctx, params.organizationId, query)
    return mapPage(page, (e) => encodeSpaceJson(ctx, e.row, level))
  },

  createSpace: (ctx, { params, body }) => encodeSpaceForJson(ctx, createSpace(ctx, params.organizationId, body)),

  listSpacesInCollectionById: (ctx, { params, query }) => {
    const collection = getCollection(ctx, params.collectionId)
    // Only members with a role see a collection (access/levels.ts), and they see every space of
    // the organization: the index, in position order, is the list.
    const page = paginateScan(indexSource(ctx.tx, 'spaces', 'byParent', collection.id), query)
    return mapPage(page, (e) => encodeSpaceJson(ctx, e.row))
  },
})
