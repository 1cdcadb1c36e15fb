import type { z } from 'zod'
import type { ReadContext as Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { memberRole } from '../access/levels.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteSpaceRow } from '../site-structure/rows.js'
import { hasSections, isPublishedSiteSpace, siteSpacesInOrder, siteSpacesOf, walk } from '../site-structure/tree.js'
import type { SiteSearchScopeSchema } from './schemas.js'

type Scope = z.output<typeof SiteSearchScopeSchema>

/** A site-space of the site by id, or a 400 naming the field (the body names it). */
function siteSpaceOf(ctx: Context, site: SiteRow, id: string, field: string): SiteSpaceRow {
  const row = ctx.tx.get('siteSpaces', id)
  if (!row || row.site !== site.id) throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}\`: no site-space ${id} in this site`)
  return row
}

/** The default content of a site: each section's default site-space in structure order, or the root's default. */
function defaultContent(ctx: Context, site: SiteRow): SiteSpaceRow[] {
  if (!hasSections(ctx, site.id)) return siteSpacesOf(ctx, site.id, undefined).filter((r) => r.default)
  const out: SiteSpaceRow[] = []
  walk(ctx, site.id, (node) => {
    if (node.kind === 'section') out.push(...siteSpacesOf(ctx, site.id, node.id).filter((r) => r.default))
  })
  return out
}

/**
 * The site-spaces a question is asked of, by the official scope: `default` is each section's
 * default content (the site's default site-space without sections) with `currentSiteSpace`
 * added, or, with `restrictTo`, only that one or only the others; `specific` the ones named;
 * `all` every one. Of those, only what the site publishes counts: a hidden site-space or one of a
 * trashed space is left out (as from the published profile). Ids that are not site-spaces of the
 * site are a 400 naming the field.
 *
 * The site itself need not be published yet for members with a role (POLICY.site.ask): they
 * preview what it would publish, as they get its published profile before it is published
 * (site-structure/published.ts); a site token's visitor asks only while it is published (its
 * grant holds). Publishing changes nothing in what is searched.
 */
export function siteSpacesInScope(ctx: Context, site: SiteRow, scope: Scope): SiteSpaceRow[] {
  let rows: SiteSpaceRow[]
  if (scope.mode === 'all') rows = siteSpacesInOrder(ctx, site.id).map((e) => e.row)
  else if (scope.mode === 'specific') rows = scope.siteSpaceIds.map((id, i) => siteSpaceOf(ctx, site, id, `scope.siteSpaceIds[${i}]`))
  else {
    const current = scope.currentSiteSpace === undefined ? undefined : siteSpaceOf(ctx, site, scope.currentSiteSpace, 'scope.currentSiteSpace')
    const defaults = defaultContent(ctx, site)
    if (scope.restrictTo === 'currentSiteSpace') rows = [current!]
    else if (scope.restrictTo === 'otherSiteSpaces') rows = defaults.filter((r) => r.id !== current!.id)
    else rows = current && !defaults.some((r) => r.id === current.id) ? [current, ...defaults] : defaults
  }
  return rows.filter((r) => isPublishedSiteSpace(ctx, r))
}

/**
 * The site-spaces the recommended questions come from: the one named (`siteSpaceId`, or those
 * publishing `spaceId`, the deprecated form), else the site's default content; of those, what
 * the site publishes. An id that is not of the site is a 400 naming the query parameter.
 */
export function siteSpacesForQuestions(ctx: Context, site: SiteRow, query: { siteSpaceId?: string | undefined; spaceId?: string | undefined }): SiteSpaceRow[] {
  let rows: SiteSpaceRow[]
  if (query.siteSpaceId !== undefined) {
    const row = ctx.tx.get('siteSpaces', query.siteSpaceId)
    if (!row || row.site !== site.id)
      throw new ApiError('BAD_REQUEST', `Invalid request: query parameter \`siteSpaceId\`: no site-space ${query.siteSpaceId} in this site`)
    rows = [row]
  } else if (query.spaceId !== undefined) {
    rows = siteSpacesInOrder(ctx, site.id)
      .map((e) => e.row)
      .filter((r) => r.space === query.spaceId)
    if (rows.length === 0) throw new ApiError('BAD_REQUEST', `Invalid request: query parameter \`spaceId\`: the site publishes no space ${query.spaceId}`)
  } else rows = defaultContent(ctx, site)
  return rows.filter((r) => isPublishedSiteSpace(ctx, r))
}

/**
 * The spaces of an organization a caller asks questions of (Ask in an organization): those he
 * finds in its search. A member with a role reads every live space; anyone else the spaces a
 * grant gives him (POLICY.space.searchInOrganization), never a space open to him only as a
 * visitor (public, unlisted, a site token's): that one he asks through its site. In the
 * organization's order of spaces (by id), so answers and questions are deterministic.
 */
export function organizationSpaces(ctx: Context, organization: string): string[] {
  const live = [...ctx.tx.scan('spaces', 'byOrganization', organization)].map(({ row }) => row.id).sort()
  if (memberRole(ctx.tx, organization, ctx.actor.user)) return live
  return live.filter((id) => ctx.access.can('space', id, 'searchInOrganization'))
}
