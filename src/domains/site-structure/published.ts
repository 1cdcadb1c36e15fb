import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SiteRow } from '../sites/rows.js'
import { encodeSite } from '../sites/encode.js'
import { findSite } from '../sites/model.js'
import { publishedCustomizations } from './customization.js'
import { encodeStructure, scopeOf } from './encode.js'

/**
 * Who may read a site's published profile: members with a role, whether or not it is published,
 * and the bearer of a site token of the site (level `visitor`, which holds only while the site is
 * published and open the way the token was issued: access/levels.ts). The permission check
 * (`site.viewPublished`) let both through; only members see an unpublished site.
 */
export function canReadPublished(ctx: ReadContext, site: SiteRow): boolean {
  return site.published || ctx.access.can('site', site.id, 'access')
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
