import type { Context } from '../../core/context.js'
import type { PageVersionRow, RevisionRow } from '../../storage/schema.js'
import { pageIn } from './revision.js'
import { indexSet } from './tree-index.js'

/** A page's content and metadata, as a draft holds it before it becomes a version row. */
export type PageData = Omit<PageVersionRow, 'id'>

/**
 * The next revision being built from a base: pages set or removed, root order and files, held in
 * memory until `commit` writes the new page versions, the touched index buckets and the revision
 * row. Pages read through the draft see its own changes. Nothing is written before `commit`, so a
 * batch that fails halfway leaves no row behind (and the transaction would undo them anyway).
 */
export class RevisionDraft {
  private readonly pending = new Map<string, PageData | null>()
  private readonly order: string[] = []
  roots: readonly string[]
  files: readonly string[]
  /** The revision's variables (the base's unless replaced). */
  variables: RevisionRow['variables']

  constructor(
    private readonly ctx: Context,
    readonly base: RevisionRow,
  ) {
    this.roots = base.rootPages
    this.files = base.files
    this.variables = base.variables
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
    return this.pending.size > 0 || this.roots !== this.base.rootPages || this.files !== this.base.files || this.variables !== this.base.variables
  }

  /** The children of a page, or the root pages (parent undefined). */
  children(parent: string | undefined): readonly string[] {
    return parent === undefined ? this.roots : (this.get(parent)?.children ?? [])
  }

  setChildren(parent: string | undefined, children: readonly string[]): void {
    if (parent === undefined) this.roots = children
    else this.set(parent, { ...this.get(parent)!, children })
  }

  /** Whether `pageId` is `ancestor` or below it. */
  isWithin(pageId: string, ancestor: string): boolean {
    for (let p: string | undefined = pageId; p !== undefined; p = this.get(p)?.parent) if (p === ancestor) return true
    return false
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
    return this.ctx.tx.insert('revisions', row)
  }
}
