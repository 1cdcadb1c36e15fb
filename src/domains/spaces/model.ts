import type { z } from 'zod'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { parentKey } from '../common/rows.js'
import type { SpaceRow } from './rows.js'
import { requireCreateBeside, requireDestination } from '../collections/model.js'
import { place } from '../collections/positions.js'
import { appendPosition } from '../common/sequence.js'
import { spaceDuplicated } from '../hooks.js'
import { purgeExpiredSpaces } from './lifecycle.js'
import type { CreateSpaceSchema, UpdateSpaceSchema } from './schemas.js'

export { RESTORE_WINDOW_DAYS } from './lifecycle.js'

/** A live space, or a 404 (deleted spaces are hidden). */
export function getSpace(ctx: ReadContext, id: string): SpaceRow {
  const space = ctx.tx.get('spaces', id)
  if (!space || space.deletedAt) throw new ApiError('NOT_FOUND', 'Space not found')
  return space
}

/**
 * Create a space at the end of its parent collection (or of the organization's root).
 * A space in a collection defaults to `in-collection` visibility (access follows the
 * collection); at the root it defaults to `private`. The caller needs `create` on the parent
 * collection, or `createContent` on the organization for its root.
 */
export function createSpace(ctx: Context, organization: string, input: z.output<typeof CreateSpaceSchema>): SpaceRow {
  const org = ctx.tx.get('organizations', organization)
  if (!org) throw new ApiError('NOT_FOUND', 'Organization not found')
  const visibility = input.visibility ?? (input.parent ? 'in-collection' : 'private')
  if (visibility === 'in-collection' && !input.parent) {
    throw new ApiError('BAD_REQUEST', 'Invalid request: body field `visibility`: `in-collection` is only for spaces in a collection')
  }
  const parent = requireDestination(ctx, org.id, input.parent)
  purgeExpiredSpaces(ctx, org.id)
  const now = ctx.nowIso()
  // The stored row points at the organization's and the collection's own id strings, not at
  // copies decoded from this request's path and body: 40 bytes less per space.
  const row: SpaceRow = {
    id: ctx.newId(),
    organization: org.id,
    title: input.title ?? 'Untitled',
    emoji: input.emoji ?? '',
    visibility,
    createdAt: now,
    updatedAt: now,
    mergeRules: INHERIT_MERGE_RULES,
    revision: ctx.newId(),
    defaultLevel: null,
    position: appendPosition(ctx),
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
  }
  if (parent) row.parent = parent.id
  if (input.editMode !== undefined) row.editMode = input.editMode
  if (input.language !== undefined) row.language = input.language
  return ctx.tx.insert('spaces', row)
}

/** Shared by every space that inherits its merge rules (rows are frozen, so sharing is safe). */
const INHERIT_MERGE_RULES = Object.freeze({ type: 'inherit' as const })

/**
 * Apply an update; `updatedAt` moves only when something changed (a field set to another value,
 * or `mergeRules` given). The one transition written without immer: it is the hot write of the
 * API (PATCH of a space), and building the next version directly, one copy, costs a fraction of
 * a draft's proxies and finalization for the same frozen-by-the-store result.
 */
export function updateSpace(ctx: Context, id: string, patch: z.output<typeof UpdateSpaceSchema>): SpaceRow {
  const space = getSpace(ctx, id)
  const next: { -readonly [K in keyof SpaceRow]: SpaceRow[K] } = { ...space }
  if (patch.title !== undefined) next.title = patch.title
  if (patch.editMode !== undefined) next.editMode = patch.editMode
  if (patch.defaultLevel !== undefined) next.defaultLevel = patch.defaultLevel
  if (patch.language !== undefined) next.language = patch.language
  if (patch.mergeRules !== undefined) next.mergeRules = patch.mergeRules
  // An emoji and an icon are alternatives: setting one removes the other.
  let dropIcon = patch.icon === null
  if (patch.emoji === null) next.emoji = ''
  else if (patch.emoji !== undefined) {
    next.emoji = patch.emoji
    dropIcon = true
  }
  if (typeof patch.icon === 'string') {
    next.icon = patch.icon
    next.emoji = ''
  }
  dropIcon &&= next.icon !== undefined
  const changed = dropIcon || patch.mergeRules !== undefined || UPDATABLE.some((key) => next[key] !== space[key])
  if (!changed) return space
  next.updatedAt = ctx.nowIso()
  if (!dropIcon) return ctx.tx.update('spaces', next)
  const { icon: _removed, ...withoutIcon } = next
  return ctx.tx.update('spaces', withoutIcon)
}

/** The scalar fields an update may set (merge rules, an object, count as changed whenever given). */
const UPDATABLE = ['title', 'editMode', 'defaultLevel', 'language', 'emoji', 'icon'] as const

/** Title of a copy: " (copy)" appended, the original cut so the whole stays within 50 characters. */
export function copyTitle(title: string): string {
  const suffix = ' (copy)'
  return `${title.slice(0, 50 - suffix.length)}${suffix}`
}

/**
 * Duplicate a live space right after the original, in the same organization and parent. The copy
 * gets a new id and revision, the original's settings (emoji, icon, visibility, edit mode, merge
 * rules, language, default level), its direct grants, so whoever could work on the original can
 * work on the copy, and its main content (pages and files, copied: see content/copy.ts); change
 * requests, comments and old revisions are not copied, and the counters start at 0. The caller needs the right to create content there.
 */
export function duplicateSpace(ctx: Context, id: string): SpaceRow {
  const source = getSpace(ctx, id)
  requireCreateBeside(ctx, source.organization, source.parent)
  purgeExpiredSpaces(ctx, source.organization)
  const copyId = ctx.newId()
  const siblings = ctx.tx.scan('spaces', 'byParent', parentKey(source)).map((e) => e.row)
  const { position } = place(ctx, siblings, { at: 'after', sibling: source.id }, { field: 'position', label: 'space', self: copyId }, (row, p) =>
    ctx.tx.update('spaces', { ...row, position: p }),
  )
  const now = ctx.nowIso()
  // The content area copies the main content (content/copy.ts) and gives the copy's revision.
  const copied = spaceDuplicated(ctx, source, copyId)
  const copy = ctx.tx.insert('spaces', {
    ...source,
    id: copyId,
    title: copyTitle(source.title),
    createdAt: now,
    updatedAt: now,
    revision: copied.revision ?? ctx.newId(),
    position,
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
  })
  for (const { row } of ctx.tx.scan('spaceGrants', 'bySpace', source.id)) {
    const principal = row.principal.type === 'user' ? `user:${row.principal.user}` : `team:${row.principal.team}`
    ctx.tx.insert('spaceGrants', { ...row, id: `${copy.id}/${principal}`, space: copy.id })
  }
  return copy
}
