import type { Context, ReadContext } from '../context.js'
import type { SiteCustomizationSettings, SiteSpaceCustomizationOverride } from '../sites/customization-schemas.js'
import { applyOverride, patchOverride, publishedCustomization, siteCustomizationOf } from '../sites/customization.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteSpaceCustomizationRow, SiteSpaceRow } from './rows.js'
import { isPublishedSiteSpace, siteSpacesInOrder } from './tree.js'

/**
 * The customization of site-spaces: each shows its site's customization, with what its own
 * override sets over it (a language variant with its own logo, a version with its own colour).
 */

const overrideRow = (ctx: ReadContext, siteSpace: string): SiteSpaceCustomizationRow | undefined =>
  ctx.tx.scan('siteSpaceCustomizations', 'bySiteSpace', siteSpace)[0]?.row

/** The customization a site-space shows: the site's with its override over it (`site`: the site's, when read already). */
export function siteSpaceCustomization(ctx: ReadContext, siteSpace: SiteSpaceRow, site = siteCustomizationOf(ctx, siteSpace.site)): SiteCustomizationSettings {
  const row = overrideRow(ctx, siteSpace.id)
  return row ? applyOverride(site, row.override, row.updatedAt) : site
}

/**
 * `overrideSiteSpaceCustomizationById`: the patch applied to the site-space's override (a value
 * overrides, null clears); an override left empty goes. Answers what the site-space now shows.
 */
export function overrideSiteSpaceCustomization(ctx: Context, siteSpace: SiteSpaceRow, patch: SiteSpaceCustomizationOverride): SiteCustomizationSettings {
  const row = overrideRow(ctx, siteSpace.id)
  const override = patchOverride(row?.override ?? {}, patch)
  const updatedAt = ctx.nowIso()
  if (Object.keys(override).length === 0) {
    if (row) ctx.tx.delete('siteSpaceCustomizations', row.id)
  } else if (row) ctx.tx.update('siteSpaceCustomizations', { ...row, override, updatedAt })
  else {
    ctx.tx.insert('siteSpaceCustomizations', {
      id: ctx.newId(),
      site: siteSpace.site,
      organization: siteSpace.organization,
      siteSpace: siteSpace.id,
      override,
      updatedAt,
    })
  }
  return siteSpaceCustomization(ctx, siteSpace)
}

/** `deleteSiteSpaceCustomizationById`: the site-space shows its site's customization again. Whether it had an override. */
export function deleteSiteSpaceCustomization(ctx: Context, siteSpace: SiteSpaceRow): boolean {
  const row = overrideRow(ctx, siteSpace.id)
  if (!row) return false
  ctx.tx.delete('siteSpaceCustomizations', row.id)
  return true
}

/**
 * The `customizations` of a published profile: the site's, and for each site-space of the
 * published structure (the same ones: not hidden, space not trashed) what it shows, keyed by its
 * id as GitBook's renderer reads them (`customizations.siteSpaces[siteSpaceId]`, falling back to
 * the site's). Visitors never get the assistant's instructions.
 */
export function publishedCustomizations(ctx: ReadContext, site: SiteRow) {
  const settings = siteCustomizationOf(ctx, site.id)
  // Own properties made by fromEntries: an id such as `__proto__` (a loaded state may have one) stays a key.
  const siteSpaces: Record<string, SiteCustomizationSettings> = Object.fromEntries(
    siteSpacesInOrder(ctx, site.id)
      .filter(({ row }) => isPublishedSiteSpace(ctx, row))
      .map(({ row }) => [row.id, publishedCustomization(siteSpaceCustomization(ctx, row, settings))]),
  )
  return { site: publishedCustomization(settings), siteSpaces }
}
