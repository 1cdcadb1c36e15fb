import type { RevisionRow } from './rows.js'

/**
 * A revision's redirects (RevisionRow.redirects: a Git Sync import reads them from
 * `.gitbook.yaml`): paths under the space's published URL leading to its pages. Sources are
 * kept as written (less their leading and trailing slashes); published URL resolution compares them
 * as site redirects' sources are (published/space-redirects.ts).
 */

export type Redirects = NonNullable<RevisionRow['redirects']>

/** A source as stored: no leading or trailing slash; '' for one naming nothing (the space's own URL has its first page). */
export const redirectSource = (source: string): string => source.trim().replace(/^\/+|\/+$/g, '')

/** Whether two revisions' redirects say the same (rows read back from storage are equal, not the same object). */
export function sameRedirects(a: RevisionRow['redirects'], b: RevisionRow['redirects']): boolean {
  if (a === b) return true
  const ea = Object.entries(a ?? {})
  const eb = b ?? {}
  return ea.length === Object.keys(eb).length && ea.every(([source, page]) => Object.hasOwn(eb, source) && eb[source] === page)
}
