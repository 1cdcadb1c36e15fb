import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch'
import type { AppSchema, ReadTx, SpaceRow } from '../../storage/schema.js'
import { findRevision } from '../content/revision.js'
import { FANOUT } from '../content/tree-index.js'
import { pageSections } from './sections.js'
import type { PageHit } from './ranking.js'
import { INDEX_OPTIONS, NEAR_MISS_BELOW, NEAR_MISSES } from './terms.js'

/**
 * The full-text index of one organization's main content (MiniSearch: BM25 ranking, prefix and
 * fuzzy matching, incremental add and discard). One document per page (its title and description)
 * and one per section of its body (sections.ts). Only what the store holds now is indexed: each
 * space is brought to its current revision (`space.revision`) before it is searched, so change
 * requests are never indexed, and a merge, a rollback of the store (`api.restore`), a duplicate or
 * a purge shows at the next search.
 *
 * Bringing a space up to date is incremental. A revision's pages sit in 64 immutable bucket rows
 * (content/tree-index.ts); the index remembers, per space, the bucket ids and entries (page id →
 * page version id) it last indexed. Another revision is reached by comparing bucket ids: only in
 * buckets whose id changed are entries compared, and only pages whose version changed are
 * discarded and indexed again. A merge of 3 pages touches at most 3 buckets and reindexes 3
 * pages, whatever the number of pages in the space or the organization.
 */

/**
 * A page as indexed: one object shared by its documents, so results group by it. A ranking marks
 * it while it runs (ranking.ts): `ranking` is that ranking's number, `hit` its entry for the page.
 */
export interface IndexedPage {
  space: string
  page: string
  ranking?: number
  hit?: PageHit | undefined
}

/** What a document of the index stands for: a page (`section` -1) or one section of its body. */
export interface DocRef {
  of: IndexedPage
  section: number
}

/** What the index knows of one space: the revision's buckets it reflects, and the documents of each page. */
interface SpaceState {
  buckets: readonly string[]
  entries: Array<Readonly<Record<string, string>> | undefined>
  docs: Map<string, number[]>
}

interface IndexedDoc {
  id: number
  title?: string
  description?: string
  heading?: string
  body?: string
}

/** Counts of the work done, for tests and the bench (a merge of 3 pages indexes 3 pages). */
export interface IndexStats {
  pagesIndexed: number
  pagesRemoved: number
}

const NO_BUCKETS: readonly string[] = Object.freeze([])

export class OrganizationIndex {
  private readonly mini = new MiniSearch<IndexedDoc>(INDEX_OPTIONS)
  /**
   * Documents by id. Ids are small integers, reused once their document is discarded (MiniSearch
   * takes a discarded id again), so this array is as long as the most documents held at once.
   */
  private readonly refs: Array<DocRef | undefined> = []
  private readonly freeIds: number[] = []
  private readonly spaces = new Map<string, SpaceState>()

  constructor(private readonly stats: IndexStats) {}

  /** The page or section a document of a search result stands for. */
  ref(id: number): DocRef {
    return this.refs[id]!
  }

  /** Bring a live space of the organization to its current revision. */
  sync(tx: ReadTx<AppSchema>, space: SpaceRow): void {
    const rev = findRevision(tx, space, space.revision)
    const buckets = rev?.buckets ?? NO_BUCKETS
    let state = this.spaces.get(space.id)
    if (!state) this.spaces.set(space.id, (state = { buckets: NO_BUCKETS, entries: [], docs: new Map() }))
    if (state.buckets === buckets) return
    for (let b = 0; b < FANOUT; b++) {
      const before = state.buckets[b] ?? ''
      const after = buckets[b] ?? ''
      if (before === after) continue
      const old = state.entries[b]
      const now = after === '' ? undefined : tx.get('contentBuckets', after)?.entries
      if (old) for (const page in old) if (!now || !(page in now)) this.removePage(state, page)
      if (now) for (const page in now) if (old?.[page] !== now[page]) this.indexPage(tx, state, space.id, page, now[page]!)
      state.entries[b] = now
    }
    state.buckets = buckets
  }

  /**
   * Bring every live space of the organization up to date, and forget spaces that are no longer
   * live in it (trashed, purged, transferred).
   */
  syncAll(tx: ReadTx<AppSchema>, organization: string): void {
    const live = new Set<string>()
    for (const { row } of tx.scan('spaces', 'byOrganization', organization)) {
      live.add(row.id)
      this.sync(tx, row)
    }
    for (const id of [...this.spaces.keys()]) if (!live.has(id)) this.drop(id)
  }

  /** Forget a space's documents. */
  drop(spaceId: string): void {
    const state = this.spaces.get(spaceId)
    if (!state) return
    for (const page of [...state.docs.keys()]) this.removePage(state, page)
    this.spaces.delete(spaceId)
  }

  /**
   * Documents matching `query` in the spaces `accept` names (or all), best first: those holding
   * any of its terms, or with `every`, those holding all of them (none when no document does);
   * near misses too when few documents match the words as typed (terms.ts).
   */
  search(query: string, accept: ReadonlySet<string> | 'all', every = false): SearchResult[] {
    // A document boost of 0 skips a document before it is scored (a filter would run after every
    // document of the organization was scored): a space's search costs what its own matches cost.
    const boostDocument = accept === 'all' ? undefined : (id: number) => (accept.has(this.refs[id]!.of.space) ? 1 : 0)
    const options: SearchOptions = { ...(boostDocument && { boostDocument }), ...(every && { combineWith: 'AND' as const }) }
    const found = this.mini.search(query, options)
    return found.length >= NEAR_MISS_BELOW ? found : this.mini.search(query, { ...options, ...NEAR_MISSES })
  }

  /** Whether every space the index holds is in `spaces` (then a search needs no per-document check). */
  holdsOnly(spaces: ReadonlySet<string>): boolean {
    for (const id of this.spaces.keys()) if (!spaces.has(id)) return false
    return true
  }

  private removePage(state: SpaceState, page: string): void {
    const ids = state.docs.get(page)
    if (!ids) return
    this.mini.discardAll(ids)
    for (const id of ids) {
      this.refs[id] = undefined
      this.freeIds.push(id)
    }
    state.docs.delete(page)
    this.stats.pagesRemoved++
  }

  /** Index a page version (a `noIndex` page and a link page are left out: a link has no content of its own). */
  private indexPage(tx: ReadTx<AppSchema>, state: SpaceState, space: string, page: string, versionId: string): void {
    this.removePage(state, page)
    const version = tx.get('pageVersions', versionId)
    if (!version || version.noIndex === true || version.type === 'link') return
    const ids: number[] = []
    const of: IndexedPage = { space, page }
    const add = (doc: Omit<IndexedDoc, 'id'>, section: number) => {
      const id = this.freeIds.pop() ?? this.refs.length
      this.refs[id] = { of, section }
      this.mini.add({ id, ...doc })
      ids.push(id)
    }
    add({ title: version.title, description: version.description }, -1)
    pageSections(version).forEach((s, i) => add({ heading: s.anchor === undefined ? undefined : s.title, body: s.text }, i))
    state.docs.set(page, ids)
    this.stats.pagesIndexed++
  }
}
