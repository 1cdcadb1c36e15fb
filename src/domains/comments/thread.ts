import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { commentThread, type CommentReplyRow, type CommentRow } from './rows.js'
import type { ChangeRequestRow } from '../change-requests/rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import { getChangeRequest } from '../change-requests/model.js'
import { getSpace } from '../spaces/model.js'

/**
 * Where comments live: a space's own thread (comments on its main content) or a change
 * request's. Each operation addresses one; a comment of another thread is not found there.
 */
export interface Thread {
  space: SpaceRow
  changeRequest?: ChangeRequestRow
  /** The `byThread` index key (`commentThread`). */
  key: string
  /** The revision a new comment is posted on: main's, or the change request's current one. */
  revision: string
}

/** A live space's own thread (a trashed space is a 404, as for its change requests). */
export function spaceThread(ctx: ReadContext, spaceId: string): Thread {
  const space = getSpace(ctx, spaceId)
  return { space, key: commentThread({ space: space.id }), revision: space.revision }
}

/** A change request's thread, the change request addressed by id or number. */
export function changeRequestThread(ctx: ReadContext, spaceId: string, changeRequestId: string): Thread {
  const space = getSpace(ctx, spaceId)
  const cr = getChangeRequest(ctx, space.id, changeRequestId)
  return { space, changeRequest: cr, key: commentThread({ space: space.id, changeRequest: cr.id }), revision: cr.revision }
}

/** A comment of the thread (undefined when missing or in another thread). */
export function findComment(ctx: ReadContext, thread: Thread, id: string): CommentRow | undefined {
  const row = ctx.tx.get('comments', id)
  return row && commentThread(row) === thread.key ? row : undefined
}

export function requireComment(ctx: ReadContext, thread: Thread, id: string): CommentRow {
  const row = findComment(ctx, thread, id)
  if (!row) throw new ApiError('NOT_FOUND', 'Comment not found')
  return row
}

/** A reply of the comment (undefined when missing or a reply to another comment). */
export function findReply(ctx: ReadContext, comment: CommentRow, id: string): CommentReplyRow | undefined {
  const row = ctx.tx.get('commentReplies', id)
  return row && row.comment === comment.id ? row : undefined
}

export function requireReply(ctx: ReadContext, comment: CommentRow, id: string): CommentReplyRow {
  const row = findReply(ctx, comment, id)
  if (!row) throw new ApiError('NOT_FOUND', 'Comment reply not found')
  return row
}

/** The API path of a comment (`/spaces/{space}[/change-requests/{cr}]/comments/{id}`), for `urls.location`. */
export function commentPath(row: { space: string; changeRequest?: string }, id: string): string {
  return `/spaces/${row.space}${row.changeRequest ? `/change-requests/${row.changeRequest}` : ''}/comments/${id}`
}
