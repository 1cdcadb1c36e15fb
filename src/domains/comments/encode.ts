import type { ReadContext } from '../context.js'
import type { CommentReaction, CommentReplyRow, CommentRow } from './rows.js'
import type { DocumentFormat } from '../content/encode.js'
import { emailScopeOfSpace, encodeUser } from '../users/encode.js'
import { encodeBody } from './body.js'
import { commentPermissions } from './permissions.js'
import { commentPath } from './thread.js'

/**
 * A user by id as the API shows one within a space (a user since removed shows as "Unknown user"),
 * without the email for a caller who reads no member's email there (a guest: see encodeUser).
 */
function user(ctx: ReadContext, id: string, space: string) {
  return encodeUser(ctx, ctx.tx.get('users', id) ?? { id, displayName: 'Unknown user', emailVerified: false }, emailScopeOfSpace(ctx, space))
}

const encodeReactions = (ctx: ReadContext, reactions: readonly CommentReaction[], space: string) =>
  reactions.map((r) => ({ emoji: r.emoji, count: r.users.length, users: r.users.map((u) => ({ user: user(ctx, u.user, space), reactedAt: u.reactedAt })) }))

/** Who replied to a comment: each author once, in the order of their first reply, with their count and latest activity. */
function repliers(ctx: ReadContext, replies: readonly CommentReplyRow[], space: string) {
  const by = new Map<string, { count: number; updatedAt: string }>()
  for (const r of replies) {
    const at = r.editedAt !== undefined && r.editedAt > r.postedAt ? r.editedAt : r.postedAt
    const seen = by.get(r.postedBy)
    if (!seen) by.set(r.postedBy, { count: 1, updatedAt: at })
    else by.set(r.postedBy, { count: seen.count + 1, updatedAt: at > seen.updatedAt ? at : seen.updatedAt })
  }
  return [...by].map(([id, { count, updatedAt }]) => ({ updatedAt, count, user: user(ctx, id, space) }))
}

export function encodeComment(ctx: ReadContext, row: CommentRow, format?: DocumentFormat) {
  const replies = ctx.tx.scan('commentReplies', 'byComment', row.id).map((e) => e.row)
  const target = row.target
  return {
    object: 'comment' as const,
    id: row.id,
    postedBy: user(ctx, row.postedBy, row.space),
    postedAt: row.postedAt,
    ...(row.editedAt !== undefined && { editedAt: row.editedAt }),
    reactions: encodeReactions(ctx, row.reactions, row.space),
    replies: replies.length,
    repliers: repliers(ctx, replies, row.space),
    body: encodeBody(ctx, row.body, format),
    target: {
      space: row.space,
      revision: target.revision,
      ...(row.changeRequest !== undefined && { changeRequest: row.changeRequest }),
      ...(target.page !== undefined && { page: { id: target.page } }),
      ...(target.node !== undefined && { node: { id: target.node } }),
      ...(target.tableCell !== undefined && { tableCell: { record: target.tableCell.record, definition: target.tableCell.definition } }),
    },
    urls: { location: ctx.urls.api(commentPath(row, row.id)) },
    permissions: commentPermissions(ctx, row),
    status: row.status,
    ...(row.status === 'resolved' && row.resolvedAt !== undefined && { resolvedAt: row.resolvedAt }),
    ...(row.status === 'resolved' && row.resolvedBy !== undefined && { resolvedBy: user(ctx, row.resolvedBy, row.space) }),
  }
}

export function encodeReply(ctx: ReadContext, row: CommentReplyRow, format?: DocumentFormat) {
  return {
    object: 'comment-reply' as const,
    id: row.id,
    postedBy: user(ctx, row.postedBy, row.space),
    postedAt: row.postedAt,
    ...(row.editedAt !== undefined && { editedAt: row.editedAt }),
    reactions: encodeReactions(ctx, row.reactions, row.space),
    body: encodeBody(ctx, row.body, format),
    urls: { location: ctx.urls.api(`${commentPath(row, row.comment)}/replies/${row.id}`) },
    permissions: commentPermissions(ctx, row),
  }
}
