import fc from 'fast-check'
import { expect, it } from 'vitest'
import { FUZZ_SEED } from '../../fuzz/config.js'
import { call, createWorld } from '../../helpers.js'
import { markdown, resolve, scenarioArb } from './merge-model/edits.js'
import { childrenOf, cloneTree, modelMerge, sameList, type Merged, type MPage, type Side, type Tree } from './merge-model/model.js'

/**
 * Merging two change requests from one main, checked against a model. From a random main (a few
 * pages, some nested, bodies of several paragraphs) two change requests A and B get a random
 * sequence of edits each, one batch per edit (merge-model/edits.ts: edit, add or delete a
 * paragraph, retitle, insert, delete, move or reorder a page, revert a page). A is merged; then B
 * is merged, or updated from main and then merged. The model (merge-model/model.ts: a plain tree
 * of pages with paragraph lists and the three-way rules the implementation claims, conservative
 * conflicts included) says whether B's merge conflicts:
 * - a conflict answers `result: 'conflicts'`, names a page the model names, and writes nothing
 *   (main as A left it, B as it was; an update from main likewise);
 * - otherwise the answer is `result: 'merge'` (an update from main: `update`, and B's content is
 *   already the merge), and main holds exactly the model's pages: each once, with its id, title,
 *   slug, parent and paragraphs, every edit of both sides; subpages in an order expectMerged allows.
 * Each change request's content is checked against its side of the model before merging, and
 * main against A after A's merge (a fast-forward).
 *
 * Runs: `MERGE_RUNS` (or `FUZZ_RUNS`), seed `FUZZ_SEED` as in test/fuzz, e.g.
 * `MERGE_RUNS=2000 FUZZ_SEED=$RANDOM npx vitest run test/domains/change-requests/merge-model.test.ts`.
 */
const RUNS = Number(process.env.MERGE_RUNS ?? process.env.FUZZ_RUNS ?? 100)

async function setup() {
  const w = await createWorld()
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await call(w.api, w.tokens.ada, method, `/v1/spaces/${space.id}${path}`, body)
    expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
    return res.body
  }
  const openCr = async (subject: string): Promise<string> => (await send('POST', '/change-requests', { subject })).id
  const edit = (cr: string, change: unknown) => send('POST', `/change-requests/${cr}/content?compat=false`, { changes: [change] })
  /** Main's page tree, or a change request's, as a model tree (and the pages listed twice). */
  const readPages = async (cr?: string) => toTree((await send('GET', cr ? `/change-requests/${cr}/content/pages` : '/content/pages')).pages)
  return { w, send, openCr, edit, readPages }
}

const textOf = (node: any): string => (node.object === 'leaf' ? node.text : (node.leaves ?? node.nodes ?? []).map(textOf).join(''))

function toTree(pages: any[]): { tree: Tree; duplicates: string[] } {
  const tree: Tree = { pages: new Map(), roots: [] }
  const duplicates: string[] = []
  const walk = (nodes: any[], parent: string | null): string[] =>
    nodes.map((n) => {
      if (tree.pages.has(n.id)) duplicates.push(n.id)
      const paras = n.document.nodes.map((b: any) => (b.type === 'paragraph' ? textOf(b) : `<${b.type}>`))
      tree.pages.set(n.id, { id: n.id, title: n.title, slug: n.slug, parent, children: walk(n.pages, n.id), paras })
      return n.id
    })
  tree.roots = walk(pages, null)
  return { tree, duplicates }
}

const byId = (x: { id: string }, y: { id: string }) => x.id.localeCompare(y.id)
const flat = (t: Tree) => ({ roots: t.roots, pages: [...t.pages.values()].sort(byId) })
const withoutOrder = (pages: Iterable<Merged | MPage>): Merged[] =>
  [...pages].map(({ id, title, slug, parent, paras }) => ({ id, title, slug, parent, paras })).sort(byId)

/**
 * A merged tree against the model: the same pages, each once, with the same fields; each list of
 * subpages in an order the model allows. A list only one side changed is that side's; when both
 * changed it, pages they both hold there in one order keep it (the rest is merge order: where
 * both changed one stretch, main's pages then the change request's).
 */
function expectMerged(got: { tree: Tree; duplicates: string[] }, base: Tree, a: Tree, b: Tree, model: Map<string, Merged>) {
  expect(got.duplicates, 'pages listed twice').toEqual([])
  expect(withoutOrder(got.tree.pages.values())).toEqual(withoutOrder(model.values()))
  for (const parent of [null, ...got.tree.pages.keys()]) {
    const list = childrenOf(got.tree, parent)
    const [o, x, y] = [base, a, b].map((t) => (parent === null || t.pages.has(parent) ? childrenOf(t, parent) : [])) as [string[], string[], string[]]
    const where = `subpages of ${parent ?? 'the root'} (base ${o}, A ${x}, B ${y})`
    if (sameList(y, o)) expect(list, where).toEqual(x)
    else if (sameList(x, o)) expect(list, where).toEqual(y)
    else {
      const order = (side: string[], p: string, q: string) => (side.includes(p) && side.includes(q) ? side.indexOf(p) < side.indexOf(q) : undefined)
      list.forEach((p, i) => {
        for (const q of list.slice(i + 1)) {
          const inA = order(x, p, q)
          if (inA !== undefined && inA === order(y, p, q)) expect(inA, `${where}: ${p} before ${q}`).toBe(true)
        }
      })
    }
  }
}

it(
  'merging two change requests from one main matches the model: every edit kept, or a conflict that writes nothing',
  { timeout: Math.max(30_000, RUNS * 400) },
  async () => {
    const outcomes = { merged: 0, conflicts: 0 }
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ main, a: editsA, b: editsB, updateFirst }) => {
        const { w, send, openCr, edit, readPages } = await setup()

        // Main: the drawn pages from a first change request, merged.
        const first = await openCr('Main')
        const made: string[] = []
        let token = 0
        for (const [i, spec] of main.entries()) {
          const parent = spec.parent % (i + 1)
          const paras = Array.from({ length: spec.paras }, () => `m${token++}`)
          const res = await edit(first, {
            operation: 'insert_page',
            title: `Page ${i}`,
            document: markdown(paras),
            ...(parent > 0 && { into: made[parent - 1] }),
          })
          made.push(res.changes[0].page.id)
        }
        expect((await send('POST', `/change-requests/${first}/merge`)).result).toBe('merge')
        const base = (await readPages()).tree

        // A and B from it, each with its sequence of edits, checked against its side of the model.
        const a = { cr: await openCr('A'), side: { tree: cloneTree(base), touched: new Set<string>() } as Side }
        const b = { cr: await openCr('B'), side: { tree: cloneTree(base), touched: new Set<string>() } as Side }
        for (const [tag, { cr, side }, edits] of [
          ['a', a, editsA],
          ['b', b, editsB],
        ] as const) {
          let n = 0
          for (const e of edits) {
            const r = resolve(base, side, e, () => `${tag}${n++}`)
            if (!r) continue
            const res = await edit(cr, r.change)
            r.apply(r.change.operation === 'insert_page' ? res.changes[0].page.id : undefined)
          }
          expect(flat((await readPages(cr)).tree), `change request ${tag.toUpperCase()}`).toEqual(flat(side.tree))
        }

        expect((await send('POST', `/change-requests/${a.cr}/merge`)).result).toBe('merge')
        expect(flat((await readPages()).tree), 'main after A').toEqual(flat(a.side.tree))

        const model = modelMerge(base, a.side, b.side)
        if (!model.ok) {
          outcomes.conflicts++
          const why = `model: ${JSON.stringify(model.conflicts)}`
          const before = w.api.dump()
          if (updateFirst) {
            expect((await send('POST', `/change-requests/${b.cr}/update`)).result, `update of B, ${why}`).toBe('conflicts')
            expect(w.api.dump(), 'a conflicting update writes nothing').toEqual(before)
          }
          const res = await send('POST', `/change-requests/${b.cr}/merge`)
          expect(res.result, `merge of B, ${why}`).toBe('conflicts')
          expect(
            res.conflicts.some((c: { page: string }) => model.conflicts.some((m) => m.page === c.page)),
            `${JSON.stringify(res.conflicts)}, ${why}`,
          ).toBe(true)
          expect(w.api.dump(), 'a conflicting merge writes nothing').toEqual(before)
          return
        }
        outcomes.merged++
        if (updateFirst) {
          const res = await send('POST', `/change-requests/${b.cr}/update`)
          expect(res.result, `update of B: ${JSON.stringify(res.conflicts)}`).toBe('update')
          expectMerged(await readPages(b.cr), base, a.side.tree, b.side.tree, model.pages)
        }
        const res = await send('POST', `/change-requests/${b.cr}/merge`)
        expect(res.result, `merge of B: ${JSON.stringify(res.conflicts)}`).toBe('merge')
        expect((await send('GET', `/change-requests/${b.cr}`)).status).toBe('merged')
        expectMerged(await readPages(), base, a.side.tree, b.side.tree, model.pages)
      }),
      { numRuns: RUNS, seed: FUZZ_SEED, verbose: fc.VerbosityLevel.None },
    )
    // The property says something of both outcomes only when both are drawn often.
    expect(outcomes.merged, JSON.stringify(outcomes)).toBeGreaterThan(RUNS / 5)
    expect(outcomes.conflicts, JSON.stringify(outcomes)).toBeGreaterThan(RUNS / 10)
  },
)
