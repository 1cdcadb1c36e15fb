import type { Context } from '../context.js'
import type { SiteCustomization, SiteCustomizationSettings } from './customization-schemas.js'
import type { SiteRow } from './rows.js'

/**
 * `updateSiteCustomizationById`: the site's whole customization replaced (the body already has
 * the defaults in what it left out), stamped with the time of the change.
 */
export function replaceSiteCustomization(ctx: Context, site: SiteRow, settings: SiteCustomization): SiteCustomizationSettings {
  const updatedAt = ctx.nowIso()
  const row = ctx.tx.scan('siteCustomizations', 'bySite', site.id)[0]?.row
  if (row) ctx.tx.update('siteCustomizations', { ...row, settings, updatedAt })
  else ctx.tx.insert('siteCustomizations', { id: ctx.newId(), site: site.id, organization: site.organization, settings, updatedAt })
  return { ...settings, updatedAt }
}
