import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
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
