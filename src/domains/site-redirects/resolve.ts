import type { ReadContext, ReadTx } from '../context.js'
import type { SiteRow } from '../sites/rows.js'
import { publishedUrl, requestShareKey } from '../sites/urls.js'
import { destinationTarget } from './destination.js'
import { sourceIndexKey, type SiteRedirectRow } from './rows.js'
import { appendSuffix, isWildcard, normalizeSitePath, sourceKey, spellPath } from './source.js'

/**
 * Resolving a path of a site to its redirect: the redirect whose source is the path (compared as
 * source.ts says), else the wildcard whose prefix is the longest that starts the path. Each
 * candidate is one index read, so a lookup costs O(length of the path) whatever the number of
 * redirects.
 */

/** A redirect that matches a path, and the part of the path its wildcard matched (`/install` for `/docs/*` and `/docs/install`; '' for an exact match). */
export interface RedirectMatch {
  row: SiteRedirectRow
  suffix: string
}

function rowAt(tx: ReadTx, site: string, draft: boolean, key: string): SiteRedirectRow | undefined {
  return tx.scan('siteRedirects', 'bySource', sourceIndexKey(site, draft, key), { limit: 1 })[0]?.row
}

/**
 * The redirect of the site that a path leads to (live ones unless `draft`). The path is taken as
 * a URL's path would come (a missing leading slash, a trailing slash, a query or fragment are
 * dropped). A path ending in `*` names that wildcard redirect only.
 */
export function matchSiteRedirect(tx: ReadTx, siteId: string, sourcePath: string, draft = false): RedirectMatch | undefined {
  const path = normalizeSitePath(sourcePath)
  const key = sourceKey(path)
  const exact = rowAt(tx, siteId, draft, key)
  if (exact) return { row: exact, suffix: '' }
  if (isWildcard(path)) return undefined
  // The spelled path and its key have the same length (only ASCII letters change), so the suffix
  // is cut from the path as spelled, its case kept.
  const spelled = spellPath(path)
  for (let end = key.length; end >= 2; end--) {
    const row = rowAt(tx, siteId, draft, `${key.slice(0, end)}*`)
    if (!row) continue
    // `/docs/*` matched `/docs/install`: the suffix keeps its slash (`/install`), so that it joins the destination's path.
    const cut = key[end - 1] === '/' ? end - 1 : end
    return { row, suffix: spelled.slice(cut) }
  }
  return undefined
}

/**
 * The live redirect a path of the site leads to, or undefined: what URL resolution calls, in its
 * own transaction, for a path no content answers (GitBook resolves content first, then
 * redirects).
 */
export function findSiteRedirect(tx: ReadTx, siteId: string, sourcePath: string): SiteRedirectRow | undefined {
  return matchSiteRedirect(tx, siteId, sourcePath)?.row
}

/**
 * The URL a matched redirect sends a visitor to: the published URL of the section, site-space or
 * page it names (carrying the request's share key on a share-link site), or its external URL;
 * with `captureWildcard`, the part of the path the wildcard matched is appended to the URL's
 * path. Undefined when what it names is gone.
 */
export function siteRedirectTarget(ctx: ReadContext, site: SiteRow, match: RedirectMatch): string | undefined {
  const target = destinationTarget(ctx, site, match.row.destination)
  if (!target) return undefined
  const base = target.kind === 'external' ? target.url : publishedUrl(ctx, site, target.segments, requestShareKey(ctx, site))
  if (!match.row.captureWildcard || !match.suffix) return base
  const url = new URL(base)
  url.pathname = appendSuffix(url.pathname, match.suffix)
  return url.toString()
}
