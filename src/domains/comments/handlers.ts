import type { Context, ReadContext } from '../context.js'
import { implement } from '../context.js'
import { NO_CONTENT } from '../../core/operation.js'
import { indexSource, mapPage, paginateScan } from '../../core/paging.js'
import { encodeMember } from '../members/encode.js'
import { encodeComment, encodeReply } from './encode.js'
import { prepareCommentBody } from './body.js'
import { commentersPage, commentsPage } from './list.js'
import { deleteComment, deleteReply, postComment, postReply, updateComment, updateReply } from './model.js'
import { commentOperations } from './operations.js'
import { changeRequestThread, findComment, findReply, requireComment, requireReply, spaceThread, type Thread } from './thread.js'

/**
 * The same use-cases serve a space's own thread and a change request's: each handler resolves
 * its thread from the path, then shares the code below.
 */
type P = { spaceId: string; changeRequestId?: string }
const threadOf = (ctx: ReadContext, p: P): Thread =>
  p.changeRequestId === undefined ? spaceThread(ctx, p.spaceId) : changeRequestThread(ctx, p.spaceId, p.changeRequestId)
const commentOf = (ctx: ReadContext, p: P & { commentId: string }) => requireComment(ctx, threadOf(ctx, p), p.commentId)

const use = {
  list: (ctx: ReadContext, params: P, query: Parameters<typeof commentsPage>[2]) =>
    mapPage(commentsPage(ctx, threadOf(ctx, params), query), (e) => encodeComment(ctx, e.row, query.format)),
  post: (ctx: Context, params: P, body: Parameters<typeof postComment>[2]) => encodeComment(ctx, postComment(ctx, threadOf(ctx, params), body)),
  get: (ctx: ReadContext, params: P & { commentId: string }, query: { format?: 'document' | 'markdown' | undefined }) =>
    encodeComment(ctx, commentOf(ctx, params), query.format),
  update: (ctx: Context, params: P & { commentId: string }, body: Parameters<typeof updateComment>[2]) =>
    encodeComment(ctx, updateComment(ctx, commentOf(ctx, params), body)),
  // The thread must exist (404); the comment may not (204, nothing deleted).
  delete: (ctx: Context, params: P & { commentId: string }) =>
    deleteComment(ctx, findComment(ctx, threadOf(ctx, params), params.commentId)) ? undefined : NO_CONTENT,
  listReplies: (
    ctx: ReadContext,
    params: P & { commentId: string },
    query: Parameters<typeof paginateScan>[1] & { format?: 'document' | 'markdown' | undefined },
  ) => {
    const comment = commentOf(ctx, params)
    return mapPage(paginateScan(indexSource(ctx.tx, 'commentReplies', 'byComment', comment.id), query), (e) => encodeReply(ctx, e.row, query.format))
  },
  postReply: (ctx: Context, params: P & { commentId: string }, body: Parameters<typeof postReply>[2], format?: 'document' | 'markdown') =>
    encodeReply(ctx, postReply(ctx, commentOf(ctx, params), body), format),
  getReply: (ctx: ReadContext, params: P & { commentId: string; commentReplyId: string }, query: { format?: 'document' | 'markdown' | undefined }) =>
    encodeReply(ctx, requireReply(ctx, commentOf(ctx, params), params.commentReplyId), query.format),
  updateReply: (ctx: Context, params: P & { commentId: string; commentReplyId: string }, body: Parameters<typeof updateReply>[2]) =>
    encodeReply(ctx, updateReply(ctx, requireReply(ctx, commentOf(ctx, params), params.commentReplyId), body)),
  // The comment is a parent in the path: a missing one is a 404; a missing reply is a 204.
  deleteReply: (ctx: Context, params: P & { commentId: string; commentReplyId: string }) =>
    deleteReply(ctx, findReply(ctx, commentOf(ctx, params), params.commentReplyId)) ? undefined : NO_CONTENT,
  commenters: (ctx: ReadContext, params: P, query: Parameters<typeof commentersPage>[2]) =>
    mapPage(commentersPage(ctx, threadOf(ctx, params), query), (m) => encodeMember(ctx, m.member)),
}

export const commentHandlers = implement(
  commentOperations,
  {
    listCommentsInSpace: (ctx, { params, query }) => use.list(ctx, params, query),
    postCommentInSpace: (ctx, { params, body }) => use.post(ctx, params, body),
    getCommentInSpace: (ctx, { params, query }) => use.get(ctx, params, query),
    updateCommentInSpace: (ctx, { params, body }) => use.update(ctx, params, body),
    deleteCommentInSpace: (ctx, { params }) => use.delete(ctx, params),
    listCommentRepliesInSpace: (ctx, { params, query }) => use.listReplies(ctx, params, query),
    postCommentReplyInSpace: (ctx, { params, body }) => use.postReply(ctx, params, body),
    getCommentReplyInSpace: (ctx, { params, query }) => use.getReply(ctx, params, query),
    updateCommentReplyInSpace: (ctx, { params, body }) => use.updateReply(ctx, params, body),
    deleteCommentReplyInSpace: (ctx, { params }) => use.deleteReply(ctx, params),
    listCommentersInSpace: (ctx, { params, query }) => use.commenters(ctx, params, query),

    listCommentsInChangeRequest: (ctx, { params, query }) => use.list(ctx, params, query),
    postCommentInChangeRequest: (ctx, { params, body }) => use.post(ctx, params, body),
    getCommentInChangeRequest: (ctx, { params, query }) => use.get(ctx, params, query),
    updateCommentInChangeRequest: (ctx, { params, body }) => use.update(ctx, params, body),
    deleteCommentInChangeRequest: (ctx, { params }) => use.delete(ctx, params),
    listCommentRepliesInChangeRequest: (ctx, { params, query }) => use.listReplies(ctx, params, query),
    postCommentReplyInChangeRequest: (ctx, { params, query, body }) => use.postReply(ctx, params, body, query.format),
    getCommentReplyInChangeRequest: (ctx, { params, query }) => use.getReply(ctx, params, query),
    updateCommentReplyInChangeRequest: (ctx, { params, body }) => use.updateReply(ctx, params, body),
    deleteCommentReplyInChangeRequest: (ctx, { params }) => use.deleteReply(ctx, params),
    listCommentersInChangeRequest: (ctx, { params, query }) => use.commenters(ctx, params, query),
  },
  // Bodies are read before the transaction, off the event loop (body.ts), once what the path names is there.
  {
    postCommentInSpace: { requires: (ctx, { params }) => void threadOf(ctx, params), run: prepareCommentBody },
    updateCommentInSpace: { requires: (ctx, { params }) => void commentOf(ctx, params), run: prepareCommentBody },
    postCommentReplyInSpace: { requires: (ctx, { params }) => void commentOf(ctx, params), run: prepareCommentBody },
    updateCommentReplyInSpace: {
      requires: (ctx, { params }) => void requireReply(ctx, commentOf(ctx, params), params.commentReplyId),
      run: prepareCommentBody,
    },
    postCommentInChangeRequest: { requires: (ctx, { params }) => void threadOf(ctx, params), run: prepareCommentBody },
    updateCommentInChangeRequest: { requires: (ctx, { params }) => void commentOf(ctx, params), run: prepareCommentBody },
    postCommentReplyInChangeRequest: { requires: (ctx, { params }) => void commentOf(ctx, params), run: prepareCommentBody },
    updateCommentReplyInChangeRequest: {
      requires: (ctx, { params }) => void requireReply(ctx, commentOf(ctx, params), params.commentReplyId),
      run: prepareCommentBody,
    },
  },
)
