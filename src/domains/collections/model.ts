import type { z } from 'zod'
import type { Context } from '../../core/context.js'
import { ApiError } from '../../core/errors.js'
import type { CollectionRow } from '../../storage/schema.js'
import { appendPosition } from '../common/sequence.js'
import type { CreateCollectionSchema } from './schemas.js'

/** A live collection, or a 404. */
export function getCollection(ctx: Context, id: string): CollectionRow {
  const collection = ctx.tx.get('collections', id)
  if (!collection) throw new ApiError('NOT_FOUND', 'Collection not found')
  return collection
}

/** A parent collection for an item of `organization`: it must exist in the same organization. */
export function requireParentCollection(ctx: Context, organization: string, parent: string, field = 'parent'): CollectionRow {
  const collection = ctx.tx.get('collections', parent)
  if (!collection || collection.organization !== organization) {
    throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: no collection ${parent} in this organization`)
  }
  return collection
}

/** Create a collection at the end of its parent (or of the organization's root). */
export function createCollection(ctx: Context, organization: string, input: z.output<typeof CreateCollectionSchema>): CollectionRow {
  if (input.parent) requireParentCollection(ctx, organization, input.parent)
  return ctx.tx.insert('collections', {
    id: ctx.newId(),
    organization,
    ...(input.parent !== undefined && { parent: input.parent }),
    title: input.title ?? 'Untitled',
    ...(input.description !== undefined && { description: input.description }),
    defaultLevel: null,
    position: appendPosition(ctx),
    createdAt: ctx.nowIso(),
  })
}
