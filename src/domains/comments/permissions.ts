import type { ReadContext } from '../context.js'
import type { CommentReplyRow, CommentRow } from './rows.js'
import type { COMMENT_PERMISSION_KEYS } from './schemas.js'

/**
 * Who may do what with a comment or reply, from the policy table (POLICY.space): `viewComments`
 * reads, `comment` posts, replies and reacts, and lets an author edit and delete what they
 * posted (and resolve their own comment); `moderateComments` (admins) resolves and deletes
 * anyone's. Editing a body is the author's alone. The `permissions` booleans answer the same.
 */
type Posted = Pick<CommentRow | CommentReplyRow, 'space' | 'postedBy'>

const level = (ctx: ReadContext, row: Posted) => ctx.access.level('space', row.space)
const can = (ctx: ReadContext, row: Posted, action: 'viewComments' | 'comment' | 'moderateComments') => ctx.access.allows('space', level(ctx, row), action)
const isAuthor = (ctx: ReadContext, row: Posted) => row.postedBy === ctx.actor.user

/** The author, still able to comment, edits their own body. */
export const mayEdit = (ctx: ReadContext, row: Posted): boolean => isAuthor(ctx, row) && can(ctx, row, 'comment')
export const mayDelete = (ctx: ReadContext, row: Posted): boolean => mayEdit(ctx, row) || can(ctx, row, 'moderateComments')
export const mayResolve = mayDelete

export function commentPermissions(ctx: ReadContext, row: Posted): Record<(typeof COMMENT_PERMISSION_KEYS)[number], boolean> {
  return {
    view: can(ctx, row, 'viewComments'),
    edit: mayEdit(ctx, row),
    reply: can(ctx, row, 'comment'),
    delete: mayDelete(ctx, row),
  }
}
