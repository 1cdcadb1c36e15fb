import { produce } from '../common/produce.js'
import type { z } from 'zod'
import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { indexSource, paginateScan, type Page } from '../../core/paging.js'
import type { Entry } from '../../storage/port.js'
import type { ShareLinkRow } from './rows.js'
import type { SiteRow } from '../sites/rows.js'
import { findInSite } from '../sites/model.js'
import type { ListShareLinksQuerySchema, UpdateShareLinkSchema } from './schemas.js'

/** A share link of the site, or undefined (a link of another site is not found either). */
export function findShareLink(ctx: Context, site: SiteRow, id: string): ShareLinkRow | undefined {
  return findInSite(ctx, 'shareLinks', site, id)
}

/** A share link of the site, or a 404. */
export function getShareLink(ctx: Context, site: SiteRow, id: string): ShareLinkRow {
  const link = findShareLink(ctx, site, id)
  if (!link) throw new ApiError('NOT_FOUND', 'Share link not found')
  return link
}

/**
 * The site's share links in creation order (the `bySite` index keeps insertion order). `search`
 * matches a name by case-insensitive substring, or a key exactly: the official parameter searches
 * "by name or key", and a key is a secret, so a fragment of one finds nothing.
 */
export function listShareLinks(ctx: ReadContext, site: SiteRow, query: z.output<typeof ListShareLinksQuerySchema>): Page<Entry<ShareLinkRow>> {
  const source = indexSource(ctx.tx, 'shareLinks', 'bySite', site.id)
  const search = query.search
  if (!search) return paginateScan(source, query)
  const text = search.toLowerCase()
  return paginateScan(source, query, (row) => row.key === search || row.name.toLowerCase().includes(text))
}

/**
 * Create an active share link. The key is a fresh id from the context (random in production,
 * repeatable in tests); links can be made on a site of any visibility, and open it only while
 * its visibility is `share-link`.
 */
export function createShareLink(ctx: Context, site: SiteRow, name: string): ShareLinkRow {
  const id = ctx.newId()
  return ctx.tx.insert('shareLinks', {
    id,
    site: site.id,
    organization: site.organization,
    key: ctx.newId(),
    name,
    active: true,
    createdAt: ctx.nowIso(),
  })
}

/** Rename and/or (de)activate a link (no write when nothing changes). */
export function updateShareLink(ctx: Context, link: ShareLinkRow, patch: z.output<typeof UpdateShareLinkSchema>): ShareLinkRow {
  const next = produce(link, (draft) => {
    if (patch.name !== undefined) draft.name = patch.name
    if (patch.active !== undefined) draft.active = patch.active
  })
  return next === link ? link : ctx.tx.update('shareLinks', next)
}

/** Delete a link: its key stops opening the site at once. */
export function deleteShareLink(ctx: Context, link: ShareLinkRow): void {
  ctx.tx.delete('shareLinks', link.id)
}
