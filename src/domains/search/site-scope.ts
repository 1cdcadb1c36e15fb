import type { z } from 'zod'
import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { evaluateCondition, visitorOf, type Visitor } from '../common/expressions.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteSpaceRow } from '../site-structure/rows.js'
import { hasSections, isPublishedSiteSpace, siteSpacesInOrder, siteSpacesOf, walk } from '../site-structure/tree.js'
import type { SiteSearchScopeSchema } from './schemas.js'

/** The official `SiteSearchScope`, as validated. */
export type SiteSearchScope = z.output<typeof SiteSearchScopeSchema>

/** A site-space of the site by id, or a 400 naming the field (the body names it). */
function siteSpaceOf(ctx: ReadContext, site: SiteRow, id: string, field: string): SiteSpaceRow {
  const row = ctx.tx.get('siteSpaces', id)
  if (!row || row.site !== site.id) throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: no site-space ${id} in this site`)
  return row
}

/**
 * Whether a site-space is shown to the caller: published (not hidden, its space not trashed)
 * and, for the visitor of a site token, its condition and its section's hold for the visitor's
 * claims (as a published URL opens it: published/resolve.ts). Members with a role have no
 * visitor: they see every variant, as in meta links.
 */
export function shownTo(ctx: ReadContext, visitor: Visitor | undefined) {
  const sectionShown = new Map<string, boolean>()
  const holds = (condition: string | undefined) => visitor === undefined || condition === undefined || evaluateCondition(condition, visitor)
  return (row: SiteSpaceRow): boolean => {
    if (!isPublishedSiteSpace(ctx, row) || !holds(row.condition)) return false
    if (row.section === undefined) return true
    let shown = sectionShown.get(row.section)
    if (shown === undefined) sectionShown.set(row.section, (shown = holds(ctx.tx.get('siteSections', row.section)?.condition)))
    return shown
  }
}

/**
 * The default content of a site as the caller sees it: for each section he sees, its default
 * site-space, or its first shown one when the default is not shown to him (as a URL naming the
 * section opens it); the site's own default without sections.
 */
export function defaultContent(ctx: ReadContext, site: SiteRow, shown: (row: SiteSpaceRow) => boolean): SiteSpaceRow[] {
  const pick = (section: string | undefined) => {
    const rows = siteSpacesOf(ctx, site.id, section).filter(shown)
    return rows.find((r) => r.default) ?? rows[0]
  }
  if (!hasSections(ctx, site.id)) {
    const row = pick(undefined)
    return row ? [row] : []
  }
  const out: SiteSpaceRow[] = []
  walk(ctx, site.id, (node) => {
    if (node.kind !== 'section') return
    const row = pick(node.id)
    if (row) out.push(row)
  })
  return out
}

/**
 * The site-spaces searched (or asked) by the official scope: `default` is each section's default
 * content (the site's default site-space without sections) with `currentSiteSpace` added, or,
 * with `restrictTo`, only that one or only the others; `specific` the ones named; `all` every
 * one. Of those, only what the site shows the caller counts: a hidden site-space, one of a
 * trashed space, and for a site token's visitor one whose condition (or its section's) does not
 * hold for his claims, are left out. Ids that are not site-spaces of the site are a 400 naming
 * the field (`fieldOf` names a field of the scope in the body).
 *
 * The site itself need not be published yet for members with a role (POLICY.site.ask,
 * site.search): they preview what it would publish, as they get its published profile before it
 * is published (site-structure/published.ts); a site token's visitor reads it only while it is
 * published (its grant holds). Publishing changes nothing in what is searched.
 */
export function siteSpacesInScope(
  ctx: ReadContext,
  site: SiteRow,
  scope: SiteSearchScope,
  fieldOf: (name: 'currentSiteSpace' | 'siteSpaceIds') => string = (name) => `scope.${name}`,
): SiteSpaceRow[] {
  const shown = shownTo(ctx, ctx.actor.content && visitorOf(ctx.actor))
  if (scope.mode === 'all')
    return siteSpacesInOrder(ctx, site.id)
      .map((e) => e.row)
      .filter(shown)
  if (scope.mode === 'specific') {
    const named = scope.siteSpaceIds.map((id, i) => siteSpaceOf(ctx, site, id, `${fieldOf('siteSpaceIds')}[${i}]`))
    return named.filter((row, i) => named.findIndex((r) => r.id === row.id) === i && shown(row))
  }
  const current = scope.currentSiteSpace === undefined ? undefined : siteSpaceOf(ctx, site, scope.currentSiteSpace, fieldOf('currentSiteSpace'))
  const defaults = defaultContent(ctx, site, shown)
  const currentShown = current && shown(current) ? [current] : []
  if (scope.restrictTo === 'currentSiteSpace') return currentShown
  if (scope.restrictTo === 'otherSiteSpaces') return defaults.filter((r) => r.id !== current!.id)
  return [...currentShown, ...defaults.filter((r) => r.id !== current?.id)]
}
