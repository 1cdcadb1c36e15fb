import type { JsonDocument } from '../content/document.js'
import { collection } from '../../storage/port.js'

/**
 * The rows the comments area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 */

/** A comment's or reply's body, kept in the form it was posted in (`format` converts it when read). */
export type CommentBody = { markdown: string } | { document: JsonDocument }

/** One emoji's reactions: who reacted with it (each user once) and when, in reaction order. */
export interface CommentReaction {
  emoji: string
  users: ReadonlyArray<{ user: string; reactedAt: string }>
}

/**
 * A comment on a space's main content, or in a change request (`changeRequest`). Deleting a
 * comment removes its row and its replies'; `comments` counters on the space and the change
 * request count the open ones of each (see domains/comments/counters.ts).
 */
export interface CommentRow {
  id: string
  space: string
  changeRequest?: string
  postedBy: string
  postedAt: string
  editedAt?: string
  body: CommentBody
  /** Where the comment points: the revision it was posted on, and optionally a page, a node of it, a table cell of that node. */
  target: { revision: string; page?: string; node?: string; tableCell?: { record: string; definition: string } }
  status: 'open' | 'resolved'
  resolvedAt?: string
  resolvedBy?: string
  reactions: readonly CommentReaction[]
}

/** A reply to a comment (in the comment's space and change request). */
export interface CommentReplyRow {
  id: string
  comment: string
  space: string
  changeRequest?: string
  postedBy: string
  postedAt: string
  editedAt?: string
  body: CommentBody
  reactions: readonly CommentReaction[]
}

/** The thread a comment belongs to: a change request's (`cr:<id>`) or its space's own (`space:<id>`). */
export const commentThread = (c: { space: string; changeRequest?: string }): string => (c.changeRequest ? `cr:${c.changeRequest}` : `space:${c.space}`)

/** The collections the comments area stores, with their indexes. */
export const commentsCollections = {
  comments: collection<CommentRow>({
    /** A thread's comments (`commentThread`), in posting order. */
    byThread: { key: commentThread },
    /** `${thread}/${status}`: the status filter, and the open counters in O(1). */
    byThreadStatus: { key: (c) => `${commentThread(c)}/${c.status}` },
    /** Every comment of a space, its change requests' included: purged with the space. */
    bySpace: { key: (c) => c.space },
  }),
  /** Replies of a comment, in posting order. */
  commentReplies: collection<CommentReplyRow>({ byComment: { key: (r) => r.comment } }),
}
