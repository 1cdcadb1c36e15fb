import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch'
import type { WarmEnv } from '../context.js'
import type { AppSchema } from '../schema.js'
import type { PageVersionRow } from '../content/rows.js'
import type { ReadTx } from '../../storage/port.js'
import type { SpaceRow } from '../spaces/rows.js'
import { findRevision } from '../content/revision.js'
import { FANOUT } from '../content/tree-index.js'
import type { PageHit } from './ranking.js'
import { pageSections } from './sections.js'
import { INDEX_OPTIONS } from './terms.js'

/**
 * A full-text index of main content (MiniSearch: BM25 ranking, prefix and fuzzy matching,
 * incremental add and discard): one space's (its own index), or every live space of an
 * organization (organization-index.ts says which serves whom). One document per page (its title
 * and description) and one per section of its body (sections.ts).
 *
 * BM25 weighs a word by how many documents of the index hold it and a document by its length
 * against the index's average: every document of an index moves the scores of the others. So an
 * index holds only what every caller it serves may read (never a space he cannot read).
 *
 * Only what the store holds now is indexed: a space is brought to its current revision
 * (`space.revision`) before it is searched, so change requests are never indexed, and a merge, a
 * rollback of the store (`api.restore`), a duplicate or a purge shows at the next search.
 *
 * Bringing a space up to date is incremental. A revision's pages sit in 64 immutable bucket rows
 * (content/tree-index.ts); the index remembers, per space, the bucket ids and entries (page id →
 * page version id) it last indexed. Another revision is reached by comparing bucket ids: only in
 * buckets whose id changed are entries compared, and only pages whose version changed are
 * discarded and indexed again. A merge of 3 pages touches at most 3 buckets and reindexes 3
 * pages, whatever the number of pages in the organization; comparing the entries of those
 * buckets costs about 3/64 of the space's pages, as the merge itself did writing them.
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

/** What a document of an index stands for: a page (`section` -1) or one section of its body. */
export interface DocRef {
  of: IndexedPage
  section: number
}

/**
 * Document ids shared by the indexes of an organization, so that results, merged from several,
 * still say which page and section each document is. Ids are small integers, reused once their
 * document is gone, so the array is as long as the most documents held at once.
 */
export class DocRefs {
  private readonly refs: Array<DocRef | undefined> = []
  private readonly free: number[] = []

  get(id: number): DocRef {
    return this.refs[id]!
  }

  add(ref: DocRef): number {
    const id = this.free.pop() ?? this.refs.length
    this.refs[id] = ref
    return id
  }

  release(id: number): void {
    this.refs[id] = undefined
    this.free.push(id)
  }
}

/**
 * A document as MiniSearch indexes it. Every field is present (empty when the page or section has
 * none): MiniSearch keeps each field's average length as a running figure, exact through adds and
 * removals only when every document has every field (a document without one shifts it for good).
 */
interface IndexedDoc {
  id: number
  title: string
  description: string
  heading: string
  body: string
}

/** The documents of a page version: the page itself (its title and description), then one per section. */
function documentsOf(version: PageVersionRow): Array<Omit<IndexedDoc, 'id'>> {
  const page = { title: version.title, description: version.description ?? '', heading: '', body: '' }
  return [page, ...pageSections(version).map((s) => ({ title: '', description: '', heading: s.anchor === undefined ? '' : s.title, body: s.text }))]
}

/** The documents of a page in an index: their ids (the page's own first, then its sections'), and the version they were made from. */
interface PageDocs {
  ids: number[]
  version: PageVersionRow
}

/** Counts of the work done, for tests and the bench (a merge of 3 pages indexes 3 pages). */
export interface IndexStats {
  pagesIndexed: number
  pagesRemoved: number
}

const NO_BUCKETS: readonly string[] = Object.freeze([])

/** What an index knows of one space: the revision's buckets it reflects, their entries, and the documents of each page. */
interface SpaceState {
  buckets: readonly string[]
  entries: Array<Readonly<Record<string, string>> | undefined>
  docs: Map<string, PageDocs>
}

export class ContentIndex {
  private readonly mini = new MiniSearch<IndexedDoc>(INDEX_OPTIONS)
  private readonly spaces = new Map<string, SpaceState>()

  constructor(
    private readonly refs: DocRefs,
    private readonly stats: IndexStats,
  ) {}

  /** The spaces the index holds. */
  holds(): IterableIterator<string> {
    return this.spaces.keys()
  }

  /** Whether the index holds the space at its current revision (nothing for `sync` to do). */
  fresh(tx: ReadTx<AppSchema>, space: SpaceRow): boolean {
    return this.spaces.get(space.id)?.buckets === (findRevision(tx, space, space.revision)?.buckets ?? NO_BUCKETS)
  }

  /**
   * `sync` in slices, each page read and indexed in a read transaction of its own, with a turn of
   * the event loop whenever the slice has run its budget (a warm-up before a search, see
   * core/warmup.ts): a search after a large merge does not hold the event loop while it indexes.
   * Progress is kept bucket by bucket, so a search between two slices finds the index consistent.
   * One warm-up per space at a time: another waits for it.
   */
  warm(env: WarmEnv, spaceId: string): Promise<void> {
    const running = this.warming.get(spaceId)
    if (running) return running
    const done = this.warmSpace(env, spaceId).finally(() => this.warming.delete(spaceId))
    this.warming.set(spaceId, done)
    return done
  }

  private readonly warming = new Map<string, Promise<void>>()

  private async warmSpace(env: WarmEnv, spaceId: string): Promise<void> {
    const buckets = env.read((tx) => {
      const space = tx.get('spaces', spaceId)
      return space && (findRevision(tx, space, space.revision)?.buckets ?? NO_BUCKETS)
    })
    if (!buckets) return
    let state = this.spaces.get(spaceId)
    if (!state) this.spaces.set(spaceId, (state = { buckets: NO_BUCKETS, entries: [], docs: new Map() }))
    if (state.buckets === buckets) return
    const { slicer } = env
    for (let b = 0; b < FANOUT; b++) {
      const before = state.buckets[b] ?? ''
      const after = buckets[b] ?? ''
      if (before === after) continue
      const old = state.entries[b]
      const now = after === '' ? undefined : env.read((tx) => tx.get('contentBuckets', after)?.entries)
      if (old) {
        for (const page in old) {
          if (now && page in now) continue
          this.removePage(state, page)
          if (slicer.due()) await slicer.maybeYield()
        }
      }
      if (now) {
        for (const page in now) {
          if (old?.[page] === now[page]) continue
          env.read((tx) => this.indexPage(tx, state, spaceId, page, now[page]!))
          if (slicer.due()) await slicer.maybeYield()
        }
      }
      state.entries[b] = now
      const progress = [...state.buckets]
      progress[b] = after
      state.buckets = progress
    }
    // Every bucket as the revision has it: the revision's own list, for the fast comparison.
    if (state.buckets.length === buckets.length && state.buckets.every((id, b) => id === buckets[b])) state.buckets = buckets
  }

  /** Bring a space's content in the index to the space's current revision. */
  sync(tx: ReadTx<AppSchema>, space: SpaceRow): void {
    const buckets = findRevision(tx, space, space.revision)?.buckets ?? NO_BUCKETS
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

  /** Forget a space's documents. */
  drop(spaceId: string): void {
    const state = this.spaces.get(spaceId)
    if (!state) return
    for (const page of [...state.docs.keys()]) this.removePage(state, page)
    this.spaces.delete(spaceId)
  }

  /** Give every document's id back, when the index itself is dropped (its documents go with it). */
  release(): void {
    for (const state of this.spaces.values()) for (const { ids } of state.docs.values()) for (const id of ids) this.refs.release(id)
    this.spaces.clear()
  }

  /** Documents matching `query`, best first (MiniSearch's order: score, then index order). */
  search(query: string, options: SearchOptions): SearchResult[] {
    return this.mini.search(query, options)
  }

  /**
   * Take a page's documents out. `remove` (given the documents as they were added), not
   * `discard`: a discarded document stays in the term lists until a vacuum and skews the scores
   * of the searches that meet it before then, so what a search answers would depend on what the
   * index once held, not only on what it holds.
   */
  private removePage(state: SpaceState, page: string): void {
    const docs = state.docs.get(page)
    if (!docs) return
    documentsOf(docs.version).forEach((doc, i) => this.mini.remove({ id: docs.ids[i]!, ...doc }))
    for (const id of docs.ids) this.refs.release(id)
    state.docs.delete(page)
    this.stats.pagesRemoved++
  }

  /** Index a page version (a `noIndex` page and a link page are left out: a link has no content of its own). */
  private indexPage(tx: ReadTx<AppSchema>, state: SpaceState, space: string, page: string, versionId: string): void {
    this.removePage(state, page)
    const version = tx.get('pageVersions', versionId)
    if (!version || version.noIndex === true || version.type === 'link') return
    const of: IndexedPage = { space, page }
    const ids = documentsOf(version).map((doc, section) => {
      const id = this.refs.add({ of, section: section - 1 })
      this.mini.add({ id, ...doc })
      return id
    })
    state.docs.set(page, { ids, version })
    this.stats.pagesIndexed++
  }
}
