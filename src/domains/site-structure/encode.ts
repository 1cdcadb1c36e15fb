import type { ReadContext } from '../context.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteSectionGroupRow, SiteSectionRow, SiteSpaceRow } from './rows.js'
import { encodeSpace } from '../spaces/encode.js'
import { publishedUrl, requestShareKey } from '../sites/urls.js'
import type { SiteSectionGroupOut } from './schemas.js'
import { childrenOf, isPublishedSiteSpace, siteSpacesOf } from './tree.js'

/**
 * How structure is encoded for one request: the site (for URLs), the share key the URLs carry,
 * and whether this is the published view (hidden site-spaces and trashed spaces left out).
 */
export interface Scope {
  site: SiteRow
  shareKey?: string | undefined
  published?: boolean
}

export function scopeOf(ctx: ReadContext, site: SiteRow, published = false): Scope {
  return { site, shareKey: requestShareKey(ctx, site), published }
}

/** URL segments of a section: none for the default one (it sits at the site's URL). */
export function sectionSegments(section: SiteSectionRow | undefined): string[] {
  return section && !section.default ? [section.path] : []
}

/**
 * URL segments of a site-space below its site's URL: its section's (unless the default section)
 * and its own path (unless it is its container's default).
 */
export function siteSpaceSegments(ctx: ReadContext, row: SiteSpaceRow, section?: SiteSectionRow): string[] {
  const parent = section ?? (row.section ? ctx.tx.get('siteSections', row.section) : undefined)
  return [...sectionSegments(parent), ...(row.default ? [] : [row.path])]
}

function urls(ctx: ReadContext, scope: Scope, segments: string[]): { published?: string } {
  return scope.site.published ? { published: publishedUrl(ctx, scope.site, segments, scope.shareKey) } : {}
}

export function encodeSiteSpace(ctx: ReadContext, scope: Scope, row: SiteSpaceRow, section?: SiteSectionRow) {
  const space = ctx.tx.get('spaces', row.space)!
  return {
    object: 'site-space' as const,
    id: row.id,
    path: row.path,
    ...(row.section !== undefined && { section: row.section }),
    space: encodeSpace(ctx, space),
    title: row.title ?? space.title,
    default: row.default,
    draft: false,
    ...(row.condition !== undefined && { condition: row.condition }),
    hidden: row.hidden,
    urls: urls(ctx, scope, siteSpaceSegments(ctx, row, section)),
  }
}

export function encodeSiteSpaces(ctx: ReadContext, scope: Scope, rows: readonly SiteSpaceRow[], section?: SiteSectionRow) {
  const shown = scope.published ? rows.filter((r) => isPublishedSiteSpace(ctx, r)) : rows
  return shown.map((r) => encodeSiteSpace(ctx, scope, r, section))
}

export function encodeSection(ctx: ReadContext, scope: Scope, row: SiteSectionRow) {
  return {
    object: 'site-section' as const,
    id: row.id,
    title: row.title,
    ...(row.description !== undefined && { description: row.description }),
    default: row.default,
    draft: false,
    path: row.path,
    ...(row.condition !== undefined && { condition: row.condition }),
    ...(row.sectionGroup !== undefined && { sectionGroup: row.sectionGroup }),
    ...(row.icon !== undefined && { icon: row.icon }),
    siteSpaces: encodeSiteSpaces(ctx, scope, siteSpacesOf(ctx, row.site, row.id), row),
    urls: urls(ctx, scope, sectionSegments(row)),
  }
}

export type EncodedSection = ReturnType<typeof encodeSection>

/** A group with its children (sections and nested groups, in order). */
export function encodeGroup(ctx: ReadContext, scope: Scope, row: SiteSectionGroupRow, depth = 0): SiteSectionGroupOut {
  const children = depth > 64 ? [] : encodeChildren(ctx, scope, row.id, depth + 1)
  return {
    object: 'site-section-group',
    id: row.id,
    title: row.title,
    draft: false,
    ...(row.icon !== undefined && { icon: row.icon }),
    ...(row.sectionGroup !== undefined && { sectionGroup: row.sectionGroup }),
    sections: children.filter((c): c is EncodedSection => c.object === 'site-section'),
    children,
  }
}

/** The sections and groups of a container, encoded in order. */
export function encodeChildren(ctx: ReadContext, scope: Scope, group: string | undefined, depth = 0): Array<EncodedSection | SiteSectionGroupOut> {
  return childrenOf(ctx, scope.site.id, group).map((node) =>
    node.kind === 'section' ? encodeSection(ctx, scope, node.row) : encodeGroup(ctx, scope, node.row, depth),
  )
}

/** The structure of a site: its sections and groups, or its root site-spaces when it has none. */
export function encodeStructure(ctx: ReadContext, scope: Scope) {
  const site = scope.site.id
  if (ctx.tx.count('siteSections', 'bySite', site) > 0) {
    return { type: 'sections' as const, structure: encodeChildren(ctx, scope, undefined) }
  }
  return { type: 'siteSpaces' as const, structure: encodeSiteSpaces(ctx, scope, siteSpacesOf(ctx, site, undefined)) }
}
