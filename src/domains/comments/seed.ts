import { markdownLibraries } from '../content/markdown-libs.js'
import { SeedTimestampSchema, seedRule, type SeedCheck } from '../../state/seed.js'
import { CommentReplyRowSchema, CommentRowSchema, type CommentReaction } from './rows.js'
import { unreadableBody } from './body.js'

/**
 * Comments and replies in a state document. A comment belongs to a space, or to a change request
 * of that space; a reply to a comment, in the comment's space and change request (both default to
 * the comment's). The `comments` counters of spaces and change requests are recounted from the
 * loaded comments (spaces/seed.ts, change-requests/seed.ts), whatever the document said.
 */
const commentRow = CommentRowSchema.shape

function checkReactions({ ctx, fail }: SeedCheck, reactions: readonly CommentReaction[]): void {
  const emojis = new Set<string>()
  reactions.forEach((r, i) => {
    if (emojis.has(r.emoji)) fail(`reactions.${i}.emoji`, `"${r.emoji}" is given twice`)
    emojis.add(r.emoji)
    const users = new Set<string>()
    r.users.forEach((u, j) => {
      if (!ctx.tx.get('users', u.user)) fail(`reactions.${i}.users.${j}.user`, `no user "${u.user}"`)
      if (users.has(u.user)) fail(`reactions.${i}.users.${j}.user`, `"${u.user}" reacts once per emoji`)
      users.add(u.user)
    })
  })
}

export const commentSeedRules = [
  seedRule({
    collection: 'comments',
    // A body is checked with unified and remark (body.ts).
    needs: [markdownLibraries],
    row: (d) =>
      CommentRowSchema.extend({
        postedAt: SeedTimestampSchema.default(d.now),
        target: commentRow.target.partial({ revision: true }).default({}),
        status: commentRow.status.default('open'),
        reactions: commentRow.reactions.default([]),
      })
        // The revision a comment was posted on defaults to the current one of its thread.
        .transform((c) => {
          const revision =
            c.target.revision ?? (c.changeRequest ? d.tx.get('changeRequests', c.changeRequest)?.revision : d.tx.get('spaces', c.space)?.revision) ?? ''
          const resolvedAt = c.status === 'resolved' ? (c.resolvedAt ?? c.postedAt) : c.resolvedAt
          return { ...c, target: { ...c.target, revision }, ...(resolvedAt !== undefined && { resolvedAt }) }
        }),
    check: (s, row) => {
      const { ctx, fail } = s
      if (!ctx.tx.get('spaces', row.space)) fail('space', `no space "${row.space}"`)
      if (row.changeRequest !== undefined && ctx.tx.get('changeRequests', row.changeRequest)?.space !== row.space) {
        fail('changeRequest', `no change request "${row.changeRequest}" in space "${row.space}"`)
      }
      if (!ctx.tx.get('users', row.postedBy)) fail('postedBy', `no user "${row.postedBy}"`)
      if (row.status === 'resolved' && row.resolvedBy === undefined) fail('resolvedBy', 'is required for a resolved comment')
      if (row.status === 'open' && (row.resolvedBy !== undefined || row.resolvedAt !== undefined))
        fail(row.resolvedBy !== undefined ? 'resolvedBy' : 'resolvedAt', 'is only for a resolved comment')
      if (row.resolvedBy !== undefined && !ctx.tx.get('users', row.resolvedBy)) fail('resolvedBy', `no user "${row.resolvedBy}"`)
      if (row.target.node !== undefined && row.target.page === undefined) fail('target.node', 'needs `target.page`')
      if (row.target.tableCell !== undefined && row.target.node === undefined) fail('target.tableCell', 'needs `target.node`')
      const unreadable = unreadableBody(row.body)
      if (unreadable) fail('body.document', unreadable)
      checkReactions(s, row.reactions)
    },
  }),
  seedRule({
    collection: 'commentReplies',
    needs: [markdownLibraries],
    row: (d) =>
      // The comment's space and change request when left out.
      CommentReplyRowSchema.partial({ space: true })
        .extend({ postedAt: SeedTimestampSchema.default(d.now), reactions: CommentReplyRowSchema.shape.reactions.default([]) })
        .transform((r) => {
          const comment = d.tx.get('comments', r.comment)
          const changeRequest = r.changeRequest ?? comment?.changeRequest
          return { ...r, space: r.space ?? comment?.space ?? '', ...(changeRequest !== undefined && { changeRequest }) }
        }),
    check: (s, row) => {
      const { ctx, fail } = s
      const comment = ctx.tx.get('comments', row.comment)
      if (!comment) return fail('comment', `no comment "${row.comment}"`)
      if (row.space !== comment.space) fail('space', `must be the comment's space "${comment.space}"`)
      if (row.changeRequest !== comment.changeRequest)
        fail(
          'changeRequest',
          comment.changeRequest ? `must be the comment's change request "${comment.changeRequest}"` : 'the comment is not in a change request',
        )
      if (!ctx.tx.get('users', row.postedBy)) fail('postedBy', `no user "${row.postedBy}"`)
      const unreadable = unreadableBody(row.body)
      if (unreadable) fail('body.document', unreadable)
      checkReactions(s, row.reactions)
    },
  }),
]
