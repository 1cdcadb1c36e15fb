import type { Context } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { PageVersionRow, ReusableContentVersionRow, RevisionRow } from './rows.js'
import { MAX_REUSABLE_CONTENTS, reusableContentIn, reusableContentsOf } from './reusable.js'
import { pageIn } from './revision.js'
import { indexSet } from './tree-index.js'
import { keepRevisionSlugs, parentKey, revisionSlugs, type SlugCounts } from './sibling-slugs.js'

/** A page's content and metadata, as a draft holds it before it becomes a version row. */
export type PageData = Omit<PageVersionRow, 'id'>

/** A reusable content's title and body, as a draft holds it before it becomes a version row. */
export type ReusableContentData = Omit<ReusableContentVersionRow, 'id'>

/**
 * The next revision being built from a base: pages set or removed, root order and files, held in
 * memory until `commit` writes the new page versions, the touched index buckets and the revision
 * row. Pages read through the draft see its own changes. Nothing is written before `commit`, so a
 * batch that fails halfway leaves no row behind (and the transaction would undo them anyway).
 */
export class RevisionDraft {
  private readonly pending = new Map<string, PageData | null>()
  private readonly order: string[] = []
  /** Parents whose slugs were asked (their base counts), handed to the new revision on commit. */
  private readonly slugParents = new Map<string, { parent: string | undefined; base: SlugCounts }>()
  roots: readonly string[]
  files: readonly string[]
  /** The revision's variables (the base's unless replaced). */
  variables: RevisionRow['variables']
  /** The revision's redirects (the base's unless replaced; undefined for none). */
  redirects: RevisionRow['redirects']
  /** Reusable contents set (their data) or removed (null) by the draft, by id. */
  private readonly pendingReusable = new Map<string, ReusableContentData | null>()

  constructor(
    private readonly ctx: Context,
    readonly base: RevisionRow,
  ) {
    this.roots = base.rootPages
    this.files = base.files
    this.variables = base.variables
    this.redirects = base.redirects
  }

  get(pageId: string): PageData | undefined {
    const p = this.pending.get(pageId)
    if (p !== undefined) return p ?? undefined
    return pageIn(this.ctx.tx, this.base, pageId)
  }

  has(pageId: string): boolean {
    return this.get(pageId) !== undefined
  }

  set(pageId: string, data: PageData): void {
    this.touch(pageId)
    this.pending.set(pageId, data)
  }

  remove(pageId: string): void {
    this.touch(pageId)
    this.pending.set(pageId, null)
  }

  /** Page ids touched, in the order they were first touched. */
  touched(): readonly string[] {
    return this.order
  }

  get changed(): boolean {
    return (
      this.pending.size > 0 ||
      this.roots !== this.base.rootPages ||
      this.files !== this.base.files ||
      this.variables !== this.base.variables ||
      this.redirects !== this.base.redirects ||
      this.pendingReusable.size > 0
    )
  }

  /** The children of a page, or the root pages (parent undefined). */
  children(parent: string | undefined): readonly string[] {
    return parent === undefined ? this.roots : (this.get(parent)?.children ?? [])
  }

  setChildren(parent: string | undefined, children: readonly string[]): void {
    if (parent === undefined) this.roots = children
    else this.set(parent, { ...this.get(parent)!, children })
  }

  /**
   * The slugs taken among `parent`'s children as the draft stands, leaving out `self`'s: the base
   * revision's counts (kept per revision, see sibling-slugs.ts) adjusted by the pages the draft
   * touched. Costs O(pages touched), not O(siblings).
   */
  takenSlugs(parent: string | undefined, self?: string): { has(slug: string): boolean } {
    const { base, delta } = this.slugCounts(parent)
    const mine = self === undefined ? undefined : this.get(self)
    const own = mine && mine.parent === parent ? mine.slug : undefined
    return { has: (slug) => (base.get(slug) ?? 0) + (delta.get(slug) ?? 0) - (slug === own ? 1 : 0) > 0 }
  }

  /** Slug counts of `parent`'s children: the base revision's, and what the touched pages' moves, renames, inserts and removals change. */
  private slugCounts(parent: string | undefined): { base: SlugCounts; delta: Map<string, number> } {
    const key = parentKey(parent)
    let entry = this.slugParents.get(key)
    if (!entry) this.slugParents.set(key, (entry = { parent, base: revisionSlugs(this.ctx.tx, this.base, parent) }))
    const delta = new Map<string, number>()
    for (const [pageId, data] of this.pending) {
      const before = pageIn(this.ctx.tx, this.base, pageId)
      if (before && before.parent === parent) delta.set(before.slug, (delta.get(before.slug) ?? 0) - 1)
      if (data && data.parent === parent) delta.set(data.slug, (delta.get(data.slug) ?? 0) + 1)
    }
    return { base: entry.base, delta }
  }

  /** The path of a page of the draft (its ancestors' slugs and its own; '' for the root). */
  pathOf(pageId: string | undefined): string {
    const slugs: string[] = []
    for (let p = pageId === undefined ? undefined : this.get(pageId); p; p = p.parent === undefined ? undefined : this.get(p.parent)) slugs.push(p.slug)
    return slugs.reverse().join('/')
  }

  /** The page of the draft at `path` (slugs walked down from the root), or undefined. */
  byPath(path: string): string | undefined {
    let found: string | undefined
    for (const slug of path.split('/')) {
      const next: string | undefined = this.children(found).find((id) => this.get(id)?.slug === slug)
      if (next === undefined) return undefined
      found = next
    }
    return found
  }

  /** Whether `pageId` is `ancestor` or below it. */
  isWithin(pageId: string, ancestor: string): boolean {
    for (let p: string | undefined = pageId; p !== undefined; p = this.get(p)?.parent) if (p === ancestor) return true
    return false
  }

  /** A reusable content as the draft stands (its data: the base's version, or what the draft set). */
  reusableContent(id: string): ReusableContentData | undefined {
    const pending = this.pendingReusable.get(id)
    if (pending !== undefined) return pending ?? undefined
    return reusableContentIn(this.ctx.tx, this.base, id)
  }

  /** The ids of the draft's reusable contents, in creation order (the base's, then those the draft added). */
  reusableContentIds(): string[] {
    const ids = Object.keys(reusableContentsOf(this.base)).filter((id) => this.pendingReusable.get(id) !== null)
    for (const [id, data] of this.pendingReusable) if (data !== null && !Object.hasOwn(reusableContentsOf(this.base), id)) ids.push(id)
    return ids
  }

  setReusableContent(id: string, data: ReusableContentData): void {
    this.pendingReusable.set(id, data)
  }

  removeReusableContent(id: string): void {
    if (Object.hasOwn(reusableContentsOf(this.base), id)) this.pendingReusable.set(id, null)
    else this.pendingReusable.delete(id)
  }

  /** The new revision's reusable contents (a new version row per one set), or undefined when it holds none. */
  private commitReusableContents(): RevisionRow['reusableContents'] {
    if (this.pendingReusable.size === 0) return this.base.reusableContents
    const ids = this.reusableContentIds()
    if (ids.length > MAX_REUSABLE_CONTENTS)
      throw new ApiError(
        'BAD_REQUEST',
        `Invalid request: a revision holds at most ${MAX_REUSABLE_CONTENTS} reusable contents (this one would hold ${ids.length})`,
      )
    const out: Record<string, string> = {}
    for (const id of ids) {
      const data = this.pendingReusable.get(id)
      if (data) {
        const { id: _previous, ...fields } = data as ReusableContentData & { id?: string }
        out[id] = this.ctx.tx.insert('reusableContentVersions', { ...fields, reusableContent: id, space: this.base.space, id: this.ctx.newId() }).id
      } else out[id] = reusableContentsOf(this.base)[id]!
    }
    return ids.length === 0 ? undefined : out
  }

  private touch(pageId: string): void {
    if (!this.pending.has(pageId)) this.order.push(pageId)
  }

  /** Write the new revision (one version row per page set, one bucket per bucket touched). */
  commit(meta: Pick<RevisionRow, 'type' | 'parents'> & { mergedFrom?: string; changeRequest?: string; git?: RevisionRow['git'] }): RevisionRow {
    const changes = new Map<string, string | undefined>()
    for (const [pageId, data] of this.pending) {
      if (data === null) changes.set(pageId, undefined)
      else {
        // Data read from the base carries the old version's id: the new version gets its own.
        const { id: _previous, ...fields } = data as PageData & { id?: string }
        changes.set(pageId, this.ctx.tx.insert('pageVersions', { ...fields, id: this.ctx.newId() }).id)
      }
    }
    const row: RevisionRow = {
      id: this.ctx.newId(),
      space: this.base.space,
      parents: meta.parents,
      type: meta.type,
      createdAt: this.ctx.nowIso(),
      rootPages: this.roots,
      buckets: indexSet(this.ctx, this.base.buckets, changes),
      files: this.files,
      variables: this.variables,
    }
    if (meta.mergedFrom !== undefined) row.mergedFrom = meta.mergedFrom
    if (meta.changeRequest !== undefined) row.changeRequest = meta.changeRequest
    if (meta.git !== undefined) row.git = meta.git
    if (this.redirects !== undefined && Object.keys(this.redirects).length > 0) row.redirects = this.redirects
    const reusableContents = this.commitReusableContents()
    if (reusableContents !== undefined) row.reusableContents = reusableContents
    const stored = this.ctx.tx.insert('revisions', row)
    // The slug counts this draft worked out, as they stand in the new revision: the next edit
    // (a change request's next batch is based on it) finds them instead of reading the siblings.
    const counts = new Map<string, SlugCounts>()
    for (const [key, { parent }] of this.slugParents) {
      const { base, delta } = this.slugCounts(parent)
      const next = new Map(base)
      for (const [slug, n] of delta) {
        const total = (next.get(slug) ?? 0) + n
        if (total > 0) next.set(slug, total)
        else next.delete(slug)
      }
      counts.set(key, next)
    }
    keepRevisionSlugs(stored, counts)
    return stored
  }
}
