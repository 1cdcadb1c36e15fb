import { permissionsFor, permissionsJsonFor } from '../../core/access.js'
import type { Context, Urls } from '../../core/context.js'
import { createJsonCache, type JsonCache } from '../../core/json-cache.js'
import { rawJson, type RawJson } from '../../core/json.js'
import type { Level } from '../../core/roles.js'
import type { SpaceRow } from '../../storage/schema.js'
import { SPACE_PERMISSION_KEYS } from './schemas.js'

/** Everything of a space's resource but `permissions` (the one part that depends on the caller). */
function spaceFields(urls: Urls, row: SpaceRow) {
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
      location: urls.api(`/spaces/${row.id}`),
      app: urls.app(`/s/${row.id}`),
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
  }
}

/** The caller's level on a space, unless the caller of the encoder knows it already. */
const levelOf = (ctx: Context, row: SpaceRow, level: Level | null | undefined): Level | null | undefined =>
  level === undefined ? ctx.access.level('space', row.id) : level

/** The API resource of a space, with `permissions` for the caller (or for `level` when given). */
export function encodeSpace(ctx: Context, row: SpaceRow, level?: Level | null) {
  return { ...spaceFields(ctx.urls, row), permissions: permissionsFor('space', levelOf(ctx, row, level), SPACE_PERMISSION_KEYS) }
}

export type EncodedSpace = ReturnType<typeof encodeSpace>

/**
 * The JSON text of a space's fields (all but `permissions`) is kept for the spaces read most
 * recently encoded, up to 8 Mi characters per API: one space is about 650, so about 12,000
 * spaces; a store larger than that pays the bound once (about 85 B a space at 100,000 spaces)
 * instead of a copy of every space's JSON, and spaces beyond it are encoded as before. The text
 * depends on the row version and the API's URLs only, so there is one cache per `Urls` (per API).
 */
export const SPACE_JSON_CACHE_CHARS = 8 * 1024 * 1024
const caches = new WeakMap<Urls, JsonCache<SpaceRow>>()

/** The space JSON cache of the API whose URLs are `urls`. */
export function spaceJsonCache(urls: Urls): JsonCache<SpaceRow> {
  let cache = caches.get(urls)
  if (!cache) caches.set(urls, (cache = createJsonCache(SPACE_JSON_CACHE_CHARS)))
  return cache
}

/**
 * `encodeSpace` as JSON text, for the codec to splice: the fields' text comes from the cache
 * (serialized once per row version), `permissions` is spliced in for the caller's level.
 */
export function encodeSpaceJson(ctx: Context, row: SpaceRow, level?: Level | null): RawJson<EncodedSpace> {
  const cache = spaceJsonCache(ctx.urls)
  const fields = cache.get(row) ?? cache.set(row, JSON.stringify(spaceFields(ctx.urls, row)))
  const permissions = permissionsJsonFor('space', levelOf(ctx, row, level), SPACE_PERMISSION_KEYS)
  return rawJson(`${fields.slice(0, -1)},"permissions":${permissions}}`)
}
