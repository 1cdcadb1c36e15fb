import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { RowOf } from '../../storage/port.js'
import type { AppSchema } from '../schema.js'
import type { SiteRow } from './rows.js'

/** A site of the organization named in the path, or a 404 (a site of another organization is not found). */
export function getSite(ctx: ReadContext, organization: string, id: string): SiteRow {
  const site = ctx.tx.get('sites', id)
  if (!site || site.organization !== organization) throw new ApiError('NOT_FOUND', 'Site not found')
  return site
}

/** Like `getSite`, undefined instead of a 404 (idempotent deletes under a site). */
export function findSite(ctx: ReadContext, organization: string, id: string): SiteRow | undefined {
  const site = ctx.tx.get('sites', id)
  return site && site.organization === organization ? site : undefined
}

/** A row of a site-scoped collection (site structure, share links), when it belongs to this site (a row of another site is not found either). */
export function findInSite<C extends 'siteSections' | 'siteSectionGroups' | 'siteSpaces' | 'shareLinks'>(
  ctx: ReadContext,
  collection: C,
  site: SiteRow,
  id: string,
): RowOf<AppSchema, C> | undefined {
  const row = ctx.tx.get(collection, id)
  // Every row of these collections has a `site`; TypeScript cannot see it through the generic row type.
  return row && (row as unknown as { site: string }).site === site.id ? row : undefined
}
