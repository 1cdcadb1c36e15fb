import type { Context } from '../../core/context.js'
import { ApiError } from '../../core/errors.js'
import { decodeCursor, mapPage, paginate, type PageQuery } from '../../core/paging.js'
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
 * Page over a ranking by position: the cursor is the 1-based position of the last item served.
 * A ranking is made again for each request, so a page follows the ranking of its own moment.
 */
function pageOfRanking<T>(items: readonly T[], query: PageQuery) {
  if (query.page) {
    const key = decodeCursor(query.page)
    if (key.length !== 1 || typeof key[0] !== 'number') throw new ApiError('BAD_REQUEST', 'Invalid query parameter `page`: not a cursor of this list')
  }
  return paginate(
    items.map((item, i) => ({ item, position: i + 1 })),
    (e) => [e.position],
    query,
  )
}

/**
 * Pages of `spaces` (live spaces of `organization`, each brought up to date first) matching
 * `query`, ranked. With `preferAll`, documents holding every term of the query, when there are
 * any, are the only ones ranked (a question's passages: a section about all it asks beats a title
 * that shares one word with it); otherwise, and for searches, any term matches.
 */
export function rankIn(ctx: Context, organization: string, spaces: ReadonlySet<string>, query: string, preferAll = false): PageHit[] {
  const index = ctx.services.search.of(organization)
  for (const id of spaces) index.sync(ctx.tx, ctx.tx.get('spaces', id)!)
  const all = preferAll ? index.search(query, spaces, true) : []
  return rankPages(index, all.length > 0 ? all : index.search(query, spaces))
}

/** `searchSpaceContent`: the pages of a live space matching `query`, best first. */
export function searchSpace(ctx: Context, spaceId: string, query: SearchQuery) {
  const space = getSpace(ctx, spaceId)
  const hits = rankIn(ctx, space.organization, new Set([space.id]), query.query)
  const revisions: Revisions = new Map()
  return mapPage(pageOfRanking(hits, query), ({ item }) => encodePageHit(ctx, revisions, item))
}

/**
 * The spaces of an organization a caller finds in its search: those he is a member of, through
 * his role in the organization (every space) or a grant on the space (a guest: only what he was
 * invited to). A space open to him only as a visitor (public, unlisted) is searched through its
 * own search, not the organization's (POLICY.space.searchInOrganization).
 */
function searchableSpaces(ctx: Context, organization: string): Set<string> {
  const role = memberRole(ctx.tx, organization, ctx.actor.user)
  const out = new Set<string>()
  for (const { row } of ctx.tx.scan('spaces', 'byOrganization', organization)) {
    if (role || ctx.access.can('space', row.id, 'searchInOrganization')) out.add(row.id)
  }
  return out
}

/** `searchOrganizationContent`: spaces with their matching pages, spaces ordered by their best page. */
export function searchOrganization(ctx: Context, organization: string, query: SearchQuery) {
  const index = ctx.services.search.of(organization)
  // The whole organization is brought up to date (and spaces no longer live in it forgotten), the
  // caller's spaces searched.
  index.syncAll(ctx.tx, organization)
  const spaces = searchableSpaces(ctx, organization)
  // After syncAll the index holds live spaces only: a member with a role searches them all.
  const groups = groupBySpace(rankPages(index, index.search(query.query, index.holdsOnly(spaces) ? 'all' : spaces)))
  const revisions: Revisions = new Map()
  return mapPage(pageOfRanking(groups, query), ({ item }) => encodeSpaceHit(ctx, revisions, { ...item, pages: item.pages.slice(0, PAGES_PER_SPACE) }))
}
