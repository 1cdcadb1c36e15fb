import { permissionsFor } from '../../core/access.js'
import type { Context } from '../../core/context.js'
import type { Level } from '../../core/roles.js'
import type { SpaceRow } from '../../storage/schema.js'
import { SPACE_PERMISSION_KEYS } from './schemas.js'

/** The API resource of a space, with `permissions` for the caller (or for `level` when given). */
export function encodeSpace(ctx: Context, row: SpaceRow, level?: Level | null) {
  const l = level === undefined ? ctx.access.level('space', row.id) : level
  return {
    object: 'space' as const,
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(row.deletedAt !== undefined && { deletedAt: row.deletedAt }),
    ...(row.editMode !== undefined && { editMode: row.editMode }),
    mergeRules: row.mergeRules,
    urls: {
      location: ctx.urls.api(`/spaces/${row.id}`),
      app: ctx.urls.app(`/s/${row.id}`),
      ...(row.icon !== undefined && { icon: row.icon }),
    },
    organization: row.organization,
    ...(row.parent !== undefined && { parent: row.parent }),
    ...(row.language !== undefined && { language: row.language as never }),
    revision: row.revision,
    defaultLevel: row.defaultLevel,
    comments: row.comments,
    changeRequests: row.changeRequests,
    changeRequestsOpen: row.changeRequestsOpen,
    changeRequestsDraft: row.changeRequestsDraft,
    permissions: permissionsFor('space', l, SPACE_PERMISSION_KEYS),
  }
}
