import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import { compareKeys, paginate, type PageQuery, type SortKey } from '../../core/paging.js'
import type { Entry } from '../../storage/port.js'
import type { CommentRow } from './rows.js'
import type { MemberRow } from '../members/rows.js'
import type { ListCommentsQuerySchema } from './schemas.js'
import type { Thread } from './thread.js'

type Query = z.output<typeof ListCommentsQuerySchema>

/**
 * A page of a thread's comments: one status (its own index key) or all, then the `targetPage` and
 * `authors` filters, ordered by `postedAt` (`desc` by default), posting order breaking ties. The
 * cursor is the sort key of the last comment served.
 */
export function commentsPage(ctx: ReadContext, thread: Thread, q: Query) {
  const entries = q.status === 'all' ? ctx.tx.scan('comments', 'byThread', thread.key) : ctx.tx.scan('comments', 'byThreadStatus', `${thread.key}/${q.status}`)
  const authors = q.authors && new Set(q.authors)
  const keyOf = (e: Entry<CommentRow>): SortKey => [e.row.postedAt, e.seq]
  const sign = q.order === 'asc' ? 1 : -1
  const rows = entries
    .filter((e) => (q.targetPage === undefined || e.row.target.page === q.targetPage) && (!authors || authors.has(e.row.postedBy)))
    .sort((a, b) => sign * compareKeys(keyOf(a), keyOf(b)))
  return paginate(rows, keyOf, q, q.order)
}

/**
 * The members of the space's organization who posted a comment or a reply in the thread, each
 * once, in the order of their first post (`postedAt`, then insertion order). Authors who are no
 * longer members are left out: the list is of organization members. The cursor is the sort key
 * of the last one served.
 */
export function commentersPage(ctx: ReadContext, thread: Thread, q: PageQuery) {
  const first = new Map<string, SortKey>()
  const note = (user: string, key: SortKey) => {
    const seen = first.get(user)
    if (seen === undefined || compareKeys(key, seen) < 0) first.set(user, key)
  }
  for (const comment of ctx.tx.scan('comments', 'byThread', thread.key)) {
    note(comment.row.postedBy, [comment.row.postedAt, comment.seq])
    for (const reply of ctx.tx.scan('commentReplies', 'byComment', comment.row.id)) note(reply.row.postedBy, [reply.row.postedAt, reply.seq])
  }
  const members: Array<{ member: MemberRow; key: SortKey }> = []
  for (const [user, key] of first) {
    const member = ctx.tx.get('members', `${thread.space.organization}/${user}`)
    if (member && ctx.tx.get('users', user)) members.push({ member, key })
  }
  members.sort((a, b) => compareKeys(a.key, b.key))
  return paginate(members, (m) => m.key, q)
}
