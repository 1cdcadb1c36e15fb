import type { ReadContext } from '../context.js'
import type { SiteRow } from './rows.js'
import { siteOpenedByKey } from '../access/share-keys.js'

/**
 * Published URLs. A site is served from its proxy origin when it has one, else from its custom
 * hostname, else from `${publishedUrl}/${organization hostname or id}/${basename or site id}`.
 * Sections and site-spaces add their paths (a default one sits at its parent's URL). A share-link
 * site's URLs carry the key when the caller holds one, as a path segment right after the site's
 * base, as GitBook's share-link URLs do (`https://docs.company.com/<key>/<path>`): GitBook's
 * renderer drops a URL's query when it resolves it (published/resolve.ts reads both forms).
 */
export function siteBaseUrl(ctx: ReadContext, site: SiteRow, options: { proxy?: boolean } = {}): string {
  // The proxy origin and hostnames are validated against URL-safe patterns; the basename is any
  // string of 1..100 characters (as officially), so it is encoded as one path segment: `team docs`,
  // `a?b=c`, `x#top` or `a/b` stay inside the site's URL instead of changing what it points to.
  if (site.proxy && options.proxy !== false) return `https://${site.proxy}`
  const basename = site.basename === undefined ? undefined : encodeURIComponent(site.basename)
  if (site.hostname) return `https://${site.hostname}${basename ? `/${basename}` : ''}`
  const organization = ctx.tx.get('organizations', site.organization)
  return ctx.urls.published(`/${organization?.hostname ?? site.organization}/${basename ?? site.id}`)
}

/** The unproxied URL a proxy forwards to. */
export function siteTargetUrl(ctx: ReadContext, site: SiteRow): string {
  return siteBaseUrl(ctx, site, { proxy: false })
}

/** A published URL under the site: `segments` are paths below its base (defaults left out). */
export function publishedUrl(ctx: ReadContext, site: SiteRow, segments: readonly string[], shareKey?: string): string {
  const path = segments.map((s) => `/${encodeURIComponent(s)}`).join('')
  return `${siteBaseUrl(ctx, site)}${shareKey ? `/${encodeURIComponent(shareKey)}` : ''}${path}`
}

/**
 * The share key to put in URLs: the request's `shareKey`, or the key a site token of this site was
 * issued for, when it opens this share-link site (an active link of the site).
 */
export function requestShareKey(ctx: ReadContext, site: SiteRow): string | undefined {
  // A site token opened with a key carries it: the URLs it is given keep it, as the visitor's did.
  const key = ctx.shareKey ?? (ctx.actor.content?.site === site.id ? ctx.actor.content.shareKey : undefined)
  return key && isActiveShareKey(ctx, site, key) ? key : undefined
}

/** Whether `key` is the key of an active share link of this share-link site. */
export function isActiveShareKey(ctx: ReadContext, site: SiteRow, key: string): boolean {
  return siteOpenedByKey(ctx.tx, key)?.id === site.id
}
