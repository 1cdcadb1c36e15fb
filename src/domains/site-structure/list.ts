import type { ReadContext } from '../context.js'
import { paginate, type Page, type PageQuery, type SortKey } from '../../core/paging.js'
import type { SiteSectionGroupRow, SiteSectionRow, SiteSpaceRow } from './rows.js'
import { siteSpacesInOrder, walk } from './tree.js'

/**
 * Lists in structure order: depth-first through groups, each container in position order. A
 * cursor holds the sort key of the last item served (the positions from the site's root down to
 * it), so a page resumes right after that item even when items moved in between. A site's
 * structure is small (sections and site-spaces are added by hand), so it is walked whole.
 */

export function listSections(ctx: ReadContext, site: string, query: PageQuery): Page<SiteSectionRow> {
  const items: Array<{ row: SiteSectionRow; key: SortKey }> = []
  walk(ctx, site, (node, key) => {
    if (node.kind === 'section') items.push({ row: node.row, key })
  })
  return rowsOf(paginate(items, (i) => i.key, query))
}

export function listGroups(ctx: ReadContext, site: string, query: PageQuery): Page<SiteSectionGroupRow> {
  const items: Array<{ row: SiteSectionGroupRow; key: SortKey }> = []
  walk(ctx, site, (node, key) => {
    if (node.kind === 'group') items.push({ row: node.row, key })
  })
  return rowsOf(paginate(items, (i) => i.key, query))
}

/**
 * Site-spaces in structure order. `default: true` keeps only the site's default site-space (the
 * default of the root, or of the default section); `false` keeps all the others.
 */
export function listSiteSpaces(ctx: ReadContext, site: string, query: PageQuery & { default?: boolean | undefined }): Page<SiteSpaceRow> {
  const all = siteSpacesInOrder(ctx, site)
  const isSiteDefault = (row: SiteSpaceRow): boolean => row.default && (row.section === undefined || ctx.tx.get('siteSections', row.section)?.default === true)
  const items = query.default === undefined ? all : all.filter((i) => isSiteDefault(i.row) === query.default)
  return rowsOf(paginate(items, (i) => i.key, query))
}

function rowsOf<R>(page: Page<{ row: R }>): Page<R> {
  const out: Page<R> = { items: page.items.map((i) => i.row), count: page.count }
  if (page.next) out.next = page.next
  return out
}
