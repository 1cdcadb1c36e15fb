import type { ReadContext } from '../context.js'
import { findRevision, pageByPath } from '../content/revision.js'
import type { RevisionRow } from '../content/rows.js'
import { destinationTarget } from '../site-redirects/destination.js'
import { matchSiteRedirect } from '../site-redirects/resolve.js'
import { sourceKey } from '../site-redirects/source.js'
import { publishedUrl } from '../sites/urls.js'
import type { ContentMatch } from './resolve.js'

/** Lookup tables by redirects record: revision rows are immutable and share the record while it does not change. */
const tables = new WeakMap<NonNullable<RevisionRow['redirects']>, Map<string, string>>()

/**
 * The page a path of the space's published URL is redirected to, or undefined: sources compared
 * as site redirects' are (sourceKey: each segment decoded and encoded one way, case-insensitively).
 * O(1) once the revision's table is built.
 */
function redirectedPage(rev: RevisionRow, path: string): string | undefined {
  const redirects = rev.redirects
  if (redirects === undefined) return undefined
  let table = tables.get(redirects)
  if (!table) {
    table = new Map()
    // The first source written wins among those that differ only in case.
    for (const [source, page] of Object.entries(redirects)) if (!table.has(sourceKey(source))) table.set(sourceKey(source), page)
    tables.set(redirects, table)
  }
  return table.get(sourceKey(path))
}

/** The official redirect to other content of the site (`PublishedContentRedirect`, target `content`). */
export interface ContentRedirect {
  target: 'content'
  redirect: string
}

/**
 * A space's own redirects (content/redirects.ts: Git Sync's `.gitbook.yaml` ones) in URL
 * resolution: a page path of the site-space that names no page of its space's main content, and
 * that a redirect of that content has as its source, answers the published URL of the page the
 * redirect leads to. Content comes first (a page at the path is served), then the site's own
 * redirects: a live site redirect matching the URL's path under the site wins, and the
 * resolution then answers the content as for any path (the renderer finds no page and follows the
 * site redirect, `getSiteRedirectBySource`). Undefined when no space redirect answers.
 */
export function spaceRedirect(ctx: ReadContext, match: ContentMatch, segments: readonly string[]): ContentRedirect | undefined {
  if (match.rest.length === 0) return undefined
  const space = ctx.tx.get('spaces', match.siteSpace.space)
  const rev = space && findRevision(ctx.tx, space, space.revision)
  if (!rev?.redirects) return undefined
  // The segments are decoded: encoded again, a slash inside one stays part of it.
  const path = match.rest.map(encodeURIComponent).join('/')
  const page = redirectedPage(rev, path)
  if (page === undefined || pageByPath(ctx.tx, rev, path)) return undefined
  const underSite = segments.slice(match.consumed + (match.keyInPath ? 1 : 0)).map(encodeURIComponent)
  if (matchSiteRedirect(ctx.tx, match.site.id, `/${underSite.join('/')}`)) return undefined
  // Where the page is now: its site-space's URL and its path (the first document: the site-space's own URL); gone, no redirect.
  const target = destinationTarget(ctx, match.site, { kind: 'site-page', siteSpaceId: match.siteSpace.id, pageId: page })
  if (target?.kind !== 'site') return undefined
  return { target: 'content', redirect: publishedUrl(ctx, match.site, target.segments, match.shareKey) }
}
