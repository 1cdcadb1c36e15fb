import { permissionsFor } from '../../core/access.js'
import type { ReadContext } from '../context.js'
import type { Level } from '../../core/roles.js'
import type { CollectionRow } from './rows.js'
import { COLLECTION_PERMISSION_KEYS } from './schemas.js'

/** The API resource of a collection, with `permissions` for the caller (or for `level` when given). */
export function encodeCollection(ctx: ReadContext, row: CollectionRow, level?: Level | null) {
  const l = level === undefined ? ctx.access.level('collection', row.id) : level
  return {
    object: 'collection' as const,
    id: row.id,
    title: row.title,
    ...(row.description !== undefined && { description: row.description }),
    organization: row.organization,
    ...(row.parent !== undefined && { parent: row.parent }),
    defaultLevel: row.defaultLevel,
    urls: { location: ctx.urls.api(`/collections/${row.id}`), app: ctx.urls.app(`/c/${row.id}`) },
    permissions: permissionsFor('collection', l, COLLECTION_PERMISSION_KEYS),
  }
}
