import type { ReadContext } from '../context.js'
import { mapPage, paginateList, type PageQuery } from '../../core/paging.js'
import { getSite } from '../sites/model.js'
import type { SiteRow } from '../sites/rows.js'
import { encodeSpaceHit, type Revisions } from './encode.js'
import { rankIn } from './model.js'
import { groupBySpace } from './ranking.js'
import type { SiteSearchBody } from './schemas.js'
import { siteSpacesInScope, type SiteSearchScope } from './site-scope.js'

/**
 * Pages listed under each space of a site search. GitBook's renderer shows every page it gets,
 * ranked together whatever its space: a site of one space shows this many results.
 */
export const SITE_PAGES_PER_SPACE = 20

/** The scope a body asks for: `scope`, or the deprecated top-level form (`mode: current` is the default scope from a site-space). */
function scopeOf(body: SiteSearchBody): SiteSearchScope {
  if (body.scope) return body.scope
  if (body.mode === 'all') return { mode: 'all' }
  if (body.mode === 'current') return { mode: 'default', currentSiteSpace: body.siteSpaceId! }
  return { mode: 'specific', siteSpaceIds: body.siteSpaceIds! }
}

/** Where a field of the scope is in the body: under `scope`, or at the top level in the deprecated form. */
const fieldsOf = (body: SiteSearchBody) => (name: 'currentSiteSpace' | 'siteSpaceIds') =>
  body.scope ? `scope.${name}` : name === 'currentSiteSpace' ? 'siteSpaceId' : name

/** The spaces a site search reads, each once, in the order of the site-spaces that publish them. */
function spacesSearched(ctx: ReadContext, site: SiteRow, body: SiteSearchBody): Set<string> {
  const rows = siteSpacesInScope(ctx, site, scopeOf(body), fieldsOf(body))
  return new Set(rows.map((row) => row.space))
}

/**
 * `searchSiteContent`: the main content of the spaces the site shows the caller in the scope
 * (site-scope.ts), each space searched in its own index (as its own search and Ask: no other
 * space weighs on its scores), the rankings merged by score; answered as the organization
 * search is, spaces ordered by their best page, each with its best pages and each page with its
 * best section.
 */
export function searchSite(ctx: ReadContext, organization: string, siteId: string, body: SiteSearchBody, query: PageQuery) {
  const site = getSite(ctx, organization, siteId)
  const spaces = spacesSearched(ctx, site, body)
  const hits = spaces.size === 0 || body.query.trim() === '' ? [] : rankIn(ctx, site.organization, spaces, body.query)
  const revisions: Revisions = new Map()
  return mapPage(paginateList(groupBySpace(hits), query, 1), (item) =>
    encodeSpaceHit(ctx, revisions, { ...item, pages: item.pages.slice(0, SITE_PAGES_PER_SPACE) }),
  )
}

/**
 * `prewarmSiteSearch`: bring the indexes of every space the site shows the caller up to date
 * (built on first use). Indexing runs as a search's does, in slices before the request's
 * transaction (ctx.beforehand: organization-index.ts), so a large site never holds the event
 * loop; the answer comes once the indexes are ready, and the next search only searches.
 */
export function prewarmSite(ctx: ReadContext, organization: string, siteId: string): void {
  const site = getSite(ctx, organization, siteId)
  const spaces = spacesSearched(ctx, site, { query: '', mode: 'all' })
  if (spaces.size === 0) return
  ctx.services.search.of(site.organization).sync(
    ctx,
    [...spaces].map((id) => ctx.tx.get('spaces', id)!),
  )
}
