import { diff3Merge } from 'node-diff3'
import type { Context, ReadContext } from '../context.js'
import type { PageVersionRow, RevisionRow } from '../content/rows.js'
import { RevisionDraft, type PageData } from '../content/draft.js'
import { sameRedirects } from '../content/redirects.js'
import { blockIdentity, mergeDocuments } from '../content/merge-blocks.js'
import { pageIn } from '../content/revision.js'
import { FANOUT } from '../content/tree-index.js'

export interface MergeConflict {
  page: string
  reason: string
}

export type RevisionMerge = { ok: true; draft: RevisionDraft; fastForward?: RevisionRow } | { ok: false; conflicts: MergeConflict[] }

/** Metadata merged field by field: one side's change wins over the other's no-change. */
const FIELDS = ['type', 'title', 'slug', 'parent', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'condition'] as const

const ROOT = '\u0000root'

/**
 * Page ids whose version differs between two revisions. Buckets shared by both (same row id) are
 * skipped without reading them: the cost follows the pages the two sides touched, not the space.
 */
export function changedPages(tx: ReadContext['tx'], from: RevisionRow, to: RevisionRow): Set<string> {
  const out = new Set<string>()
  for (let b = 0; b < FANOUT; b++) {
    const x = from.buckets[b] ?? ''
    const y = to.buckets[b] ?? ''
    if (x === y) continue
    const ex = x === '' ? {} : tx.get('contentBuckets', x)!.entries
    const ey = y === '' ? {} : tx.get('contentBuckets', y)!.entries
    for (const key of Object.keys(ex)) if (ex[key] !== ey[key]) out.add(key)
    for (const key of Object.keys(ey)) if (ex[key] !== ey[key]) out.add(key)
  }
  return out
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b)

/** The three-way choice of one value: whichever side changed it; a conflict when both changed it differently. */
function pick<T>(base: T, ours: T, theirs: T): { ok: true; value: T } | { ok: false } {
  if (same(ours, base)) return { ok: true, value: theirs }
  if (same(theirs, base) || same(ours, theirs)) return { ok: true, value: ours }
  return { ok: false }
}

function sameDocument(a: PageVersionRow['document'], b: PageVersionRow['document']): boolean {
  if (a === b) return true
  if (a.nodes.length !== b.nodes.length || !same(a.data, b.data)) return false
  return a.nodes.every((n, i) => blockIdentity(n) === blockIdentity(b.nodes[i]!))
}

/** Merge of one page both sides changed (ours: main, theirs: the change request). */
function mergePage(base: PageVersionRow, ours: PageVersionRow, theirs: PageVersionRow, conflicts: MergeConflict[]): PageData | undefined {
  const out: Record<string, unknown> = { ...ours }
  let ok = true
  for (const key of FIELDS) {
    const r = pick(base[key], ours[key], theirs[key])
    if (!r.ok) {
      conflicts.push({ page: ours.page, reason: `both sides changed its ${key}` })
      ok = false
    } else if (r.value === undefined) delete out[key]
    else out[key] = r.value
  }
  if (!sameDocument(ours.document, theirs.document)) {
    if (sameDocument(base.document, ours.document)) out.document = theirs.document
    else if (!sameDocument(base.document, theirs.document)) {
      const merged = mergeDocuments(base.document, ours.document, theirs.document)
      if (merged.ok) out.document = merged.document
      else {
        conflicts.push({
          page: ours.page,
          reason: `both sides changed the same part of its content (${merged.conflicts.length} conflicting region${merged.conflicts.length > 1 ? 's' : ''})`,
        })
        ok = false
      }
    }
  }
  out.updatedAt = ours.updatedAt > theirs.updatedAt ? ours.updatedAt : theirs.updatedAt
  return ok ? (out as unknown as PageData) : undefined
}

/**
 * Whether a page is its own ancestor in the draft. Each side is a tree, but parents merged field
 * by field may not be: one side moves X under Y, the other Y under X. A cycle holds a page whose
 * parent the change request changed (all of main's parents form a tree), so checking the touched
 * pages finds every cycle; `seen` bounds the walk from a page that leads into a cycle without
 * being on it.
 */
function inCycle(draft: RevisionDraft, id: string): boolean {
  const seen = new Set<string>()
  for (let p = draft.get(id)?.parent; p !== undefined && !seen.has(p); p = draft.get(p)?.parent) {
    if (p === id) return true
    seen.add(p)
  }
  return false
}

/** Three-way merge of an ordered id list; where both sides reordered the same stretch, ours then theirs (nothing is lost: a list of the same pages). */
function mergeOrder(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] {
  const out: string[] = []
  for (const chunk of diff3Merge([...ours], [...base], [...theirs])) {
    if (chunk.ok) out.push(...chunk.ok)
    else if (chunk.conflict) out.push(...chunk.conflict.a, ...chunk.conflict.b)
  }
  return [...new Set(out)]
}

/**
 * The three-way merge of two revisions with their common ancestor: `ours` (main) and `theirs`
 * (a change request). Page by page: a page only one side touched takes that side's version;
 * a page both touched merges its metadata field by field and its body block by block
 * (merge-blocks.ts). A page edited on one side and deleted on the other, a field or a block
 * changed differently on both, a page left under a deleted parent, pages moved under each other
 * on the two sides or two siblings with one slug are conflicts: the merge then writes nothing and names them. Pages keep their ids.
 */
export function mergeRevisions(ctx: Context, base: RevisionRow, ours: RevisionRow, theirs: RevisionRow): RevisionMerge {
  const draft = new RevisionDraft(ctx, ours)
  if (ours.id === base.id) {
    // Main has not moved: the result is the change request's content as it is. (Not "the same
    // pages": main may have moved with files alone, which the merge below keeps.)
    return { ok: true, draft, fastForward: theirs }
  }
  const tx = ctx.tx
  const conflicts: MergeConflict[] = []
  const touched = changedPages(ctx.tx, base, theirs)
  const parents = new Set<string>()
  const addParent = (p: string | undefined) => parents.add(p ?? ROOT)
  if (base.rootPages !== theirs.rootPages) parents.add(ROOT)

  for (const id of touched) {
    const a = pageIn(tx, base, id)
    const m = pageIn(tx, ours, id)
    const c = pageIn(tx, theirs, id)
    for (const p of [a, m, c]) if (p) addParent(p.parent)
    parents.add(id)
    if (m?.id === a?.id) {
      if (c) draft.set(id, c)
      else if (m) draft.remove(id)
      continue
    }
    if (m?.id === c?.id) continue
    if (!a) conflicts.push({ page: id, reason: 'added on both sides' })
    else if (!m) conflicts.push({ page: id, reason: 'edited in the change request, deleted in the main content' })
    else if (!c) {
      if (m.id !== a.id) conflicts.push({ page: id, reason: 'deleted in the change request, edited in the main content' })
    } else {
      const merged = mergePage(a, m, c, conflicts)
      if (merged) draft.set(id, merged)
    }
  }

  // Rebuild the child lists the change request touched: each merged three ways, then made to agree
  // with the pages' merged parents (a page moved away leaves, one moved in joins at the end).
  const childrenIn = (rev: RevisionRow, parent: string) => (parent === ROOT ? rev.rootPages : (pageIn(tx, rev, parent)?.children ?? []))
  const wanted = new Map<string, string[]>()
  for (const parent of parents) {
    if (parent !== ROOT && !draft.has(parent)) continue
    // A list the change request left as it was (the same array: unchanged lists are shared
    // between revisions) is main's as it is: a page edited in place costs nothing among 10 or
    // 1,000 siblings. Pages moved, added or removed on its side change the list.
    if (childrenIn(base, parent) === childrenIn(theirs, parent)) continue
    const order = mergeOrder(childrenIn(base, parent), childrenIn(ours, parent), childrenIn(theirs, parent))
    const key = parent === ROOT ? undefined : parent
    wanted.set(
      parent,
      order.filter((id) => draft.has(id) && draft.get(id)!.parent === key),
    )
  }
  for (const id of touched) {
    const page = draft.get(id)
    if (!page) continue
    if (page.parent !== undefined && !draft.has(page.parent)) {
      conflicts.push({ page: id, reason: 'its parent page was deleted on the other side' })
      continue
    }
    if (inCycle(draft, id)) {
      conflicts.push({ page: id, reason: "the other side moved its new parent below it (the pages would be each other's subpages)" })
      continue
    }
    const list = wanted.get(page.parent ?? ROOT)
    if (list && !list.includes(id)) list.push(id)
  }
  // A slug the change request changed, under a parent whose list is not rebuilt: checked against
  // its siblings in the merged content (O(siblings), only for a renamed page).
  for (const id of touched) {
    const page = draft.get(id)
    const before = pageIn(tx, base, id)
    if (!page || !before || page.slug === before.slug || wanted.has(page.parent ?? ROOT)) continue
    for (const sibling of draft.children(page.parent)) {
      if (sibling !== id && draft.get(sibling)?.slug === page.slug)
        conflicts.push({ page: id, reason: `another page under the same parent has the slug "${page.slug}"` })
    }
  }
  for (const [parent, list] of wanted) {
    const slugs = new Set<string>()
    for (const id of list) {
      const slug = draft.get(id)!.slug
      if (slugs.has(slug)) conflicts.push({ page: id, reason: `another page under the same parent has the slug "${slug}"` })
      slugs.add(slug)
    }
    const key = parent === ROOT ? undefined : parent
    const now = draft.children(key)
    if (now.length !== list.length || now.some((id, i) => id !== list[i])) draft.setChildren(key, list)
  }
  if (theirs.files !== base.files) {
    const have = new Set(ours.files)
    const added = theirs.files.filter((f) => !have.has(f) && !base.files.includes(f))
    if (added.length > 0) draft.files = [...ours.files, ...added]
  }
  // The redirects (Git Sync's, content/redirects.ts) as a whole: the change request's when only it changed them.
  if (!sameRedirects(theirs.redirects, base.redirects) && sameRedirects(ours.redirects, base.redirects)) draft.redirects = theirs.redirects
  mergeReusableContents(ctx, base, ours, theirs, draft, conflicts)
  return conflicts.length > 0 ? { ok: false, conflicts } : { ok: true, draft }
}

/**
 * Reusable contents merged as pages are: one only the change request changed takes its version;
 * one both sides changed merges its title and its body block by block; edited on one side and
 * deleted on the other is a conflict (named by the reusable content's id, in `page`).
 */
function mergeReusableContents(
  ctx: Context,
  base: RevisionRow,
  ours: RevisionRow,
  theirs: RevisionRow,
  draft: RevisionDraft,
  conflicts: MergeConflict[],
): void {
  if (theirs.reusableContents === base.reusableContents) return
  const a = base.reusableContents ?? {}
  const m = ours.reusableContents ?? {}
  const c = theirs.reusableContents ?? {}
  const version = (record: Readonly<Record<string, string>>, id: string) => (Object.hasOwn(record, id) ? record[id] : undefined)
  const ids = new Set([...Object.keys(a), ...Object.keys(c)])
  for (const id of ids) {
    const va = version(a, id)
    const vm = version(m, id)
    const vc = version(c, id)
    if (va === vc || vm === vc) continue
    const theirsRow = vc === undefined ? undefined : ctx.tx.get('reusableContentVersions', vc)
    if (vm === va) {
      if (theirsRow) draft.setReusableContent(id, theirsRow)
      else draft.removeReusableContent(id)
      continue
    }
    const name = `reusable content "${id}"`
    if (va === undefined) conflicts.push({ page: id, reason: `${name} added on both sides` })
    else if (vm === undefined) conflicts.push({ page: id, reason: `${name} edited in the change request, deleted in the main content` })
    else if (!theirsRow) conflicts.push({ page: id, reason: `${name} deleted in the change request, edited in the main content` })
    else {
      const baseRow = ctx.tx.get('reusableContentVersions', va)!
      const oursRow = ctx.tx.get('reusableContentVersions', vm)!
      const title = pick(baseRow.title, oursRow.title, theirsRow.title)
      if (!title.ok) conflicts.push({ page: id, reason: `both sides changed the title of ${name}` })
      let document = oursRow.document
      if (!sameDocument(oursRow.document, theirsRow.document)) {
        if (sameDocument(baseRow.document, oursRow.document)) document = theirsRow.document
        else if (!sameDocument(baseRow.document, theirsRow.document)) {
          const merged = mergeDocuments(baseRow.document, oursRow.document, theirsRow.document)
          if (merged.ok) document = merged.document
          else conflicts.push({ page: id, reason: `both sides changed the same part of ${name}` })
        }
      }
      if (title.ok) {
        const updatedAt = oursRow.updatedAt > theirsRow.updatedAt ? oursRow.updatedAt : theirsRow.updatedAt
        draft.setReusableContent(id, { ...oursRow, title: title.value, document, updatedAt })
      }
    }
  }
}
