import type { ReadContext } from '../context.js'
import type { ReadTx } from '../../storage/port.js'
import type { AppSchema } from '../schema.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { PageVersionRow, RevisionRow } from '../content/rows.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteSpaceRow } from '../site-structure/rows.js'
import { evaluateCondition, visitorOf } from '../common/expressions.js'
import { mainRevision, pageByPath, pageIn } from '../content/revision.js'
import { publishedUrl, requestShareKey } from '../sites/urls.js'
import { siteSpaceSegments } from '../site-structure/encode.js'
import { canReadPublished } from '../site-structure/published.js'
import { isPublishedSiteSpace, siteSpacesOf } from '../site-structure/tree.js'

/**
 * Where a page is published, for its meta links (the official `RevisionPageMetaLinks`).
 *
 * The page's own locations are the site-spaces publishing its space: for a site token, those of
 * the token's site (the one it renders first); for anyone else, those of every published site
 * the caller may read, oldest site first. `canonical` is the page's URL at the first of them.
 * `alternates` are the same page (the page at the same path) in the other spaces of the same
 * containers (the variants and translations of a section, or of a site without sections), each at
 * its published URL; a variant hidden from the published structure, or whose condition the
 * visitor of a site token does not meet, is left out, and so is a variant without a page at that
 * path. Both are URL references: the published URL is what a client shows.
 */

export interface UrlRef {
  kind: 'url'
  url: string
}

export interface MetaLinks {
  canonical?: UrlRef
  alternates: UrlRef[]
}

/** The site-spaces publishing `space` that the caller's meta links consider, in order. */
function ownLocations(ctx: ReadContext, space: SpaceRow): Array<{ site: SiteRow; row: SiteSpaceRow }> {
  const grant = ctx.actor.content
  const out: Array<{ site: SiteRow; row: SiteSpaceRow }> = []
  for (const { row } of ctx.tx.scan('siteSpaces', 'bySpace', space.id)) {
    const site = ctx.tx.get('sites', row.site)
    if (!site?.published || !isPublishedSiteSpace(ctx, row)) continue
    // A site token reads its own site's published content (its grant says so); others, the sites they may read.
    if (grant ? site.id !== grant.site : !canReadPublished(ctx, site)) continue
    out.push({ site, row })
  }
  const first = (l: { row: SiteSpaceRow }) => (l.row.id === grant?.siteSpace ? 0 : 1)
  return out.sort((a, b) => first(a) - first(b) || a.site.createdAt.localeCompare(b.site.createdAt) || a.row.position - b.row.position)
}

/**
 * The first page a site-space shows at its own URL, as GitBook's renderer finds it: the first
 * root page that is not a link, or the first document inside a group.
 */
function firstDocument(tx: ReadTx<AppSchema>, rev: RevisionRow, parent?: PageVersionRow, depth = 0): PageVersionRow | undefined {
  if (depth > 64) return undefined
  // Page by page, so a space of many root pages reads only the first few.
  for (const id of parent ? parent.children : rev.rootPages) {
    const page = pageIn(tx, rev, id)
    if (!page) continue
    if (page.type === 'document') return page
    if (page.type === 'group') {
      const inside = firstDocument(tx, rev, page, depth + 1)
      if (inside) return inside
    }
  }
  return undefined
}

/** The published URL of the page at `path` of a site-space's space (its main content, `rev`). */
function pageUrl(ctx: ReadContext, site: SiteRow, row: SiteSpaceRow, rev: RevisionRow, page: PageVersionRow, path: string): string {
  const segments = firstDocument(ctx.tx, rev)?.page === page.page ? [] : path.split('/')
  return publishedUrl(ctx, site, [...siteSpaceSegments(ctx, row), ...segments], requestShareKey(ctx, site))
}

/** The page at `path` of a space's main content, unless it is a link (which has no URL of its own). */
function publishedPage(tx: ReadTx<AppSchema>, rev: RevisionRow, path: string): PageVersionRow | undefined {
  const page = pageByPath(tx, rev, path)
  return page && page.type !== 'link' ? page : undefined
}

/**
 * The meta links of the page at `path` of `space`, whichever revision it was read in (main's, an
 * old one or a change request's): published URLs are those of main's content, so the links name
 * the page at that path in main (none when main has no page there).
 */
export function metaLinks(ctx: ReadContext, space: SpaceRow, path: string): MetaLinks {
  const locations = ownLocations(ctx, space)
  const seen = new Set<string>()
  const alternates: UrlRef[] = []
  const visitor = ctx.actor.content && visitorOf(ctx.actor)
  for (const { site, row } of locations) {
    for (const sibling of siteSpacesOf(ctx, site.id, row.section)) {
      if (sibling.space === space.id || !isPublishedSiteSpace(ctx, sibling)) continue
      if (visitor && sibling.condition !== undefined && !evaluateCondition(sibling.condition, visitor)) continue
      const rev = mainRevision(ctx, ctx.tx.get('spaces', sibling.space)!)
      const same = publishedPage(ctx.tx, rev, path)
      if (!same) continue
      const url = pageUrl(ctx, site, sibling, rev, same, path)
      if (seen.has(url)) continue
      seen.add(url)
      alternates.push({ kind: 'url', url })
    }
  }
  const own = locations[0]
  const main = own && mainRevision(ctx, space)
  const page = main && publishedPage(ctx.tx, main, path)
  const canonical = own && page && { kind: 'url' as const, url: pageUrl(ctx, own.site, own.row, main, page, path) }
  return { ...(canonical && { canonical }), alternates }
}
