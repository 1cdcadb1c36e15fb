import type { Context } from '../../core/context.js'
import { implement } from '../../core/operation.js'
import { mapPage } from '../../core/paging.js'
import type { SpaceRow } from '../../storage/schema.js'
import { spaceLevelOf } from '../access/levels.js'
import { placementOf } from '../collections/positions.js'
import { encodeSpace } from './encode.js'
import { deleteSpace, restoreSpace } from './lifecycle.js'
import { organizationSpaces } from './list.js'
import { createSpace, duplicateSpace, getSpace, updateSpace } from './model.js'
import { spaceOperations } from './operations.js'
import { moveSpace, transferSpace } from './placement.js'

/** Encode after a write: the caller's level is computed afresh (a write may have changed it). */
const fresh = (ctx: Context, row: SpaceRow) => encodeSpace(ctx, row, spaceLevelOf(ctx.tx, row, ctx.actor.user))

/** The space operations bound to their handlers. */
export const spaceHandlers = implement(spaceOperations, {
  // `shareKey` is accepted and not used yet: it resolves published URLs of share-link sites.
  getSpaceById: (ctx, { params }) => encodeSpace(ctx, getSpace(ctx, params.spaceId)),

  // A missing or hidden space answers 204 before this runs (`missingIsSuccess`); so does one already deleted.
  deleteSpaceById: (ctx, { params }) => {
    deleteSpace(ctx, ctx.tx.get('spaces', params.spaceId)!)
  },

  updateSpaceById: (ctx, { params, body }) => fresh(ctx, updateSpace(ctx, params.spaceId, body)),

  duplicateSpace: (ctx, { params }) => fresh(ctx, duplicateSpace(ctx, params.spaceId)),

  restoreSpace: (ctx, { params }) => fresh(ctx, restoreSpace(ctx, params.spaceId)),

  moveSpace: (ctx, { params, body }) =>
    fresh(ctx, moveSpace(ctx, params.spaceId, { parent: body.parent, placement: placementOf('space', body.position) })),

  transferSpace: (ctx, { params, body }) => fresh(ctx, transferSpace(ctx, params.spaceId, body)),

  listSpacesInOrganizationById: (ctx, { params, query }) => {
    const { page, level } = organizationSpaces(ctx, params.organizationId, query)
    return mapPage(page, (e) => encodeSpace(ctx, e.row, level))
  },

  createSpace: (ctx, { params, body }) => fresh(ctx, createSpace(ctx, params.organizationId, body)),
})
