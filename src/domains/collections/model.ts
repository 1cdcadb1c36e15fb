import { produce } from '../common/produce.js'
import type { z } from 'zod'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { CollectionRow } from './rows.js'
import { appendPosition } from '../common/sequence.js'
import type { CreateCollectionSchema, UpdateCollectionSchema } from './schemas.js'

/** A live collection, or a 404. */
export function getCollection(ctx: ReadContext, id: string): CollectionRow {
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

/**
 * Check that the caller may put content at a destination: `create` on the parent collection, or
 * `createContent` on the organization for its root. Returns the parent collection (none for the root). A parent the caller cannot see answers the
 * same 400 as a missing one, so the check reveals nothing; a visible one without the role is a 403.
 */
export function requireDestination(ctx: Context, organization: string, parent: string | undefined, field = 'parent'): CollectionRow | undefined {
  if (parent === undefined) {
    ctx.access.require('organization', organization, 'createContent')
    return undefined
  }
  const collection = requireParentCollection(ctx, organization, parent, field)
  if (!ctx.access.can('collection', collection.id, 'view')) {
    throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: no collection ${parent} in this organization`)
  }
  ctx.access.require('collection', collection.id, 'create')
  return collection
}

/** Create a collection at the end of its parent (or of the organization's root). */
export function createCollection(ctx: Context, organization: string, input: z.output<typeof CreateCollectionSchema>): CollectionRow {
  requireDestination(ctx, organization, input.parent)
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

/** Apply an update to a collection (no write when nothing changes). */
export function updateCollection(ctx: Context, id: string, patch: z.output<typeof UpdateCollectionSchema>): CollectionRow {
  const collection = getCollection(ctx, id)
  const next = produce(collection, (draft) => {
    if (patch.title !== undefined) draft.title = patch.title
    if (patch.description !== undefined) draft.description = patch.description
    if (patch.defaultLevel !== undefined) draft.defaultLevel = patch.defaultLevel
  })
  return next === collection ? collection : ctx.tx.update('collections', next)
}

/**
 * Delete an empty collection. A collection still holding live spaces or collections is a 409:
 * deleting it would silently change where (and, for `in-collection` spaces, to whom) its content
 * is shown, so the caller moves or deletes the content first. Spaces in the trash that pointed at
 * it are restored to the organization's root (see restoreSpace). Its grants are deleted.
 */
export function deleteCollection(ctx: Context, collection: CollectionRow): void {
  const spaces = ctx.tx.count('spaces', 'byParent', collection.id)
  const collections = ctx.tx.count('collections', 'byParent', collection.id)
  if (spaces > 0 || collections > 0) {
    throw new ApiError('CONFLICT', `Collection is not empty: it holds ${spaces} space(s) and ${collections} collection(s); move or delete them first`)
  }
  // Its direct grants (collection-permissions) go with it.
  for (const { row } of ctx.tx.scan('collectionGrants', 'byCollection', collection.id)) ctx.tx.delete('collectionGrants', row.id)
  ctx.tx.delete('collections', collection.id)
}

/** Whether `candidate` is `ancestor` itself or sits somewhere under it. */
export function isWithin(ctx: Context, candidate: string, ancestor: string): boolean {
  let current: string | undefined = candidate
  for (let depth = 0; current !== undefined && depth < 1000; depth++) {
    if (current === ancestor) return true
    current = ctx.tx.get('collections', current)?.parent
  }
  return false
}

/**
 * Check that the caller may create content next to an existing item (a duplicate): `create` on
 * its parent collection, or `createContent` on the organization at the root. A 403 either way:
 * the caller already sees the item being copied.
 */
export function requireCreateBeside(ctx: Context, organization: string, parent: string | undefined): void {
  const ok = parent === undefined ? ctx.access.can('organization', organization, 'createContent') : ctx.access.can('collection', parent, 'create')
  if (!ok) {
    const where = parent === undefined ? 'createContent permission on the organization' : 'create role on the parent collection'
    throw new ApiError('FORBIDDEN', `You need the ${where} to do this`)
  }
}
