import type { ReadTx } from '../../storage/port.js'
import type { AppSchema } from '../schema.js'
import type { RevisionRow } from './rows.js'
import { pageIn } from './revision.js'

/**
 * How many children of each parent hold each slug, per revision: what the slug checks of content
 * edits ask ("is this slug taken among the siblings?"). Reading it from the rows costs a read of
 * every sibling (1,000 of them in a flat space of 1,000 pages); kept here, a revision's counts are
 * worked out once per parent, and a draft hands the counts of the revision it commits down to that
 * revision (content/draft.ts), so a chain of edits never reads the siblings again. Revisions are
 * immutable, so counts kept for a revision row stay right; kept weakly by the frozen row.
 */
export type SlugCounts = ReadonlyMap<string, number>

/** The key of a parent: a page id, or the root. */
export const parentKey = (parent: string | undefined): string => parent ?? '\u0000root'

const byRevision = new WeakMap<RevisionRow, Map<string, SlugCounts>>()

/** The slug counts of `parent`'s children in `rev` (read once per revision and parent). */
export function revisionSlugs(tx: ReadTx<AppSchema>, rev: RevisionRow, parent: string | undefined): SlugCounts {
  let perParent = byRevision.get(rev)
  const key = parentKey(parent)
  const known = perParent?.get(key)
  if (known) return known
  const counts = new Map<string, number>()
  const children = parent === undefined ? rev.rootPages : (pageIn(tx, rev, parent)?.children ?? [])
  for (const id of children) {
    const slug = pageIn(tx, rev, id)?.slug
    if (slug !== undefined) counts.set(slug, (counts.get(slug) ?? 0) + 1)
  }
  if (Object.isFrozen(rev)) {
    if (!perParent) byRevision.set(rev, (perParent = new Map()))
    perParent.set(key, counts)
  }
  return counts
}

/** Keep counts worked out for a new revision (a draft's, when it commits). */
export function keepRevisionSlugs(rev: RevisionRow, counts: ReadonlyMap<string, SlugCounts>): void {
  if (counts.size > 0 && Object.isFrozen(rev)) byRevision.set(rev, new Map(counts))
}
