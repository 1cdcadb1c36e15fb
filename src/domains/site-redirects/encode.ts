import type { SiteRedirectRow } from './rows.js'

/** The official SiteRedirect of a row (`updatedAt` only once it was changed). */
export function encodeRedirect(row: SiteRedirectRow) {
  return {
    object: 'site-redirect' as const,
    id: row.id,
    source: row.source,
    draft: row.draft,
    captureWildcard: row.captureWildcard,
    permanent: row.permanent,
    destination: row.destination,
    createdAt: row.createdAt,
    ...(row.updatedAt !== undefined && { updatedAt: row.updatedAt }),
  }
}
