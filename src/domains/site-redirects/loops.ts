import type { ReadContext } from '../context.js'
import type { PageVersionRow } from '../content/rows.js'
import { childrenOf, findRevision } from '../content/revision.js'
import type { SiteRow } from '../sites/rows.js'
import { siteSpacesOf } from '../site-structure/tree.js'
import { destinationTarget, pathInSite } from './destination.js'
import type { SiteRedirectRow } from './rows.js'
import { matchSiteRedirect } from './resolve.js'
import { appendSuffix, isWildcard, sourceKey } from './source.js'

/**
 * Redirects that would send a visitor round in circles. GitBook serves a URL's content first and
 * checks site redirects last (its guide's resolution order), so a chain of redirects ends at the
 * first path the site has content at (a section, a site-space, a page), or that leads out of the
 * site, or that no redirect matches; it loops when it comes back to a redirect it went through.
 */

const lower = (s: string) => s.toLowerCase()

/** A segment decoded (as sent when it is not a valid escape sequence). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/**
 * Whether the site has content at a path: a section by its path (the default section otherwise),
 * a site-space of it by its path (its default otherwise), then the site-space's root or a page of
 * its space's main content by path. Compared case-insensitively, as the renderer finds pages.
 */
export function contentAt(ctx: ReadContext, site: SiteRow, path: string): boolean {
  let rest = path.split('/').filter((s) => s !== '')
  let section: string | undefined
  const sections = ctx.tx.scan('siteSections', 'bySite', site.id).map((e) => e.row)
  if (sections.length > 0) {
    const named = rest.length > 0 ? sections.find((s) => !s.default && lower(s.path) === lower(decoded(rest[0]!))) : undefined
    const chosen = named ?? sections.find((s) => s.default)
    if (!chosen) return false
    if (named) rest = rest.slice(1)
    section = chosen.id
  }
  const siteSpaces = siteSpacesOf(ctx, site.id, section)
  const named = rest.length > 0 ? siteSpaces.find((s) => !s.default && lower(s.path) === lower(decoded(rest[0]!))) : undefined
  const chosen = named ?? siteSpaces.find((s) => s.default)
  if (!chosen) return false
  if (named) rest = rest.slice(1)
  const space = ctx.tx.get('spaces', chosen.space)
  if (!space || space.deletedAt !== undefined) return false
  if (rest.length === 0) return true
  const rev = findRevision(ctx.tx, space, space.revision)
  if (!rev) return false
  // Slugs walked down from the root, each compared case-insensitively (the renderer lower-cases the path).
  let page: PageVersionRow | undefined
  for (const segment of rest) {
    const slug = lower(decoded(segment))
    page = childrenOf(ctx.tx, rev, page).find((p) => lower(p.slug) === slug)
    if (!page) return false
  }
  return true
}

/**
 * Where a redirect leads in the site, given the part of the path its wildcard matched: the path,
 * and whether content is known to be there (a section, site-space or page it names, which exists:
 * it would lead nowhere otherwise); undefined when it leads out of the site, or nowhere.
 */
function next(ctx: ReadContext, site: SiteRow, row: SiteRedirectRow, suffix: string): { path: string; content: boolean } | undefined {
  const target = destinationTarget(ctx, site, row.destination)
  const path = target && pathInSite(ctx, site, target)
  if (path === undefined) return undefined
  const captured = row.captureWildcard && suffix !== ''
  // A suffix appended to a content URL may name a page under it, or nothing: looked up like any path.
  return { path: captured ? appendSuffix(path, suffix) : path, content: target!.kind === 'site' && !captured }
}

/**
 * Whether a redirect leads back to its own source (a non-wildcard source the same as the path of
 * its destination): such a redirect can only ever send a visitor where he already is.
 */
export function leadsToItself(ctx: ReadContext, site: SiteRow, row: SiteRedirectRow): boolean {
  if (isWildcard(row.source)) return false
  const to = next(ctx, site, row, '')
  return to !== undefined && sourceKey(to.path) === sourceKey(row.source)
}

/**
 * The loop a live redirect is part of or leads into, as the paths it goes through (the first
 * repeated), or undefined. A wildcard source starts from its prefix (`/docs/` for `/docs/*`).
 */
export function loopFrom(ctx: ReadContext, site: SiteRow, start: SiteRedirectRow): string[] | undefined {
  const seen = new Set([start.id])
  const paths = [start.source]
  let row = start
  let suffix = ''
  for (;;) {
    const to = next(ctx, site, row, suffix)
    if (to === undefined || to.content || contentAt(ctx, site, to.path)) return undefined
    paths.push(to.path)
    const match = matchSiteRedirect(ctx.tx, site.id, to.path)
    if (!match) return undefined
    if (seen.has(match.row.id)) return paths
    seen.add(match.row.id)
    row = match.row
    suffix = match.suffix
  }
}
