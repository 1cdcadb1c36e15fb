import type { z } from 'zod'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { CommentRow } from './rows.js'
import type { DocBlock, DocNode } from '../content/document.js'
import { findRevision, pageIn } from '../content/revision.js'
import type { PostCommentSchema } from './schemas.js'
import type { Thread } from './thread.js'

const bad = (field: string, rule: string): never => {
  throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: ${rule}`)
}

/** The node of a document whose `key` is `key`, anywhere in it (blocks, inlines, texts, fragments). */
function findNode(nodes: readonly DocNode[] | undefined, key: string): DocNode | undefined {
  for (const node of nodes ?? []) {
    if (node.key === key) return node
    if (node.object === 'text') continue
    const inner = findNode(node.nodes as DocNode[] | undefined, key)
    if (inner) return inner
    for (const fragment of (node as DocBlock).fragments ?? []) {
      const found = findNode(fragment.nodes, key)
      if (found) return found
    }
  }
  return undefined
}

const has = (map: unknown, key: string): boolean => typeof map === 'object' && map !== null && Object.hasOwn(map, key)

/**
 * What a new comment points at, checked against the content it is posted on (main's revision for
 * a space, the change request's for a change request): `page` must be a page of it, `node` the key
 * of a node of that page (so it needs `page`), `tableCell` a record and a column of the table
 * block `node` names (so it needs `node`). The revision is recorded with the target.
 */
export function targetOf(ctx: Context, thread: Thread, input: z.output<typeof PostCommentSchema>): CommentRow['target'] {
  const target: CommentRow['target'] = { revision: thread.revision }
  if (input.node !== undefined && input.page === undefined) bad('node', 'needs `page` (the page holding the node)')
  if (input.tableCell !== undefined && input.node === undefined) bad('tableCell', 'needs `node` (the table block holding the cell)')
  if (input.page === undefined) return target
  const where = thread.changeRequest ? "the change request's content" : "the space's content"
  const rev = findRevision(ctx.tx, thread.space, thread.revision)
  const page = rev && pageIn(ctx.tx, rev, input.page)
  if (!page) return bad('page', `no page "${input.page}" in ${where}`)
  target.page = page.page
  if (input.node === undefined) return target
  const node = findNode(page.document.nodes, input.node)
  if (!node) return bad('node', `no node with key "${input.node}" in page "${page.page}"`)
  target.node = input.node
  if (input.tableCell === undefined) return target
  if (node.object !== 'block' || node.type !== 'table') return bad('tableCell', `node "${input.node}" is not a table`)
  const { record, definition } = input.tableCell
  if (!has(node.data?.records, record)) bad('tableCell.record', `no record "${record}" in table "${input.node}"`)
  if (!has(node.data?.definition, definition)) bad('tableCell.definition', `no column "${definition}" in table "${input.node}"`)
  target.tableCell = { record, definition }
  return target
}
