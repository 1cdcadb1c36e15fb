import type { RevisionRow } from './rows.js'

/**
 * A revision's redirects (RevisionRow.redirects: a Git Sync import reads them from
 * `.gitbook.yaml`): paths under the space's published URL leading to its pages. Sources are
 * kept as written (less their leading and trailing slashes) and compared as published URLs are:
 * decoded, and case-insensitively (as site redirects' sources, site-redirects/source.ts).
 */

export type Redirects = NonNullable<RevisionRow['redirects']>

/** A source as stored: no leading or trailing slash; '' for one naming nothing (the space's own URL has its first page). */
export const redirectSource = (source: string): string => source.trim().replace(/^\/+|\/+$/g, '')

/** The key a source or a URL's page path is looked up by: decoded where it decodes, lower-cased. */
export function redirectKey(path: string): string {
  let decoded = redirectSource(path)
  try {
    decoded = decodeURIComponent(decoded)
  } catch {
    // A stray `%` stays as written.
  }
  return decoded.toLowerCase()
}

/** Whether two revisions' redirects say the same (rows read back from storage are equal, not the same object). */
export function sameRedirects(a: RevisionRow['redirects'], b: RevisionRow['redirects']): boolean {
  if (a === b) return true
  const ea = Object.entries(a ?? {})
  const eb = b ?? {}
  return ea.length === Object.keys(eb).length && ea.every(([source, page]) => Object.hasOwn(eb, source) && eb[source] === page)
}

/** Lookup tables by redirects record: revision rows are immutable and share the record while it does not change. */
const tables = new WeakMap<Redirects, Map<string, string>>()

/** The page a path of the space's published URL is redirected to, or undefined. O(1) once the revision's table is built. */
export function redirectedPage(rev: RevisionRow, path: string): string | undefined {
  const redirects = rev.redirects
  if (redirects === undefined) return undefined
  let table = tables.get(redirects)
  if (!table) {
    table = new Map()
    // The first source written wins among those that differ only in case.
    for (const [source, page] of Object.entries(redirects)) if (!table.has(redirectKey(source))) table.set(redirectKey(source), page)
    tables.set(redirects, table)
  }
  return table.get(redirectKey(path))
}
