import { permissionsFor, permissionsJsonFor } from '../../core/policy.js'
import type { ReadContext } from '../context.js'
import type { Urls } from '../../core/context.js'
import { createJsonCache, type JsonCache } from '../../core/json-cache.js'
import { rawJson, type RawJson } from '../../core/json.js'
import type { Level } from '../../core/roles.js'
import type { SpaceRow } from './rows.js'
import type { z } from 'zod'
import { SPACE_PERMISSION_KEYS, type LanguageSchema } from './schemas.js'
import { gitSyncOf } from './git-sync.js'

type SpacePermissions = Record<(typeof SPACE_PERMISSION_KEYS)[number], boolean>

/**
 * The resource of a space as an object of one fixed shape: an absent optional field is
 * `undefined`, which JSON leaves out, so the text is that of the resource, and `JSON.stringify`
 * walks one hidden class instead of objects grown by conditional spreads. Without `permissions`
 * (the one part that depends on the caller), it is what the JSON cache keeps.
 */
function spaceFields(urls: Urls, row: SpaceRow, permissions?: SpacePermissions, gitSync?: GitSync) {
  return {
    object: 'space' as const,
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
    editMode: row.editMode,
    mergeRules: row.mergeRules,
    urls: {
      location: urls.api(`/spaces/${row.id}`),
      app: urls.app(`/s/${row.id}`),
      icon: row.icon,
    },
    organization: row.organization,
    parent: row.parent,
    language: row.language as z.output<typeof LanguageSchema> | undefined,
    revision: row.revision,
    defaultLevel: row.defaultLevel,
    comments: row.comments,
    changeRequests: row.changeRequests,
    changeRequestsOpen: row.changeRequestsOpen,
    changeRequestsDraft: row.changeRequestsDraft,
    gitSync,
    permissions,
  }
}

/** A space's Git Sync lives in its own row (domains/git-sync), read at each encoding. */
type GitSync = NonNullable<ReturnType<typeof gitSyncOf>>

/** The caller's level on a space, unless the caller of the encoder knows it already. */
const levelOf = (ctx: ReadContext, row: SpaceRow, level: Level | null | undefined): Level | null | undefined =>
  level === undefined ? ctx.access.level('space', row.id) : level

/**
 * The API resource of a space, with `permissions` for the caller (or for `level` when given), to
 * be serialized (absent optional fields are `undefined`; see spaceFields).
 */
export function encodeSpaceForJson(ctx: ReadContext, row: SpaceRow, level?: Level | null) {
  return spaceFields(ctx.urls, row, permissionsFor('space', levelOf(ctx, row, level), SPACE_PERMISSION_KEYS), gitSyncOf(ctx.tx, row.id)) as ReturnType<
    typeof spaceFields
  > & {
    permissions: SpacePermissions
  }
}

/** Copy of a resource without its `undefined` fields (at the top and in `urls`). */
function definedOnly<T extends { urls: object }>(resource: T): T {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(resource)) if (value !== undefined) out[key] = value
  out.urls = Object.fromEntries(Object.entries(resource.urls).filter(([, value]) => value !== undefined))
  return out as T
}

/** The API resource of a space as a value (fixtures, resources nesting a space): only the fields it has. */
export function encodeSpace(ctx: ReadContext, row: SpaceRow, level?: Level | null) {
  return definedOnly(encodeSpaceForJson(ctx, row, level))
}

export type EncodedSpace = ReturnType<typeof encodeSpace>

/**
 * The JSON text of a space's fields (all but `permissions`) is kept for the spaces most recently
 * read, up to 8 Mi characters per API. A space's text is about 510 characters (20-character ids,
 * the default URLs), so the cache holds about 16,000 spaces: a hot set of that size is served
 * without serializing, and a store larger than that pays the bound once (about 10 MB with the
 * entries, 100 B a space at 100,000 spaces) instead of a copy of every space's JSON; spaces
 * beyond it are serialized as before. The text depends on the row version and the API's URLs
 * only, so there is one cache per `Urls` object (per API).
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
export function encodeSpaceJson(ctx: ReadContext, row: SpaceRow, level?: Level | null): RawJson<EncodedSpace> {
  const cache = spaceJsonCache(ctx.urls)
  const fields = cache.get(row) ?? cache.set(row, JSON.stringify(spaceFields(ctx.urls, row)))
  const permissions = permissionsJsonFor('space', levelOf(ctx, row, level), SPACE_PERMISSION_KEYS)
  // The Git Sync state is not in the cached text (it is another row): spliced in when there is one.
  const gitSync = gitSyncOf(ctx.tx, row.id)
  return rawJson(`${fields.slice(0, -1)}${gitSync ? `,"gitSync":${JSON.stringify(gitSync)}` : ''},"permissions":${permissions}}`)
}
