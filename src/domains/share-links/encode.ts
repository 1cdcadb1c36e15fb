import type { ReadContext } from '../context.js'
import type { ShareLinkRow } from './rows.js'
import type { SiteRow } from '../sites/rows.js'
import { publishedUrl } from '../sites/urls.js'

/**
 * The API resource of a share link. `urls.published` always carries the link's key, whatever the
 * site's visibility or state: that URL is what a link exists to hand out.
 */
export function encodeShareLink(ctx: ReadContext, site: SiteRow, row: ShareLinkRow) {
  return {
    object: 'share-link' as const,
    id: row.id,
    createdAt: row.createdAt,
    name: row.name,
    active: row.active,
    urls: { published: publishedUrl(ctx, site, [], row.key) },
  }
}
