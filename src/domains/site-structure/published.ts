import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SiteRow } from '../sites/rows.js'
import { encodeSite } from '../sites/encode.js'
import { findSite } from '../sites/model.js'
import { isActiveShareKey } from '../sites/urls.js'
import { publishedCustomizations } from './customization.js'
import { encodeStructure, scopeOf } from './encode.js'

/**
 * Who may read a site's published profile: members who can see the site, whether or not it is
 * published; anyone else only once it is published, and then for `public` and `unlisted` sites,
 * or a `share-link` site with the key of one of its active links. `visitor-auth` sites need a
 * visitor token, which this API does not issue: they stay closed to non-members.
 */
export function canReadPublished(ctx: ReadContext, site: SiteRow): boolean {
  if (ctx.access.can('site', site.id, 'view')) return true
  if (!site.published) return false
  if (site.visibility === 'public' || site.visibility === 'unlisted') return true
  return ctx.shareKey !== undefined && isActiveShareKey(ctx, site, ctx.shareKey)
}

/**
 * The published profile: the site and its structure as visitors see it (hidden site-spaces and
 * trashed spaces left out), with the customization of the site and of each of its site-spaces,
 * and no integration scripts.
 */
export function publishedProfile(ctx: ReadContext, organization: string, siteId: string) {
  const site = findSite(ctx, organization, siteId)
  if (!site || !canReadPublished(ctx, site)) throw new ApiError('NOT_FOUND', 'Site not found')
  return {
    object: 'published-content-site' as const,
    site: encodeSite(ctx, site),
    structure: encodeStructure(ctx, scopeOf(ctx, site, true)),
    customizations: publishedCustomizations(ctx, site),
    scripts: [],
  }
}
