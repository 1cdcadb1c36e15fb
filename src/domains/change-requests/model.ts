import type { z } from 'zod'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { ChangeRequestRow, ChangeRequestStatus } from './rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import { getSpace } from '../spaces/model.js'
import type { CreateChangeRequestSchema, UpdateChangeRequestSchema } from './schemas.js'

/**
 * A change request of the space, addressed by id or by its number in the space, or a 404. Its
 * space must be one the caller may see, which the operation's permission checked already.
 */
export function getChangeRequest(ctx: ReadContext, spaceId: string, idOrNumber: string): ChangeRequestRow {
  let cr = ctx.tx.get('changeRequests', idOrNumber)
  if (!cr && /^[1-9]\d{0,9}$/.test(idOrNumber)) cr = ctx.tx.scan('changeRequests', 'byNumber', `${spaceId}/${idOrNumber}`)[0]?.row
  if (!cr || cr.space !== spaceId) throw new ApiError('NOT_FOUND', 'Change request not found')
  return cr
}

/** The revision of main the change request's content is based on. */
export const baseRevisionOf = (cr: ChangeRequestRow): string => cr.revisionMergedAncestor ?? cr.revisionInitial

/** Outdated: main has moved past the revision the change request started from or was last updated from. */
export function isOutdated(ctx: ReadContext, cr: ChangeRequestRow, space?: SpaceRow): boolean {
  if (cr.status === 'merged') return false
  const main = (space ?? ctx.tx.get('spaces', cr.space))?.revision
  return main !== undefined && main !== baseRevisionOf(cr)
}

/** Content and status changes need a change request still in progress. */
export function requireEditable(cr: ChangeRequestRow): void {
  if (cr.status === 'merged') throw new ApiError('CONFLICT', `Change request #${cr.number} is merged: its content can no longer change`)
  if (cr.status === 'archived') throw new ApiError('CONFLICT', `Change request #${cr.number} is archived: reopen it (status open or draft) to change it`)
}

/** `editMode: locked` refuses content edits and merges until an admin unlocks the space. */
export function requireUnlocked(space: SpaceRow): void {
  if (space.editMode === 'locked') throw new ApiError('FORBIDDEN', 'The space is locked (editMode locked): unlock it to edit or merge content')
}

/** A change request whose content may change: in progress (409 otherwise), in a space not locked (403). Returns the space. */
export function requireContentEditable(ctx: ReadContext, cr: ChangeRequestRow): SpaceRow {
  requireEditable(cr)
  const space = getSpace(ctx, cr.space)
  requireUnlocked(space)
  return space
}

const COUNTER: Partial<Record<ChangeRequestStatus, 'changeRequestsOpen' | 'changeRequestsDraft'>> = {
  open: 'changeRequestsOpen',
  draft: 'changeRequestsDraft',
}

/**
 * Keep the space's counters exact across a transition: `changeRequests` counts every change
 * request of the space, `changeRequestsOpen` and `changeRequestsDraft` those in each state.
 */
export function countTransition(ctx: Context, spaceId: string, from: ChangeRequestStatus | undefined, to: ChangeRequestStatus): void {
  if (from === to) return
  const space = ctx.tx.get('spaces', spaceId)!
  const next = { ...space }
  if (from === undefined) next.changeRequests += 1
  const fromKey = from && COUNTER[from]
  const toKey = COUNTER[to]
  if (fromKey) next[fromKey] -= 1
  if (toKey) next[toKey] += 1
  ctx.tx.update('spaces', next)
}

/** Create an open change request on the space's main content, numbered after the space's last one. */
export function createChangeRequest(ctx: Context, spaceId: string, input: z.output<typeof CreateChangeRequestSchema>): ChangeRequestRow {
  const space = getSpace(ctx, spaceId)
  const now = ctx.nowIso()
  const row: ChangeRequestRow = {
    id: ctx.newId(),
    space: space.id,
    organization: space.organization,
    number: ctx.tx.count('changeRequests', 'bySpace', space.id) + 1,
    status: 'open',
    createdBy: ctx.actor.user,
    createdAt: now,
    updatedAt: now,
    revision: space.revision,
    revisionInitial: space.revision,
    comments: 0,
    contributors: [],
  }
  if (typeof input.subject === 'string') row.subject = input.subject
  countTransition(ctx, space.id, undefined, row.status)
  return ctx.tx.insert('changeRequests', row)
}

/** Subject, description and status (`draft | open | archived`; a merged change request keeps its status). */
export function updateChangeRequest(ctx: Context, cr: ChangeRequestRow, patch: z.output<typeof UpdateChangeRequestSchema>): ChangeRequestRow {
  if (patch.status !== undefined && patch.status !== cr.status && cr.status === 'merged') {
    throw new ApiError('CONFLICT', `Change request #${cr.number} is merged: its status can no longer change`)
  }
  const next: ChangeRequestRow = { ...cr }
  if (patch.subject !== undefined) next.subject = patch.subject
  if (patch.description !== undefined) next.description = patch.description
  if (patch.status !== undefined) next.status = patch.status
  next.updatedAt = ctx.nowIso()
  countTransition(ctx, cr.space, cr.status, next.status)
  return ctx.tx.update('changeRequests', next)
}

/** Record an edit by the caller: contributors count their edits. */
export function withContributor(ctx: Context, cr: ChangeRequestRow): ChangeRequestRow['contributors'] {
  const now = ctx.nowIso()
  const user = ctx.actor.user
  const found = cr.contributors.some((c) => c.user === user)
  if (!found) return [...cr.contributors, { user, count: 1, updatedAt: now }]
  return cr.contributors.map((c) => (c.user === user ? { user, count: c.count + 1, updatedAt: now } : c))
}
