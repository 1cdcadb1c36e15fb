import type { z } from 'zod'
import type { Context } from '../../core/context.js'
import { ApiError } from '../../core/errors.js'
import type { SpaceRow } from '../../storage/schema.js'
import { requireParentCollection } from '../collections/model.js'
import { appendPosition } from '../common/sequence.js'
import type { CreateSpaceSchema } from './schemas.js'

/** The retention and restore window of deleted spaces. */
export const RESTORE_WINDOW_DAYS = 7

/** A live space, or a 404 (deleted spaces are hidden). */
export function getSpace(ctx: Context, id: string): SpaceRow {
  const space = ctx.tx.get('spaces', id)
  if (!space || space.deletedAt) throw new ApiError('NOT_FOUND', 'Space not found')
  return space
}

/**
 * Create a space at the end of its parent collection (or of the organization's root).
 * A space in a collection defaults to `in-collection` visibility (access follows the
 * collection); at the root it defaults to `private`.
 */
export function createSpace(ctx: Context, organization: string, input: z.output<typeof CreateSpaceSchema>): SpaceRow {
  if (!ctx.tx.get('organizations', organization)) throw new ApiError('NOT_FOUND', 'Organization not found')
  if (input.parent) requireParentCollection(ctx, organization, input.parent)
  const visibility = input.visibility ?? (input.parent ? 'in-collection' : 'private')
  if (visibility === 'in-collection' && !input.parent) {
    throw new ApiError('BAD_REQUEST', 'Invalid request: body field `visibility`: `in-collection` is only for spaces in a collection')
  }
  const now = ctx.nowIso()
  return ctx.tx.insert('spaces', {
    id: ctx.newId(),
    organization,
    ...(input.parent !== undefined && { parent: input.parent }),
    title: input.title ?? 'Untitled',
    emoji: input.emoji ?? '',
    visibility,
    createdAt: now,
    updatedAt: now,
    ...(input.editMode !== undefined && { editMode: input.editMode }),
    mergeRules: INHERIT_MERGE_RULES,
    ...(input.language !== undefined && { language: input.language }),
    revision: ctx.newId(),
    defaultLevel: null,
    position: appendPosition(ctx),
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
  })
}

/** Shared by every space that inherits its merge rules (rows are frozen, so sharing is safe). */
const INHERIT_MERGE_RULES = Object.freeze({ type: 'inherit' as const })
