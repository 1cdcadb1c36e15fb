import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'
import { readOnly } from '../common/rows.js'
import { CommentBodyInputSchema, ReactionInputSchema, TableCellSchema } from './schemas.js'

/**
 * The rows the comments area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

/** A comment's or reply's body, kept in the form it was posted in (`format` converts it when read). */
export type CommentBody = z.output<typeof CommentBodyInputSchema>

/** One emoji's reactions: who reacted with it (each user once) and when, in reaction order. */
const CommentReactionSchema = z.strictObject({
  emoji: ReactionInputSchema,
  users: readOnly(z.array(z.strictObject({ user: SeedIdSchema, reactedAt: SeedTimestampSchema })).min(1, 'must hold at least 1 user')),
})
export type CommentReaction = z.output<typeof CommentReactionSchema>

const ReactionsSchema = readOnly(z.array(CommentReactionSchema))

/**
 * A comment on a space's main content, or in a change request (`changeRequest`). Deleting a
 * comment removes its row and its replies'; `comments` counters on the space and the change
 * request count the open ones of each (see domains/comments/counters.ts).
 */
export const CommentRowSchema = z.strictObject({
  id: SeedIdSchema,
  space: SeedIdSchema,
  changeRequest: SeedIdSchema.optional(),
  postedBy: SeedIdSchema,
  postedAt: SeedTimestampSchema,
  editedAt: SeedTimestampSchema.optional(),
  body: CommentBodyInputSchema,
  /** Where the comment points: the revision it was posted on, and optionally a page, a node of it, a table cell of that node. */
  target: z.strictObject({
    revision: SeedIdSchema,
    page: SeedIdSchema.optional(),
    node: z.string().min(1).optional(),
    tableCell: TableCellSchema.optional(),
  }),
  status: z.enum(['open', 'resolved']),
  resolvedAt: SeedTimestampSchema.optional(),
  resolvedBy: SeedIdSchema.optional(),
  reactions: ReactionsSchema,
})
export type CommentRow = z.output<typeof CommentRowSchema>

/** A reply to a comment (in the comment's space and change request). */
export const CommentReplyRowSchema = z.strictObject({
  id: SeedIdSchema,
  comment: SeedIdSchema,
  space: SeedIdSchema,
  changeRequest: SeedIdSchema.optional(),
  postedBy: SeedIdSchema,
  postedAt: SeedTimestampSchema,
  editedAt: SeedTimestampSchema.optional(),
  body: CommentBodyInputSchema,
  reactions: ReactionsSchema,
})
export type CommentReplyRow = z.output<typeof CommentReplyRowSchema>

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
