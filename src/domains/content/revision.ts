import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { ReadTx } from '../../storage/port.js'
import type { AppSchema } from '../schema.js'
import type { PageVersionRow, RevisionRow } from './rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import { indexGet } from './tree-index.js'

/**
 * Reading a revision: its row (a space's first revision, before any content was merged, has no
 * row: it is the empty revision, made on the fly from the space), its pages by id and by path,
 * and its page tree.
 */

const EMPTY: readonly string[] = Object.freeze([])
const NO_VARIABLES: Readonly<Record<string, string>> = Object.freeze({})

/** The empty revision a new space starts with (never stored: creating a space writes no content rows). */
export function emptyRevision(space: SpaceRow, id = space.revision): RevisionRow {
  return {
    id,
    space: space.id,
    parents: EMPTY,
    type: 'edits',
    createdAt: space.createdAt,
    rootPages: EMPTY,
    buckets: EMPTY,
    files: EMPTY,
    variables: NO_VARIABLES,
  }
}

/** A revision of the space by id (its current one included, stored or not), or undefined. */
export function findRevision(tx: ReadTx<AppSchema>, space: SpaceRow, id: string): RevisionRow | undefined {
  const row = tx.get('revisions', id)
  if (row) return row.space === space.id ? row : undefined
  return id === space.revision ? emptyRevision(space) : undefined
}

export function requireRevision(ctx: ReadContext, space: SpaceRow, id: string): RevisionRow {
  const row = findRevision(ctx.tx, space, id)
  if (!row) throw new ApiError('NOT_FOUND', 'Revision not found')
  return row
}

/**
 * A revision a caller asked for by id. One made for a change request (its content edits, its
 * updates from main) is work in progress: only callers who may view change requests
 * (`viewChangeRequests`) read it; for anyone else, visitors of a public space included, it does
 * not exist (404). Main's revisions, old ones included, follow the space's `view`.
 */
export function requireReadableRevision(ctx: ReadContext, space: SpaceRow, id: string): RevisionRow {
  const row = requireRevision(ctx, space, id)
  if (row.changeRequest !== undefined && !ctx.access.can('space', space.id, 'viewChangeRequests')) throw new ApiError('NOT_FOUND', 'Revision not found')
  return row
}

/** The space's main content. */
export const mainRevision = (ctx: ReadContext, space: SpaceRow): RevisionRow => requireRevision(ctx, space, space.revision)

/** A page of a revision by id: two reads, whatever the revision's size. */
export function pageIn(tx: ReadTx<AppSchema>, rev: RevisionRow, pageId: string): PageVersionRow | undefined {
  const version = indexGet(tx, rev.buckets, pageId)
  return version === undefined ? undefined : tx.get('pageVersions', version)
}

export function requirePage(ctx: ReadContext, rev: RevisionRow, pageId: string): PageVersionRow {
  const page = pageIn(ctx.tx, rev, pageId)
  if (!page) throw new ApiError('NOT_FOUND', 'Page not found')
  return page
}

/** A page's path: its ancestors' slugs and its own, joined with `/` (O(depth)). */
export function pagePath(tx: ReadTx<AppSchema>, rev: RevisionRow, page: PageVersionRow): string {
  const slugs = [page.slug]
  for (let p = page.parent; p !== undefined;) {
    const parent = pageIn(tx, rev, p)
    if (!parent) break
    slugs.push(parent.slug)
    p = parent.parent
  }
  return slugs.reverse().join('/')
}

/** The children of a page, or the root pages. */
export function childrenOf(tx: ReadTx<AppSchema>, rev: RevisionRow, parent: PageVersionRow | undefined): PageVersionRow[] {
  const ids = parent ? parent.children : rev.rootPages
  const out: PageVersionRow[] = []
  for (const id of ids) {
    const page = pageIn(tx, rev, id)
    if (page) out.push(page)
  }
  return out
}

/**
 * A page by path: slugs walked down from the root. A path may come with its slashes raw or
 * percent-encoded, with a leading or trailing slash: all name the same page.
 */
export function pageByPath(tx: ReadTx<AppSchema>, rev: RevisionRow, path: string): PageVersionRow | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return undefined
  }
  const slugs = decoded.split('/').filter((s) => s !== '')
  if (slugs.length === 0) return undefined
  let current: PageVersionRow | undefined
  for (const slug of slugs) {
    current = childrenOf(tx, rev, current).find((p) => p.slug === slug)
    if (!current) return undefined
  }
  return current
}

/** Every page of a revision in tree order (depth first), with its depth. */
export function walkPages(tx: ReadTx<AppSchema>, rev: RevisionRow): Array<{ page: PageVersionRow; depth: number }> {
  const out: Array<{ page: PageVersionRow; depth: number }> = []
  const visit = (pages: PageVersionRow[], depth: number) => {
    for (const page of pages) {
      out.push({ page, depth })
      visit(childrenOf(tx, rev, page), depth + 1)
    }
  }
  visit(childrenOf(tx, rev, undefined), 0)
  return out
}
