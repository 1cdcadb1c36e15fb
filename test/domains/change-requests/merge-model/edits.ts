import fc from 'fast-check'
import { childrenOf, placeAt, preorder, setChildren, siblingSlugs, slugOf, uniqueSlug, within, type MPage, type Side, type Tree } from './model.js'

/**
 * The edits of merge-model.test.ts: drawn as selectors, resolved against the side's tree when
 * they are sent (so every edit is valid and a shrunk sequence still means something), each one
 * API change and its effect on the model.
 */
export type Edit =
  | { kind: 'editPara' | 'delPara'; page: number; para: number }
  | { kind: 'addPara'; page: number; at: number }
  | { kind: 'deletePage'; page: number }
  | { kind: 'retitle'; page: number; title: string | null }
  | { kind: 'insertPage'; parent: number; at: number | null; paras: number; title: string | null }
  | { kind: 'movePage'; page: number; target: number; at: number | null }
  | { kind: 'reorder'; page: number; at: number }
  | { kind: 'revert'; page: number }

const sel = fc.nat(30)
// Edits aim at the first page often, so both sides often edit one page.
const pageSel = fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: sel })
// Paragraphs picked uniformly (a biased draw picks the first one on both sides: a conflict).
const paraSel = fc.noBias(fc.nat(99))
const maybeAt = fc.option(fc.nat(4), { nil: null })
// Mostly a new title; sometimes one of two shared ones, so siblings meet with one slug.
const titleArb = fc.option(fc.constantFrom('Setup', 'Guide'), { nil: null, freq: 4 })

const edits = {
  editPara: fc.record({ kind: fc.constant('editPara' as const), page: pageSel, para: paraSel }),
  addPara: fc.record({ kind: fc.constant('addPara' as const), page: pageSel, at: paraSel }),
  delPara: fc.record({ kind: fc.constant('delPara' as const), page: pageSel, para: paraSel }),
  retitle: fc.record({ kind: fc.constant('retitle' as const), page: pageSel, title: titleArb }),
  insertPage: fc.record({ kind: fc.constant('insertPage' as const), parent: sel, at: maybeAt, paras: fc.integer({ min: 0, max: 2 }), title: titleArb }),
  deletePage: fc.record({ kind: fc.constant('deletePage' as const), page: pageSel }),
  movePage: fc.record({ kind: fc.constant('movePage' as const), page: pageSel, target: sel, at: maybeAt }),
  reorder: fc.record({ kind: fc.constant('reorder' as const), page: pageSel, at: fc.nat(4) }),
  revert: fc.record({ kind: fc.constant('revert' as const), page: sel }),
}
const weighted = (weights: Partial<Record<keyof typeof edits, number>>): fc.Arbitrary<Edit> =>
  fc.oneof(...Object.entries(weights).map(([kind, weight]) => ({ weight: weight!, arbitrary: edits[kind as keyof typeof edits] as fc.Arbitrary<Edit> })))

/**
 * The edits of a scenario, both sides alike: bodies only (paragraph merges of one page), the
 * tree only (inserts, deletes, moves, reorders, retitles, reverts), or a mix. Sequences are short
 * enough that many scenarios do not conflict.
 */
const profiles = [
  { edit: weighted({ editPara: 3, addPara: 2, delPara: 1 }), most: 3 },
  { edit: weighted({ retitle: 1, insertPage: 2, deletePage: 1, movePage: 3, reorder: 2, revert: 1 }), most: 5 },
  { edit: weighted({ editPara: 4, addPara: 2, delPara: 1, retitle: 2, insertPage: 2, deletePage: 1, movePage: 2, reorder: 1, revert: 1 }), most: 6 },
]

/** A main: pages in order, each under the root or an earlier page (`parent` picks one of them), with 1 to 8 paragraphs. */
const mainArb = fc.array(fc.record({ parent: fc.nat(10), paras: fc.integer({ min: 1, max: 8 }) }), { minLength: 1, maxLength: 6 })

export const scenarioArb = fc.oneof(
  ...profiles.map(({ edit, most }) =>
    fc.record({
      main: mainArb,
      a: fc.array(edit, { minLength: 1, maxLength: most }),
      b: fc.array(edit, { minLength: 1, maxLength: most }),
      updateFirst: fc.boolean(),
    }),
  ),
)

export const markdown = (paras: string[]) => ({ markdown: paras.join('\n\n') })

/** One edit as an API change, and its effect on the model once the API has answered (with the id of a page it created). */
export interface Resolved {
  change: Record<string, unknown>
  apply: (createdPage: string | undefined) => void
}

/** An edit against the side's tree now (`fresh` names a new paragraph or title), or undefined when it has nothing to act on. */
export function resolve(base: Tree, side: Side, edit: Edit, fresh: () => string): Resolved | undefined {
  const t = side.tree
  const ids = preorder(t)
  const touch = (id: string | null) => id !== null && side.touched.add(id)
  // Taking a page out of its parent's list writes the parent.
  const unplace = (page: MPage) => {
    setChildren(
      t,
      page.parent,
      childrenOf(t, page.parent).filter((c) => c !== page.id),
    )
    touch(page.parent)
  }
  const drop = (id: string) => {
    t.pages.get(id)!.children.forEach(drop)
    t.pages.delete(id)
    side.touched.delete(id)
  }

  if (edit.kind === 'insertPage') {
    const n = edit.parent % (ids.length + 1)
    const parent = n === ids.length ? null : ids[n]!
    const title = edit.title ?? `Page ${fresh()}`
    const paras = Array.from({ length: edit.paras }, fresh)
    return {
      change: {
        operation: 'insert_page',
        title,
        document: markdown(paras),
        ...(parent !== null && { into: parent }),
        ...(edit.at !== null && { at: edit.at }),
      },
      apply: (id) => {
        t.pages.set(id!, { id: id!, title, slug: uniqueSlug(slugOf(title), siblingSlugs(t, parent)), parent, children: [], paras })
        placeAt(t, parent, id!, edit.at ?? undefined)
        touch(parent)
      },
    }
  }
  if (edit.kind === 'revert') {
    // A page of the change request, or one of the base it deleted: back as in the base.
    const options = [...ids, ...preorder(base).filter((id) => !t.pages.has(id))]
    if (options.length === 0) return undefined
    const id = options[edit.page % options.length]!
    const before = base.pages.get(id)
    const now = t.pages.get(id)
    return {
      change: { operation: 'revert_page', page: id },
      apply: () => {
        if (now) unplace(now)
        if (!before) return drop(id)
        // Under its base parent, unless that is gone or now below it: then at the root. Its subpages stay.
        const parent = before.parent !== null && t.pages.has(before.parent) && !within(t, before.parent, id) ? before.parent : null
        const slug = uniqueSlug(before.slug, siblingSlugs(t, parent, id))
        t.pages.set(id, { ...before, paras: [...before.paras], parent, slug, children: now ? now.children : [] })
        const at = childrenOf(base, before.parent).indexOf(id)
        placeAt(t, parent, id, at < 0 ? undefined : at)
        touch(parent)
        touch(id)
      },
    }
  }

  if (ids.length === 0) return undefined
  const page = t.pages.get(ids[edit.page % ids.length]!)!
  const update = (fields: Record<string, unknown>, apply: () => void): Resolved => ({
    change: { operation: 'update_page', page: page.id, ...fields },
    apply: () => (apply(), touch(page.id)),
  })
  switch (edit.kind) {
    case 'editPara':
    case 'delPara':
    case 'addPara': {
      const paras = [...page.paras]
      if (edit.kind === 'addPara') paras.splice(edit.at % (paras.length + 1), 0, fresh())
      else if (paras.length === 0) return undefined
      else if (edit.kind === 'editPara') paras[edit.para % paras.length] = fresh()
      else paras.splice(edit.para % paras.length, 1)
      return update({ document: markdown(paras) }, () => (page.paras = paras))
    }
    case 'retitle': {
      const title = edit.title ?? `Page ${fresh()}`
      // A derived slug follows a new title; one set apart (`setup-2`) stays.
      return update({ title }, () => {
        if (title !== page.title && page.slug === slugOf(page.title)) page.slug = uniqueSlug(slugOf(title), siblingSlugs(t, page.parent, page.id))
        page.title = title
      })
    }
    case 'deletePage':
      return { change: { operation: 'delete_page', page: page.id }, apply: () => (unplace(page), drop(page.id)) }
    case 'movePage': {
      // Into another parent: the root or a page outside its own subtree (none: it stays, put at `at`).
      const options = [...(page.parent === null ? [] : [null]), ...ids.filter((id) => id !== page.parent && !within(t, id, page.id))]
      const into = options.length ? options[edit.target % options.length]! : page.parent
      const at = edit.at ?? undefined
      return update({ into, ...(at !== undefined && { at }) }, () => {
        if (into !== page.parent) {
          unplace(page)
          // Among siblings with its slug, it gets `-2`.
          page.slug = uniqueSlug(page.slug, siblingSlugs(t, into, page.id))
          page.parent = into
          placeAt(t, into, page.id, at)
          touch(into)
        } else if (at !== undefined) {
          placeAt(t, into, page.id, at)
          touch(into)
        }
      })
    }
    case 'reorder':
      return update({ at: edit.at }, () => (placeAt(t, page.parent, page.id, edit.at), touch(page.parent)))
  }
}
