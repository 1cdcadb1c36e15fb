import type { Context } from '../context.js'
import { removeRow } from '../ownership.js'
import type { SiteSectionRow, SiteSpaceRow } from './rows.js'
import { siteSpacesOf, walk } from './tree.js'

/**
 * The default rules: a site with sections has exactly one default section, and each container
 * of site-spaces (a section, or the root of a site without sections) that holds any has exactly
 * one default site-space. Removing a default section promotes the first remaining section in
 * structure order; removing a default site-space promotes the next one of its container (the
 * previous one when it was the last).
 */

/** Make `row` the default site-space of its container (and no other). */
export function setDefaultSiteSpace(ctx: Context, row: SiteSpaceRow): SiteSpaceRow {
  for (const other of siteSpacesOf(ctx, row.site, row.section)) {
    if (other.default && other.id !== row.id) ctx.tx.update('siteSpaces', { ...other, default: false })
  }
  return row.default ? row : ctx.tx.update('siteSpaces', { ...row, default: true })
}

/** Make `row` the site's default section (and no other). */
export function setDefaultSection(ctx: Context, row: SiteSectionRow): SiteSectionRow {
  for (const { row: other } of ctx.tx.scan('siteSections', 'bySite', row.site)) {
    if (other.default && other.id !== row.id) ctx.tx.update('siteSections', { ...other, default: false })
  }
  return row.default ? row : ctx.tx.update('siteSections', { ...row, default: true })
}

/** When a site has sections but no default, the first in structure order becomes the default. */
export function promoteDefaultSection(ctx: Context, site: string): void {
  let first: SiteSectionRow | undefined
  let hasDefault = false
  walk(ctx, site, (node) => {
    if (node.kind !== 'section') return
    first ??= node.row
    if (node.row.default) hasDefault = true
  })
  if (first && !hasDefault) ctx.tx.update('siteSections', { ...first, default: true })
}

/** Remove a site-space (with what it owns: its customization); when it was its container's default, the next one takes over. */
export function removeSiteSpace(ctx: Context, row: SiteSpaceRow): void {
  // Promoting "the first remaining" would hand the default back to the top of the container
  // when it sat lower down: take its neighbour instead (the next one, else the previous one).
  const siblings = row.default ? siteSpacesOf(ctx, row.site, row.section) : []
  const at = siblings.findIndex((s) => s.id === row.id)
  removeRow(ctx, 'siteSpaces', row.id)
  const heir = siblings[at + 1] ?? siblings[at - 1]
  if (row.default && heir) ctx.tx.update('siteSpaces', { ...heir, default: true })
}

/**
 * Take a space out of every site (when it is purged, or leaves its organization): sites publish
 * only spaces of their own organization.
 */
export function removeSpaceFromSites(ctx: Context, space: string): void {
  for (const { row } of ctx.tx.scan('siteSpaces', 'bySpace', space)) removeSiteSpace(ctx, row)
}
