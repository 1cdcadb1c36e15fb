import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SiteRow } from '../sites/rows.js'
import { findInSite } from '../sites/model.js'
import type { SiteSectionGroupRow, SiteSectionRow, SiteSpaceRow } from './rows.js'
import type { SpaceRow } from '../spaces/rows.js'
import { createSpace } from '../spaces/model.js'

/**
 * Looking up structure items. An item named in the path that is not in the site is a 404; one
 * named in the body is a 400 naming the field (the request is wrong, not the URL).
 */

const bad = (field: string, rule: string) => new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: ${rule}`)

export const findSection = (ctx: Context, site: SiteRow, id: string): SiteSectionRow | undefined => findInSite(ctx, 'siteSections', site, id)
export const findGroup = (ctx: Context, site: SiteRow, id: string): SiteSectionGroupRow | undefined => findInSite(ctx, 'siteSectionGroups', site, id)
export const findSiteSpace = (ctx: ReadContext, site: SiteRow, id: string): SiteSpaceRow | undefined => findInSite(ctx, 'siteSpaces', site, id)

export function getSection(ctx: Context, site: SiteRow, id: string): SiteSectionRow {
  const row = findSection(ctx, site, id)
  if (!row) throw new ApiError('NOT_FOUND', 'Site section not found')
  return row
}
export function getGroup(ctx: Context, site: SiteRow, id: string): SiteSectionGroupRow {
  const row = findGroup(ctx, site, id)
  if (!row) throw new ApiError('NOT_FOUND', 'Site section group not found')
  return row
}
export function getSiteSpace(ctx: ReadContext, site: SiteRow, id: string): SiteSpaceRow {
  const row = findSiteSpace(ctx, site, id)
  if (!row) throw new ApiError('NOT_FOUND', 'Site space not found')
  return row
}

export function sectionRef(ctx: Context, site: SiteRow, id: string, field: string): SiteSectionRow {
  const row = findSection(ctx, site, id)
  if (!row) throw bad(field, `no section ${id} in this site`)
  return row
}
export function groupRef(ctx: Context, site: SiteRow, id: string, field: string): SiteSectionGroupRow {
  const row = findGroup(ctx, site, id)
  if (!row) throw bad(field, `no section group ${id} in this site`)
  return row
}
export function siteSpaceRef(ctx: Context, site: SiteRow, id: string, field: string): SiteSpaceRow {
  const row = findSiteSpace(ctx, site, id)
  if (!row) throw bad(field, `no site-space ${id} in this site`)
  return row
}

/**
 * The space a body field names: a live space of the site's organization that the caller can
 * see (400 otherwise). `null` creates a new space at the organization's root, titled `title`,
 * which needs the right to create content there.
 */
export function spaceRef(ctx: Context, site: SiteRow, id: string | null, field: string, title?: string | null): SpaceRow {
  if (id === null) return createSpace(ctx, site.organization, { ...(title ? { title: title.slice(0, 50) } : {}) })
  const space = ctx.tx.get('spaces', id)
  if (!space || space.deletedAt || space.organization !== site.organization || !ctx.access.can('space', id, 'view')) {
    throw bad(field, `no space ${id} in this organization`)
  }
  return space
}
