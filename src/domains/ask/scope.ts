import type { ReadContext as Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { visitorOf } from '../common/expressions.js'
import { memberRole } from '../access/levels.js'
import type { SiteRow } from '../sites/rows.js'
import type { SiteSpaceRow } from '../site-structure/rows.js'
import { siteSpacesInOrder } from '../site-structure/tree.js'
import { defaultContent, shownTo } from '../search/site-scope.js'

/**
 * The site-spaces the recommended questions come from: the one named (`siteSpaceId`, or those
 * publishing `spaceId`, the deprecated form), else the site's default content; of those, what
 * the site shows the caller (as site search: published, and for a site token's visitor, their
 * conditions holding). An id that is not of the site is a 400 naming the query parameter.
 */
export function siteSpacesForQuestions(ctx: Context, site: SiteRow, query: { siteSpaceId?: string | undefined; spaceId?: string | undefined }): SiteSpaceRow[] {
  const shown = shownTo(ctx, ctx.actor.content && visitorOf(ctx.actor))
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
  } else return defaultContent(ctx, site, shown)
  return rows.filter(shown)
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
