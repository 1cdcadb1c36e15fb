import type { SearchOptions, SearchResult } from 'minisearch'
import type { Warm } from '../context.js'
import type { AppSchema } from '../schema.js'
import type { ReadTx } from '../../storage/port.js'
import type { SpaceRow } from '../spaces/rows.js'
import { ContentIndex, DocRefs, type DocRef, type IndexStats } from './content-index.js'
import { NEAR_MISS_BELOW, NEAR_MISSES } from './terms.js'

export type { DocRef, IndexedPage, IndexStats } from './content-index.js'

/**
 * The search indexes of one organization, each holding only what every caller it serves may read
 * (content-index.ts says why that matters to scores):
 *
 * - one index per space: a space's search, a guest's organization search (his spaces' indexes,
 *   their rankings merged by score), Ask (the site's spaces', merged the same way). A page's
 *   score is measured against its own space, the same in every search that shows it this way;
 * - one index of every live space, built on the first organization search of a member with a
 *   role: he reads every space, so his search ranks the whole organization as one collection
 *   (scores compare across spaces), as fast as one index answers.
 *
 * The indexes holding a space are brought up to date by the next search of it (the same bucket
 * comparison in each), so after a merge each does the work of the pages it changed, once.
 * Document ids come from one registry, so results of any index say which page and section they
 * are.
 */
/** What bringing indexes up to date needs of a request: reads, and a warm-up when there is indexing to do (Context has both). */
export interface SyncContext {
  readonly tx: ReadTx<AppSchema>
  beforehand(warm: Warm): void
}

export class OrganizationIndex {
  private readonly refs = new DocRefs()
  private readonly spaces = new Map<string, ContentIndex>()
  private whole: ContentIndex | undefined

  constructor(private readonly stats: IndexStats) {}

  /** The page or section a document of a search result stands for. */
  ref(id: number): DocRef {
    return this.refs.get(id)
  }

  /**
   * Bring live spaces of the organization to their current revision in their own indexes (built
   * on their first search) and, once built, in the index of every live space: a merge is indexed
   * once per index, by the first search after it. When there is anything to index, the request
   * warms up first (ctx.beforehand: the indexing runs in slices outside its transaction, and the
   * search runs again); here, the rest, if any, is indexed inline.
   */
  sync(ctx: SyncContext, spaces: readonly SpaceRow[]): void {
    const stale = spaces.filter((space) => !this.indexOf(space.id).fresh(ctx.tx, space) || (this.whole !== undefined && !this.whole.fresh(ctx.tx, space)))
    if (stale.length === 0) return
    ctx.beforehand(async (env) => {
      for (const space of stale) {
        await this.indexOf(space.id).warm(env, space.id)
        await this.whole?.warm(env, space.id)
      }
    })
    for (const space of stale) {
      this.indexOf(space.id).sync(ctx.tx, space)
      this.whole?.sync(ctx.tx, space)
    }
  }

  /** A space's own index (made empty on first use). */
  private indexOf(spaceId: string): ContentIndex {
    let index = this.spaces.get(spaceId)
    if (!index) this.spaces.set(spaceId, (index = new ContentIndex(this.refs, this.stats)))
    return index
  }

  /** Bring the index of every live space up to date (built on first use, warmed up as `sync` does); forget spaces no longer live here. */
  syncWhole(ctx: SyncContext, organization: string): void {
    const whole = (this.whole ??= new ContentIndex(this.refs, this.stats))
    const stale = [...this.forgetDead(ctx.tx, organization).values()].filter((space) => !whole.fresh(ctx.tx, space))
    if (stale.length === 0) return
    ctx.beforehand(async (env) => {
      for (const space of stale) await whole.warm(env, space.id)
    })
    for (const space of stale) whole.sync(ctx.tx, space)
  }

  /**
   * The live spaces of the organization, after forgetting, in every index, spaces that are no
   * longer live in it (trashed, purged, transferred): searches never read them, and their
   * documents would stay in memory.
   */
  forgetDead(tx: ReadTx<AppSchema>, organization: string): Map<string, SpaceRow> {
    const live = new Map<string, SpaceRow>()
    for (const { row } of tx.scan('spaces', 'byOrganization', organization)) live.set(row.id, row)
    for (const [id, index] of [...this.spaces]) {
      if (live.has(id)) continue
      index.release()
      this.spaces.delete(id)
    }
    if (this.whole) for (const id of [...this.whole.holds()]) if (!live.has(id)) this.whole.drop(id)
    return live
  }

  /**
   * Documents matching `query` in `spaces` (each synced before), each space searched in its own
   * index, best first: those holding any of its terms, or with `every`, those holding all of
   * them (none when no document does); near misses too when the spaces together match fewer than
   * NEAR_MISS_BELOW documents as typed. Results are merged by score; ties keep the order of the
   * spaces as named, then each index's order.
   */
  searchSpaces(query: string, spaces: Iterable<string>, every = false): SearchResult[] {
    const indexes: ContentIndex[] = []
    for (const id of spaces) {
      const index = this.spaces.get(id)
      if (index) indexes.push(index)
    }
    return nearMissesIfFew((options) => merge(indexes.map((index) => index.search(query, options))), every)
  }

  /** Documents matching `query` in the index of every live space (synced before: `syncWhole`), best first. */
  searchWhole(query: string): SearchResult[] {
    const whole = this.whole!
    return nearMissesIfFew((options) => whole.search(query, options), false)
  }
}

/** A search as typed, then with near misses when it matched fewer than NEAR_MISS_BELOW documents. */
function nearMissesIfFew(search: (options: SearchOptions) => SearchResult[], every: boolean): SearchResult[] {
  const options: SearchOptions = every ? { combineWith: 'AND' } : {}
  const found = search(options)
  return found.length >= NEAR_MISS_BELOW ? found : search({ ...options, ...NEAR_MISSES })
}

/** Lists each sorted best first, merged best first; a stable sort keeps ties in list order. */
function merge(lists: SearchResult[][]): SearchResult[] {
  const nonEmpty = lists.filter((list) => list.length > 0)
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? []
  return nonEmpty.flat().sort((a, b) => b.score - a.score)
}
