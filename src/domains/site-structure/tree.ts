import type { Context, ReadContext } from '../context.js'
import type { SortKey } from '../../core/paging.js'
import { siteSpaceContainer, structureKey, type SiteSectionGroupRow, type SiteSectionRow, type SiteSpaceRow } from './rows.js'

/**
 * Reading a site's structure. Sections and groups of one container (the site's root or a group)
 * are siblings on one position scale; site-spaces are ordered within their section, or at the
 * site's root when the site has no sections. Positions come from one global sequence, so items
 * of two collections compare directly.
 */

/** A section or a group, as one sibling in a container. */
export type Node =
  { kind: 'section'; id: string; position: number; row: SiteSectionRow } | { kind: 'group'; id: string; position: number; row: SiteSectionGroupRow }

/** The sections and groups of a container (the site's root when `group` is undefined), in order. */
export function childrenOf(ctx: ReadContext, site: string, group: string | undefined): Node[] {
  const key = structureKey(site, group)
  const sections = ctx.tx.scan('siteSections', 'byContainer', key)
  const groups = ctx.tx.scan('siteSectionGroups', 'byContainer', key)
  const out: Node[] = []
  let i = 0
  let j = 0
  while (i < sections.length || j < groups.length) {
    const s = sections[i]
    const g = groups[j]
    if (s && (!g || s.order <= g.order)) {
      out.push({ kind: 'section', id: s.row.id, position: s.row.position, row: s.row })
      i++
    } else {
      out.push({ kind: 'group', id: g!.row.id, position: g!.row.position, row: g!.row })
      j++
    }
  }
  return out
}

/**
 * Write a section's or group's new position, and its new container when `group` is given
 * (null: the site's root).
 */
export function placeNode(ctx: Context, node: { kind: Node['kind']; id: string }, position: number, group?: string | null): void {
  const move = <R extends { position: number; sectionGroup?: string }>(row: R): R => {
    const next = { ...row, position }
    if (group === null) delete next.sectionGroup
    else if (group !== undefined) next.sectionGroup = group
    return next
  }
  if (node.kind === 'section') ctx.tx.update('siteSections', move(ctx.tx.get('siteSections', node.id)!))
  else ctx.tx.update('siteSectionGroups', move(ctx.tx.get('siteSectionGroups', node.id)!))
}

/** Visit every section and group of a site depth-first, in order, with its sort key (positions from the root). */
export function walk(ctx: ReadContext, site: string, visit: (node: Node, key: SortKey) => void): void {
  const go = (group: string | undefined, prefix: readonly number[], depth: number): void => {
    if (depth > 64) return
    for (const node of childrenOf(ctx, site, group)) {
      const key = [...prefix, node.position]
      visit(node, key)
      if (node.kind === 'group') go(node.id, key, depth + 1)
    }
  }
  go(undefined, [], 0)
}

export function hasSections(ctx: ReadContext, site: string): boolean {
  return ctx.tx.count('siteSections', 'bySite', site) > 0
}

/** The site's default section (undefined when it has no sections). */
export function defaultSection(ctx: Context, site: string): SiteSectionRow | undefined {
  return ctx.tx.scan('siteSections', 'bySite', site).find((e) => e.row.default)?.row
}

/** The site-spaces of a section (or of the site's root), in order. */
export function siteSpacesOf(ctx: ReadContext, site: string, section: string | undefined): SiteSpaceRow[] {
  return ctx.tx.scan('siteSpaces', 'byContainer', siteSpaceContainer({ site, ...(section !== undefined && { section }) })).map((e) => e.row)
}

/** Whether a site-space shows in the published view: not hidden, and its space not trashed. */
export function isPublishedSiteSpace(ctx: ReadContext, row: SiteSpaceRow): boolean {
  if (row.hidden) return false
  const space = ctx.tx.get('spaces', row.space)
  return space !== undefined && space.deletedAt === undefined
}

/** Every site-space of a site in structure order, each with its sort key. */
export function siteSpacesInOrder(ctx: ReadContext, site: string): Array<{ row: SiteSpaceRow; key: SortKey }> {
  const out: Array<{ row: SiteSpaceRow; key: SortKey }> = []
  if (!hasSections(ctx, site)) {
    for (const row of siteSpacesOf(ctx, site, undefined)) out.push({ row, key: [row.position] })
    return out
  }
  walk(ctx, site, (node, key) => {
    if (node.kind !== 'section') return
    for (const row of siteSpacesOf(ctx, site, node.id)) out.push({ row, key: [...key, row.position] })
  })
  return out
}

/** Whether `group` is `ancestor` or nested (at any depth) inside it. */
export function isWithinGroup(ctx: Context, group: string | undefined, ancestor: string): boolean {
  for (let g = group, depth = 0; g !== undefined && depth < 64; depth++) {
    if (g === ancestor) return true
    g = ctx.tx.get('siteSectionGroups', g)?.sectionGroup
  }
  return false
}
