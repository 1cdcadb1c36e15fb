import { permissionsFor } from '../../core/access.js'
import type { ReadContext } from '../context.js'
import type { Level } from '../../core/roles.js'
import type { SiteRow } from './rows.js'
import { SITE_PERMISSION_KEYS } from './schemas.js'
import { publishedUrl, requestShareKey, siteTargetUrl } from './urls.js'

/**
 * The API resource of a site, with `permissions` for the caller (or for `level` when given).
 * `siteSpaces` counts what the site holds (from the index, O(1)); `urls.published` is there
 * only once the site is published.
 */
export function encodeSite(ctx: ReadContext, row: SiteRow, level?: Level | null) {
  const l = level === undefined ? ctx.access.level('site', row.id) : level
  return {
    object: 'site' as const,
    id: row.id,
    type: row.type,
    // No plan is ever frozen here, so the applied type is the type.
    appliedType: row.type,
    title: row.title,
    ...(row.hostname !== undefined && { hostname: row.hostname }),
    ...(row.basename !== undefined && { basename: row.basename }),
    ...(row.proxy !== undefined && { proxy: { origin: row.proxy, target: siteTargetUrl(ctx, row) } }),
    visibility: row.visibility,
    defaultLevel: 'inherit' as const,
    permissions: permissionsFor('site', l, SITE_PERMISSION_KEYS),
    published: row.published,
    siteSpaces: ctx.tx.count('siteSpaces', 'bySite', row.id),
    createdAt: row.createdAt,
    ...(row.adaptiveContent !== undefined && { adaptiveContent: row.adaptiveContent }),
    agentsContext: row.agentsContext,
    features: [],
    urls: {
      location: ctx.urls.api(`/orgs/${row.organization}/sites/${row.id}`),
      app: ctx.urls.app(`/o/${row.organization}/sites/${row.id}`),
      preview: ctx.urls.app(`/o/${row.organization}/sites/${row.id}/preview`),
      ...(row.published && { published: publishedUrl(ctx, row, [], requestShareKey(ctx, row)) }),
    },
  }
}
