import { z } from 'zod'
import { listOrder, listQuery } from '../../core/paging.js'
import { TimestampSchema, UserSchema, permissionsSchema } from '../common/schemas.js'
import { DocumentFormatSchema, JsonDocumentSchema } from '../content/schemas.js'

/** The `permissions` of a comment or reply (official keys); see permissions.ts for what each needs. */
export const COMMENT_PERMISSION_KEYS = ['view', 'edit', 'reply', 'delete'] as const

/**
 * A body as posted: exactly one of `{markdown}` or `{document}` (the official `Document` less its
 * third, empty alternative: a comment says something), with some text or at least one block.
 */
export const CommentBodyInputSchema = z
  .union([z.strictObject({ markdown: z.string().max(1_000_000, 'must be at most 1000000 characters') }), z.strictObject({ document: JsonDocumentSchema })], {
    error: 'must be {"markdown": "..."} or {"document": {...}}, exactly one of the two',
  })
  .refine((b) => ('markdown' in b ? b.markdown.trim() !== '' : b.document.nodes.length > 0), {
    message: 'must not be empty: give {"markdown": "..."} with some text, or {"document": {...}} with at least one block',
  })

/** A body as answered: markdown or a document, by `format` (the posted form without one). */
export const CommentBodySchema = z.union([z.object({ markdown: z.string() }), z.object({ document: JsonDocumentSchema })])

/** An emoji reaction as given: one emoji (a pictograph, a flag, a keycap, with its modifiers), at most 50 characters. */
const EMOJI = /^(?=.*(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3))[\p{Extended_Pictographic}\p{Emoji_Component}\u20E3]+$/u
export const ReactionInputSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(50, 'must be at most 50 characters')
  .refine((s) => EMOJI.test(s), { message: 'must be an emoji (e.g. "👍")' })

const Reactions = z.array(ReactionInputSchema).max(50, 'must hold at most 50 reactions')

export const TableCellSchema = z.object({
  record: z.string().min(1, 'must not be empty'),
  definition: z.string().min(1, 'must not be empty'),
})

export const PostCommentSchema = z.object({
  body: CommentBodyInputSchema,
  page: z
    .string()
    .min(1, 'must not be empty')
    .optional()
    .meta({ description: 'The page the comment is about (a page of the content the comment is posted on).' }),
  node: z.string().min(1, 'must not be empty').optional().meta({ description: 'The key of a node of `page` the comment is attached to (needs `page`).' }),
  tableCell: TableCellSchema.optional().meta({ description: 'A cell of the table block `node` names (needs `node`).' }),
})

export const PostCommentReplySchema = z.object({ body: CommentBodyInputSchema })

/**
 * A comment's update. Every field is optional and an empty body changes nothing; `resolved` and
 * `body` need the right to resolve or edit (see handlers), reactions only the right to reply.
 */
export const UpdateCommentSchema = z.object({
  resolved: z
    .boolean()
    .optional()
    .meta({ description: 'true resolves the comment (`resolvedAt`, `resolvedBy` set); false reopens it. Its author and space admins.' }),
  body: CommentBodyInputSchema.optional().meta({ description: 'A new body: only the author edits (`editedAt` set).' }),
  addedReactions: Reactions.optional().meta({ description: 'Emojis the caller reacts with (their own reaction; once per emoji).' }),
  removedReactions: Reactions.optional().meta({ description: 'Emojis whose reaction by the caller is withdrawn.' }),
})

/** A reply's update: as a comment's, without `resolved` (a reply has no status; the key is ignored). */
export const UpdateCommentReplySchema = UpdateCommentSchema.omit({ resolved: true })

const format = DocumentFormatSchema.optional().meta({ description: 'Answer bodies as `markdown` or `document` (default: the form each was posted in).' })
export const FormatQuerySchema = z.object({ format })

/** `authors` is a list (repeated keys `authors=a&authors=b`, decoded by the HTTP codec; one value is a list of one). */
const authors = z
  .array(z.string().min(1, 'must not be empty'))
  .max(100, 'must name at most 100 users')
  .optional()
  .meta({ description: 'Only comments posted by these users (repeat the parameter for several).' })

export const ListCommentsQuerySchema = listQuery.extend({
  order: listOrder.meta({ description: 'By `postedAt`: `desc` (default, newest first) or `asc`.' }),
  status: z.enum(['all', 'open', 'resolved'], { error: 'must be all, open or resolved' }).default('all'),
  targetPage: z.string().min(1, 'must not be empty').optional().meta({ description: 'Only comments about this page.' }),
  authors,
  format,
})

export const ListRepliesQuerySchema = listQuery.extend({ format })

const ReactionSchema = z.object({
  emoji: z.string(),
  count: z.number(),
  users: z.array(z.object({ user: UserSchema, reactedAt: TimestampSchema })),
})

const common = {
  id: z.string(),
  postedBy: UserSchema,
  postedAt: TimestampSchema,
  editedAt: TimestampSchema.optional(),
  reactions: z.array(ReactionSchema),
  body: CommentBodySchema,
  urls: z.object({ location: z.string() }),
  permissions: permissionsSchema(COMMENT_PERMISSION_KEYS),
}

export const CommentSchema = z
  .object({
    object: z.literal('comment'),
    ...common,
    replies: z.number(),
    repliers: z.array(z.object({ updatedAt: TimestampSchema, count: z.number(), user: UserSchema })),
    target: z.object({
      space: z.string(),
      revision: z.string(),
      changeRequest: z.string().optional(),
      page: z.object({ id: z.string() }).optional(),
      node: z.object({ id: z.string() }).optional(),
      tableCell: TableCellSchema.optional(),
    }),
    status: z.enum(['open', 'resolved']),
    resolvedAt: TimestampSchema.optional(),
    resolvedBy: UserSchema.optional(),
  })
  .meta({ id: 'Comment' })

export const CommentReplySchema = z.object({ object: z.literal('comment-reply'), ...common }).meta({ id: 'CommentReply' })
