import { produce } from '../common/produce.js'
import type { z } from 'zod'
import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SiteRow } from './rows.js'
import { removeRow } from '../ownership.js'
import { insertPublishingAuth } from './publishing-auth.js'
import type { CreateSiteSchema, UpdateSiteSchema } from './schemas.js'

/**
 * Insert a site's row (`basic` and `public` by default, unpublished) and its visitor
 * authentication. Its first site-spaces (`spaces` of createSite) are the site structure's
 * (site-structure/site-lifecycle.ts).
 */
export function insertSite(ctx: Context, organization: string, input: Omit<z.output<typeof CreateSiteSchema>, 'spaces'>): SiteRow {
  const site = ctx.tx.insert('sites', {
    id: ctx.newId(),
    organization,
    type: input.type ?? 'basic',
    title: input.title ?? 'Untitled site',
    visibility: input.visibility ?? 'public',
    published: false,
    createdAt: ctx.nowIso(),
    agentsContext: 'included',
  })
  // Its visitor authentication comes with it: reading it (a GET) never has to make the key.
  insertPublishingAuth(ctx, site)
  return site
}

/**
 * Two sites never share a published URL (409): custom hostnames and proxy origins are unique
 * among all sites, basenames among the sites of an organization. The host of the API's published
 * base (`publishedUrl`) is no site's: URLs on it name every organization's sites, and resolution
 * (published/resolve.ts) looks for a proxy or hostname first, so a site there would take them over.
 */
function requireFreeAddress(ctx: Context, site: SiteRow, patch: z.output<typeof UpdateSiteSchema>): void {
  const taken = (rows: Array<{ row: SiteRow }>) => rows.some((e) => e.row.id !== site.id)
  const publishedHost = new URL(ctx.urls.published('/')).host
  if (patch.hostname && patch.hostname === publishedHost) {
    throw new ApiError('CONFLICT', `The hostname ${patch.hostname} is the host of the API's published sites`)
  }
  if (patch.proxy && patch.proxy.slice(0, patch.proxy.indexOf('/')) === publishedHost) {
    throw new ApiError('CONFLICT', `The proxy ${patch.proxy} is on ${publishedHost}, the host of the API's published sites`)
  }
  if (patch.hostname && taken(ctx.tx.scan('sites', 'byHostname', patch.hostname))) {
    throw new ApiError('CONFLICT', `The hostname ${patch.hostname} is already used by another site`)
  }
  if (patch.proxy && taken(ctx.tx.scan('sites', 'byProxy', patch.proxy))) {
    throw new ApiError('CONFLICT', `The proxy ${patch.proxy} is already used by another site`)
  }
  if (patch.basename !== undefined && patch.basename !== site.basename) {
    if (taken(ctx.tx.scan('sites', 'byBasename', `${site.organization}/${patch.basename}`))) {
      throw new ApiError('CONFLICT', `The basename ${patch.basename} is already used by another site of this organization`)
    }
  }
}

/**
 * Update a site's settings (its row). The default site-space or section a patch names are the
 * site structure's, set first (site-structure/site-lifecycle.ts).
 */
export function updateSiteSettings(ctx: Context, site: SiteRow, patch: z.output<typeof UpdateSiteSchema>): SiteRow {
  requireFreeAddress(ctx, site, patch)
  const next = produce(site, (draft) => {
    if (patch.title !== undefined) draft.title = patch.title
    if (patch.visibility !== undefined) draft.visibility = patch.visibility
    if (patch.basename !== undefined) draft.basename = patch.basename
    if (patch.hostname === null) delete draft.hostname
    else if (patch.hostname !== undefined) draft.hostname = patch.hostname
    if (patch.adaptiveContent !== undefined) draft.adaptiveContent = patch.adaptiveContent
    if (patch.agentsContext !== undefined) draft.agentsContext = patch.agentsContext
    if (patch.proxy === null) delete draft.proxy
    else if (patch.proxy !== undefined) draft.proxy = patch.proxy
  })
  return next === site ? site : ctx.tx.update('sites', next)
}

/** Publish or unpublish a site (idempotent). */
export function setPublished(ctx: Context, site: SiteRow, published: boolean): SiteRow {
  if (site.published === published) return site
  return ctx.tx.update('sites', { ...site, published })
}

/**
 * Delete a site with everything under it: sections, groups, site-spaces (with their
 * customization), share links, its customization and visitor authentication. An organization
 * whose default content was this site loses that default.
 */
export function deleteSite(ctx: Context, site: SiteRow): void {
  // What the areas declare a site owns (domains/ownership.ts): site-spaces, sections, groups, share links, settings.
  removeRow(ctx, 'sites', site.id)
  const organization = ctx.tx.get('organizations', site.organization)
  if (organization?.defaultContent?.site === site.id) {
    ctx.tx.update(
      'organizations',
      produce(organization, (draft) => void delete draft.defaultContent),
    )
  }
}
