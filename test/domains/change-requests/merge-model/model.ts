/**
 * The model of merge-model.test.ts: a plain tree of pages with paragraph lists, and the plain
 * three-way merge the API's merge must agree with.
 */

export interface MPage {
  id: string
  title: string
  slug: string
  parent: string | null
  children: string[]
  paras: string[]
}
export interface Tree {
  pages: Map<string, MPage>
  roots: string[]
}
/** A change request's content as the model has it, and the pages its edits wrote. */
export interface Side {
  tree: Tree
  touched: Set<string>
}
/** A page of a merge, without its subpage list (whose order has rules of its own). */
export type Merged = Omit<MPage, 'children'>
export type Conflict = { page: string; reason: string }
export type ModelMerge = { ok: true; pages: Map<string, Merged> } | { ok: false; conflicts: Conflict[] }

export const cloneTree = (t: Tree): Tree => ({
  roots: [...t.roots],
  pages: new Map([...t.pages].map(([id, p]) => [id, { ...p, children: [...p.children], paras: [...p.paras] }])),
})
export const childrenOf = (t: Tree, parent: string | null): string[] => (parent === null ? t.roots : (t.pages.get(parent)?.children ?? []))
export const setChildren = (t: Tree, parent: string | null, list: string[]) => {
  if (parent === null) t.roots = list
  else t.pages.get(parent)!.children = list
}
/** Pages in tree order. */
export function preorder(t: Tree): string[] {
  const out: string[] = []
  const walk = (ids: string[]) => ids.forEach((id) => (out.push(id), walk(t.pages.get(id)!.children)))
  walk(t.roots)
  return out
}
/** Whether `id` is `ancestor` or below it. */
export function within(t: Tree, id: string, ancestor: string): boolean {
  for (let p: string | null = id; p !== null; p = t.pages.get(p)!.parent) if (p === ancestor) return true
  return false
}
/** Put `id` at `at` (bounded, as the API bounds it) in `parent`'s list, or at its end. */
export function placeAt(t: Tree, parent: string | null, id: string, at: number | undefined) {
  const list = childrenOf(t, parent).filter((c) => c !== id)
  list.splice(at === undefined ? list.length : Math.min(at, list.length), 0, id)
  setChildren(t, parent, list)
}
/** Slugs as the API derives them from the titles the test uses ("Page a3" → page-a3). */
export const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
/** A slug made unique among siblings as the API does: `setup`, `setup-2`, `setup-3`... */
export function uniqueSlug(slug: string, taken: Set<string>): string {
  if (!taken.has(slug)) return slug
  for (let n = 2; ; n++) if (!taken.has(`${slug}-${n}`)) return `${slug}-${n}`
}
export const siblingSlugs = (t: Tree, parent: string | null, self?: string) =>
  new Set(childrenOf(t, parent).flatMap((id) => (id === self ? [] : [t.pages.get(id)!.slug])))
export const sameList = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v, i) => v === y[i])

/**
 * diff3 of paragraph lists whose paragraphs are unique (every edit writes a new one, so a side
 * keeps base paragraphs in their order): the merged list, or undefined on a conflict. A side's
 * changes are stretches [start, end) of the base, replaced or removed, with what it inserted
 * between two kept paragraphs. Stretches of both sides that overlap *or touch* make one region,
 * a conflict unless both sides give the same paragraphs there.
 */
export function mergeParagraphs(base: string[], a: string[], b: string[]): string[] | undefined {
  const at = new Map(base.map((p, i) => [p, i]))
  const stretches = (side: string[], tag: 'a' | 'b') => {
    const out: { tag: 'a' | 'b'; start: number; end: number }[] = []
    let prev = -1
    let inserted = 0
    for (const p of [...side, undefined]) {
      const i = p === undefined ? base.length : at.get(p)
      if (i === undefined) {
        inserted++
        continue
      }
      if (i > prev + 1 || inserted > 0) out.push({ tag, start: prev + 1, end: i })
      prev = i
      inserted = 0
    }
    return out
  }
  // A side's paragraphs between base[start - 1] and base[end], which both sides keep around a region.
  const between = (side: string[], start: number, end: number) => {
    const from = start === 0 ? 0 : side.indexOf(base[start - 1]!) + 1
    const to = end === base.length ? side.length : side.indexOf(base[end]!)
    return side.slice(from, to)
  }
  const all = [...stretches(a, 'a'), ...stretches(b, 'b')].sort((x, y) => x.start - y.start)
  const out: string[] = []
  let next = 0
  while (all.length) {
    const first = all.shift()!
    const region = { start: first.start, end: first.end, tags: new Set([first.tag]) }
    while (all.length && all[0]!.start <= region.end) {
      const s = all.shift()!
      region.end = Math.max(region.end, s.end)
      region.tags.add(s.tag)
    }
    out.push(...base.slice(next, region.start))
    const fromA = between(a, region.start, region.end)
    const fromB = between(b, region.start, region.end)
    if (region.tags.size === 2 && !sameList(fromA, fromB)) return undefined
    out.push(...(region.tags.has('a') ? fromA : fromB))
    next = region.end
  }
  out.push(...base.slice(next))
  return out
}

/** Whether a page is its own ancestor (`seen` bounds a walk into a cycle the page is not on). */
function onCycle(pages: Map<string, Merged>, id: string): boolean {
  const seen = new Set<string>()
  for (let p = pages.get(id)!.parent; p !== null && pages.has(p) && !seen.has(p); p = pages.get(p)!.parent) {
    if (p === id) return true
    seen.add(p)
  }
  return false
}

/**
 * The three-way merge of A (merged first: main) and B with their base, by the rules the
 * implementation claims (README "Content and change requests", merge.ts):
 * - A side *touched* a page when one of its edits wrote it: its body, title, place, or list of
 *   subpages (inserting, moving or deleting a subpage writes the parent). The merge compares
 *   page versions, not contents: a page touched and put back as it was (reverted, say) counts.
 * - A page only one side touched, added or deleted is that side's.
 * - A page touched on one side and deleted on the other is a conflict. Conservative: deleting a
 *   subpage of P on one side and P on the other is one, although both agree the subpage goes.
 * - A page both touched merges field by field (title, slug, parent: whichever side changed it; a
 *   conflict when both changed it differently) and its paragraphs by `mergeParagraphs`.
 *   Conservative, as git's line merge: editing two adjacent paragraphs, or adding one next to a
 *   paragraph the other side edited, is a conflict.
 * - The result must be a tree with unique sibling slugs: a page whose parent is gone, pages moved
 *   under each other on the two sides (a cycle), two siblings with one slug are conflicts.
 *   Conservative: both sides adding a "Setup" page under one parent is a conflict; the merge does
 *   not rename one of them `setup-2` as an edit within one change request would.
 * The order of subpages is checked apart (see expectMerged in the test).
 */
export function modelMerge(base: Tree, a: Side, b: Side): ModelMerge {
  const conflicts: Conflict[] = []
  const conflict = (page: string, reason: string) => conflicts.push({ page, reason })
  const pages = new Map<string, Merged>()
  for (const id of new Set([...base.pages.keys(), ...a.tree.pages.keys(), ...b.tree.pages.keys()])) {
    const o = base.pages.get(id)
    const pa = a.tree.pages.get(id)
    const pb = b.tree.pages.get(id)
    // Deleted or touched: changed on that side (a page not in the base was added by one side).
    const changedA = !pa || a.touched.has(id)
    const changedB = !pb || b.touched.has(id)
    const take = (p: MPage | undefined) => p && pages.set(id, { ...p })
    if (!o) take(pa ?? pb)
    else if (!changedB) take(pa)
    else if (!changedA) take(pb)
    else if (!pa && !pb) continue
    else if (!pa || !pb) conflict(id, 'touched on one side, deleted on the other')
    else {
      const page = { ...pa }
      for (const key of ['title', 'slug', 'parent'] as const) {
        if (pa[key] === o[key]) Object.assign(page, { [key]: pb[key] })
        else if (pb[key] !== o[key] && pb[key] !== pa[key]) conflict(id, `both changed its ${key}`)
      }
      const paras = mergeParagraphs(o.paras, pa.paras, pb.paras)
      if (paras) page.paras = paras
      else conflict(id, 'both changed the same paragraphs')
      pages.set(id, page)
    }
  }
  if (conflicts.length > 0) return { ok: false, conflicts }
  const bySlug = new Map<string, string>()
  for (const page of pages.values()) {
    if (page.parent !== null && !pages.has(page.parent)) conflict(page.id, 'its parent is gone')
    if (onCycle(pages, page.id)) conflict(page.id, 'moved below itself (a cycle)')
    const key = `${page.parent}/${page.slug}`
    const other = bySlug.get(key)
    if (other !== undefined) {
      conflict(other, 'a sibling has its slug')
      conflict(page.id, 'a sibling has its slug')
    }
    bySlug.set(key, page.id)
  }
  return conflicts.length ? { ok: false, conflicts } : { ok: true, pages }
}
