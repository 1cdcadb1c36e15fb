import type { ReadContext } from '../context.js'
import { indexSource, paginateScan, type Page, type PageQuery } from '../../core/paging.js'
import type { Entry } from '../../storage/port.js'
import type { SiteRow } from './rows.js'
import type { SiteType } from './rows.js'

export interface SiteFilters {
  /** Only sites publishing this space. */
  space?: string | undefined
  /** Case-insensitive part of the title. */
  title?: string | undefined
  published?: boolean | undefined
  type?: readonly SiteType[] | undefined
}

/**
 * The sites of an organization in creation order, filtered. Without filters a page is read
 * straight from the index; with `space`, only the sites holding that space are looked at
 * (through the site-spaces of the space).
 */
export function listSites(ctx: ReadContext, organization: string, query: PageQuery & SiteFilters): Page<Entry<SiteRow>> {
  const title = query.title?.toLowerCase()
  const withSpace = query.space !== undefined ? new Set(ctx.tx.scan('siteSpaces', 'bySpace', query.space).map((e) => e.row.site)) : undefined
  const filtered = title !== undefined || query.published !== undefined || query.type !== undefined || withSpace !== undefined
  const filter = (site: SiteRow): boolean =>
    (withSpace === undefined || withSpace.has(site.id)) &&
    (title === undefined || site.title.toLowerCase().includes(title)) &&
    (query.published === undefined || site.published === query.published) &&
    (query.type === undefined || query.type.includes(site.type))
  return paginateScan(indexSource(ctx.tx, 'sites', 'byOrganization', organization), query, filtered ? filter : undefined)
}
