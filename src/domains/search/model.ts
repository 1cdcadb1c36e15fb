import type { ReadContext } from '../context.js'
import { mapPage, paginateList, type PageQuery } from '../../core/paging.js'
import { memberRole } from '../access/levels.js'
import { getSpace } from '../spaces/model.js'
import { encodePageHit, encodeSpaceHit, type Revisions } from './encode.js'
import { groupBySpace, rankPages, type PageHit } from './ranking.js'

/** Pages listed under each space of an organization search (the space's own search lists them all). */
export const PAGES_PER_SPACE = 3

export interface SearchQuery extends PageQuery {
  query: string
}

/**
 * Page over a ranking by position: the cursor is the 1-based position of the last item served (a
 * whole number from 1; any other is a 400 naming `page`). A ranking is made again for each
 * request, so a page follows the ranking of its own moment.
 */
const pageOfRanking = <T>(items: readonly T[], query: PageQuery) => paginateList(items, query, 1)

/**
 * Pages of `spaces` (live spaces of `organization`, each brought up to date first, each searched
 * in its own index) matching `query`, ranked. With `preferAll`, documents holding every term of
 * the query, when there are any, are the only ones ranked (a question's passages: a section
 * about all it asks beats a title that shares one word with it); otherwise, and for searches,
 * any term matches.
 */
export function rankIn(ctx: ReadContext, organization: string, spaces: ReadonlySet<string>, query: string, preferAll = false): PageHit[] {
  const index = ctx.services.search.of(organization)
  index.sync(
    ctx,
    [...spaces].map((id) => ctx.tx.get('spaces', id)!),
  )
  const all = preferAll ? index.searchSpaces(query, spaces, true) : []
  return rankPages(index, all.length > 0 ? all : index.searchSpaces(query, spaces))
}

/** `searchSpaceContent`: the pages of a live space matching `query`, best first (its own index: nothing else weighs on it). */
export function searchSpace(ctx: ReadContext, spaceId: string, query: SearchQuery) {
  const space = getSpace(ctx, spaceId)
  const hits = rankIn(ctx, space.organization, new Set([space.id]), query.query)
  const revisions: Revisions = new Map()
  return mapPage(pageOfRanking(hits, query), (item) => encodePageHit(ctx, revisions, item))
}

/**
 * The matching documents of the spaces of an organization a caller finds in its search: those he
 * is a member of. A member with a role reads every space: the index of every live space answers
 * him. A guest finds the spaces a grant gives him (his own or his team's), each searched in its
 * own index, so no other space weighs on his scores; never a space open to him only as a visitor
 * (public, unlisted), which he searches through its own search (POLICY.space.searchInOrganization).
 */
function searchMemberSpaces(ctx: ReadContext, organization: string, query: string) {
  const index = ctx.services.search.of(organization)
  if (memberRole(ctx.tx, organization, ctx.actor.user)) {
    index.syncWhole(ctx, organization)
    return index.searchWhole(query)
  }
  const spaces = [...index.forgetDead(ctx.tx, organization).values()].filter((space) => ctx.access.can('space', space.id, 'searchInOrganization'))
  index.sync(ctx, spaces)
  return index.searchSpaces(
    query,
    spaces.map((space) => space.id),
  )
}

/** `searchOrganizationContent`: spaces with their matching pages, spaces ordered by their best page. */
export function searchOrganization(ctx: ReadContext, organization: string, query: SearchQuery) {
  const groups = groupBySpace(rankPages(ctx.services.search.of(organization), searchMemberSpaces(ctx, organization, query.query)))
  const revisions: Revisions = new Map()
  return mapPage(pageOfRanking(groups, query), (item) => encodeSpaceHit(ctx, revisions, { ...item, pages: item.pages.slice(0, PAGES_PER_SPACE) }))
}
