import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { PageVersionRow, RevisionRow } from '../content/rows.js'
import { findRevision, pageByPath, pageIn, pagePath } from '../content/revision.js'
import type { SiteRow } from '../sites/rows.js'
import { findInSite } from '../sites/model.js'
import { siteBaseUrl, siteTargetUrl } from '../sites/urls.js'
import { sectionSegments, siteSpaceSegments } from '../site-structure/encode.js'
import type { SiteSpaceRow } from '../site-structure/rows.js'
import { siteSpacesInOrder } from '../site-structure/tree.js'
import type { SiteRedirectDestination, SiteRedirectInputDestination } from './schemas.js'
import { pathOfSegments } from './source.js'

/**
 * Destinations: checking the one a request gives against the site (a section, site-space or page
 * of this site; a page named by space and path becomes the page it names), and where a stored one
 * leads now.
 */

const bad = (field: string, rule: string) => new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: ${rule}`)

/** A site-space of the site whose space is live (not in the trash), or undefined. */
function liveSiteSpace(ctx: ReadContext, site: SiteRow, id: string): SiteSpaceRow | undefined {
  const row = findInSite(ctx, 'siteSpaces', site, id)
  const space = row && ctx.tx.get('spaces', row.space)
  return row && space && space.deletedAt === undefined ? row : undefined
}

/** The main content of a site-space's space. */
function contentOf(ctx: ReadContext, row: SiteSpaceRow): RevisionRow | undefined {
  const space = ctx.tx.get('spaces', row.space)
  return space && findRevision(ctx.tx, space, space.revision)
}

/**
 * The page a site-space's URL shows: the first document of its content, groups walked into and
 * links skipped, as GitBook's renderer finds it (its `resolveFirstDocument`). Its canonical URL is
 * the site-space's own.
 */
function firstDocument(ctx: ReadContext, rev: RevisionRow, parent?: PageVersionRow, depth = 0): PageVersionRow | undefined {
  if (depth > 64) return undefined
  // Page by page, stopping at the first document: a space with a thousand root pages reads one or two.
  for (const id of parent ? parent.children : rev.rootPages) {
    const page = pageIn(ctx.tx, rev, id)
    if (!page) continue
    if (page.type === 'document') return page
    if (page.type === 'group') {
      const found = firstDocument(ctx, rev, page, depth + 1)
      if (found) return found
    }
  }
  return undefined
}

/**
 * Check a destination of a request against the site; answer it as stored. What it names must be
 * in this site, and visible to the caller: a section or site-space of the site, a page of a
 * site-space's space (a link page has no URL of its own), or a space published in the site and a
 * page path in it (the site-space publishing it first in the site's order; an empty path names the
 * site-space itself). Anything else is a 400 naming the field.
 */
export function checkDestination(ctx: Context, site: SiteRow, input: SiteRedirectInputDestination, field: string): SiteRedirectDestination {
  switch (input.kind) {
    case 'external':
      return input
    case 'site-section':
      if (!findInSite(ctx, 'siteSections', site, input.siteSectionId)) throw bad(`${field}.siteSectionId`, `no section ${input.siteSectionId} in this site`)
      return input
    case 'site-space':
      requireSiteSpace(ctx, site, input.siteSpaceId, `${field}.siteSpaceId`)
      return input
    case 'site-page': {
      const row = requireSiteSpace(ctx, site, input.siteSpaceId, `${field}.siteSpaceId`)
      const rev = contentOf(ctx, row)
      const page = rev && pageIn(ctx.tx, rev, input.pageId)
      if (!page) throw bad(`${field}.pageId`, `no page ${input.pageId} in the space of site-space ${row.id}`)
      if (page.type === 'link') throw bad(`${field}.pageId`, 'is a link page, which has no URL of its own')
      return input
    }
    case 'path': {
      const row = siteSpacesInOrder(ctx, site.id)
        .map((e) => e.row)
        .find((r) => r.space === input.spaceId && liveSiteSpace(ctx, site, r.id) && ctx.access.can('space', r.space, 'view'))
      if (!row) throw bad(`${field}.spaceId`, `space ${input.spaceId} is not published in this site`)
      if (input.path.replace(/^\/+|\/+$/g, '') === '') return { kind: 'site-space', siteSpaceId: row.id }
      const rev = contentOf(ctx, row)
      const page = rev && pageByPath(ctx.tx, rev, input.path)
      if (!page) throw bad(`${field}.path`, `no page at this path in space ${input.spaceId}`)
      if (page.type === 'link') throw bad(`${field}.path`, 'is a link page, which has no URL of its own')
      return { kind: 'site-page', siteSpaceId: row.id, pageId: page.page }
    }
  }
}

function requireSiteSpace(ctx: Context, site: SiteRow, id: string, field: string): SiteSpaceRow {
  const row = liveSiteSpace(ctx, site, id)
  if (!row || !ctx.access.can('space', row.space, 'view')) throw bad(field, `no site-space ${id} in this site`)
  return row
}

/** Where a destination leads: URL segments under the site (a section, site-space or page of it), or an external URL. */
export type Target = { kind: 'site'; segments: string[] } | { kind: 'external'; url: string }

/** Where a stored destination leads now; undefined when what it names is gone (a section, site-space or page removed, a space trashed). */
export function destinationTarget(ctx: ReadContext, site: SiteRow, destination: SiteRedirectDestination): Target | undefined {
  switch (destination.kind) {
    case 'external':
      return { kind: 'external', url: destination.url }
    case 'site-section': {
      const section = findInSite(ctx, 'siteSections', site, destination.siteSectionId)
      return section && { kind: 'site', segments: sectionSegments(section) }
    }
    case 'site-space': {
      const row = liveSiteSpace(ctx, site, destination.siteSpaceId)
      return row && { kind: 'site', segments: siteSpaceSegments(ctx, row) }
    }
    case 'site-page': {
      const row = liveSiteSpace(ctx, site, destination.siteSpaceId)
      const rev = row && contentOf(ctx, row)
      const page = rev && pageIn(ctx.tx, rev, destination.pageId)
      if (!row || !rev || !page || page.type === 'link') return undefined
      const own = firstDocument(ctx, rev)?.page === page.page ? [] : pagePath(ctx.tx, rev, page).split('/')
      return { kind: 'site', segments: [...siteSpaceSegments(ctx, row), ...own] }
    }
  }
}

/**
 * The path under the site a target leads to (in the spelling of sources), or undefined when it
 * leads out of the site. An external URL leads into the site when it is under the site's
 * published URL (or the URL a proxy forwards to).
 */
export function pathInSite(ctx: ReadContext, site: SiteRow, target: Target): string | undefined {
  if (target.kind === 'site') return pathOfSegments(target.segments)
  let url: URL
  try {
    url = new URL(target.url)
  } catch {
    return undefined
  }
  for (const base of new Set([siteBaseUrl(ctx, site), siteTargetUrl(ctx, site)])) {
    const root = new URL(base)
    const prefix = root.pathname.replace(/\/+$/, '')
    if (url.host.toLowerCase() !== root.host.toLowerCase()) continue
    const path = url.pathname.replace(/\/+$/, '')
    if (path.toLowerCase() === prefix.toLowerCase()) return '/'
    if (path.toLowerCase().startsWith(`${prefix.toLowerCase()}/`)) return path.slice(prefix.length)
  }
  return undefined
}
