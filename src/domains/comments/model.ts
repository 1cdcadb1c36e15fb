import type { z } from 'zod'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { commentThread, type CommentReplyRow, type CommentRow } from './rows.js'
import { bodyOf } from './body.js'
import { mayDelete, mayResolve } from './permissions.js'
import { applyReactions, sameReactions } from './reactions.js'
import type { PostCommentReplySchema, PostCommentSchema, UpdateCommentReplySchema, UpdateCommentSchema } from './schemas.js'
import { targetOf } from './target.js'
import type { Thread } from './thread.js'

/**
 * Comment and reply transitions. The `comments` counters (space and change request) count the
 * open comments of each thread; after every write they are set from the `byThreadStatus` index
 * (a count in O(1)), so they are exact by construction whatever the transition.
 */

/** Set the `comments` counter of a thread's owner (a change request, or the space) to its open comments. */
export function syncCommentCounter(ctx: Context, at: { space: string; changeRequest?: string }): void {
  const open = ctx.tx.count('comments', 'byThreadStatus', `${commentThread(at)}/open`)
  if (at.changeRequest) {
    const cr = ctx.tx.get('changeRequests', at.changeRequest)
    if (cr && cr.comments !== open) ctx.tx.update('changeRequests', { ...cr, comments: open })
  } else {
    const space = ctx.tx.get('spaces', at.space)
    if (space && space.comments !== open) ctx.tx.update('spaces', { ...space, comments: open })
  }
}

export function postComment(ctx: Context, thread: Thread, input: z.output<typeof PostCommentSchema>): CommentRow {
  const body = bodyOf(input.body, 'body')
  const target = targetOf(ctx, thread, input)
  const row: CommentRow = {
    id: ctx.newId(),
    space: thread.space.id,
    postedBy: ctx.actor.user,
    postedAt: ctx.nowIso(),
    body,
    target,
    status: 'open',
    reactions: [],
  }
  if (thread.changeRequest) row.changeRequest = thread.changeRequest.id
  const saved = ctx.tx.insert('comments', row)
  syncCommentCounter(ctx, saved)
  return saved
}

const ONLY_AUTHOR_EDITS = (what: string) => new ApiError('FORBIDDEN', `Only the author of a ${what} can edit its body`)

/**
 * Resolve or reopen (the author or a space admin), edit the body (the author only; `editedAt`
 * set), react (anyone who may reply). Every check runs before anything is written; a field that
 * changes nothing writes nothing (resolving a resolved comment keeps its `resolvedAt`).
 */
export function updateComment(ctx: Context, comment: CommentRow, input: z.output<typeof UpdateCommentSchema>): CommentRow {
  const author = comment.postedBy === ctx.actor.user
  if (input.resolved !== undefined && !mayResolve(ctx, comment)) {
    throw new ApiError('FORBIDDEN', 'Only the author of a comment or an admin of the space can resolve or reopen it')
  }
  if (input.body !== undefined && !author) throw ONLY_AUTHOR_EDITS('comment')
  const body = input.body === undefined ? undefined : bodyOf(input.body, 'body')
  const now = ctx.nowIso()
  const reactions = applyReactions(comment.reactions, ctx.actor.user, now, input.addedReactions, input.removedReactions)
  const next: CommentRow = { ...comment }
  let changed = false
  if (input.resolved === true && comment.status !== 'resolved') {
    next.status = 'resolved'
    next.resolvedAt = now
    next.resolvedBy = ctx.actor.user
    changed = true
  } else if (input.resolved === false && comment.status !== 'open') {
    next.status = 'open'
    delete next.resolvedAt
    delete next.resolvedBy
    changed = true
  }
  if (body) {
    next.body = body
    next.editedAt = now
    changed = true
  }
  if (!sameReactions(reactions, comment.reactions)) {
    next.reactions = reactions
    changed = true
  }
  if (!changed) return comment
  const saved = ctx.tx.update('comments', next)
  if (saved.status !== comment.status) syncCommentCounter(ctx, saved)
  return saved
}

/** Delete a comment and its replies (the author or a space admin); false when there was none. */
export function deleteComment(ctx: Context, comment: CommentRow | undefined): boolean {
  if (!comment) return false
  if (!mayDelete(ctx, comment)) throw new ApiError('FORBIDDEN', 'Only the author of a comment or an admin of the space can delete it')
  removeComment(ctx, comment)
  syncCommentCounter(ctx, comment)
  return true
}

function removeComment(ctx: Context, comment: CommentRow): void {
  for (const { row } of ctx.tx.scan('commentReplies', 'byComment', comment.id)) ctx.tx.delete('commentReplies', row.id)
  ctx.tx.delete('comments', comment.id)
}

/** Remove every comment of a space (its change requests' too) with their replies: the space is being purged. */
export function removeSpaceComments(ctx: Context, spaceId: string): void {
  const changeRequests = new Set<string>()
  for (const { row } of ctx.tx.scan('comments', 'bySpace', spaceId)) {
    removeComment(ctx, row)
    if (row.changeRequest) changeRequests.add(row.changeRequest)
  }
  for (const changeRequest of changeRequests) syncCommentCounter(ctx, { space: spaceId, changeRequest })
}

export function postReply(ctx: Context, comment: CommentRow, input: z.output<typeof PostCommentReplySchema>): CommentReplyRow {
  const row: CommentReplyRow = {
    id: ctx.newId(),
    comment: comment.id,
    space: comment.space,
    postedBy: ctx.actor.user,
    postedAt: ctx.nowIso(),
    body: bodyOf(input.body, 'body'),
    reactions: [],
  }
  if (comment.changeRequest) row.changeRequest = comment.changeRequest
  return ctx.tx.insert('commentReplies', row)
}

/** Edit a reply's body (its author only) and react to it, as for a comment. */
export function updateReply(ctx: Context, reply: CommentReplyRow, input: z.output<typeof UpdateCommentReplySchema>): CommentReplyRow {
  if (input.body !== undefined && reply.postedBy !== ctx.actor.user) throw ONLY_AUTHOR_EDITS('reply')
  const body = input.body === undefined ? undefined : bodyOf(input.body, 'body')
  const now = ctx.nowIso()
  const reactions = applyReactions(reply.reactions, ctx.actor.user, now, input.addedReactions, input.removedReactions)
  const next: CommentReplyRow = { ...reply }
  let changed = false
  if (body) {
    next.body = body
    next.editedAt = now
    changed = true
  }
  if (!sameReactions(reactions, reply.reactions)) {
    next.reactions = reactions
    changed = true
  }
  return changed ? ctx.tx.update('commentReplies', next) : reply
}

/** Delete a reply (its author or a space admin); false when there was none. */
export function deleteReply(ctx: Context, reply: CommentReplyRow | undefined): boolean {
  if (!reply) return false
  if (!mayDelete(ctx, reply)) throw new ApiError('FORBIDDEN', 'Only the author of a reply or an admin of the space can delete it')
  ctx.tx.delete('commentReplies', reply.id)
  return true
}
