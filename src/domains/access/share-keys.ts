import type { AppSchema } from '../schema.js'
import type { ReadTx } from '../../storage/port.js'
import type { SiteRow } from '../sites/rows.js'

/**
 * The site a share key opens: the site of an active link with that key, while the site's
 * visibility is `share-link` (links can exist on any site; only such a site opens to them).
 * Whether the site is published is the caller's question: its members see it unpublished. Kept
 * under access, not in share-links: space levels (levels.ts) and sites' URLs (sites/urls.ts) ask
 * it, and the share-links area sits above both.
 */
export function siteOpenedByKey(tx: ReadTx<AppSchema>, key: string): SiteRow | undefined {
  const link = tx.scan('shareLinks', 'byKey', key, { limit: 1 })[0]?.row
  if (!link || !link.active) return undefined
  const site = tx.get('sites', link.site)
  return site?.visibility === 'share-link' ? site : undefined
}
