import { describe, expect, it } from 'vitest'
import type { ReadContext, ReadTx } from '../../../src/domains/context.js'
import { createUrls } from '../../../src/core/context.js'
import { changeRequestChanges } from '../../../src/domains/change-requests/semantic-answer.js'
import { edit, merge, openCr, setup, type CrWorld } from './helpers.js'

/**
 * What the semantic changes of a change request cost, in store reads: they follow the pages it
 * changed, not the space (docs/behaviour/content-and-change-requests.md, "Semantic changes"). The bench's
 * `content-changes` measures the time (bench/README.md).
 */

/** A transaction counting the reads made through it, by collection. */
function counting(tx: ReadTx): { tx: ReadTx; reads: () => number } {
  let reads = 0
  const counted = new Proxy(tx, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        reads++
        return value.apply(target, args)
      }
    },
  })
  return { tx: counted, reads: () => reads }
}

/** A space of `pages` root pages on main, and a change request editing 3 of them (first, middle, last). */
async function spaceOf(pages: number): Promise<{ w: CrWorld; cr: string }> {
  const w = await setup()
  const seed = await openCr(w, 'Seed')
  const ids: string[] = []
  for (let from = 0; from < pages; from += 50) {
    const changes = Array.from({ length: Math.min(50, pages - from) }, (_, i) => ({
      operation: 'insert_page',
      title: `Page ${from + i}`,
      document: { markdown: 'Text.\n' },
    }))
    const res = await edit(w, seed.id, changes)
    expect(res.status).toBe(200)
    ids.push(...res.body.changes.map((c: { page: { id: string } }) => c.page.id))
  }
  expect((await merge(w, seed.id)).status).toBe(200)
  const cr = await openCr(w)
  const touched = [ids[0]!, ids[Math.floor(pages / 2)]!, ids[pages - 1]!]
  expect(
    (
      await edit(
        w,
        cr.id,
        touched.map((page) => ({ operation: 'update_page', page, document: { markdown: 'Edited.\n' } })),
      )
    ).status,
  ).toBe(200)
  return { w, cr: cr.id }
}

function readsOf({ w, cr }: { w: CrWorld; cr: string }) {
  return w.api.store.read((tx) => {
    const c = counting(tx as ReadTx)
    const ctx = { tx: c.tx, urls: createUrls('http://localhost:4000'), services: {} } as unknown as ReadContext
    const answer = changeRequestChanges(ctx, tx.get('changeRequests', cr)!, 100)
    return { changes: answer.changes.length, reads: c.reads() }
  })
}

describe('semantic changes: the cost', () => {
  it('of a change request editing 3 pages is the same number of reads in a space of 10 pages and of 1,000', async () => {
    const few = readsOf(await spaceOf(10))
    const many = readsOf(await spaceOf(1000))
    expect(few.changes).toBe(3)
    expect(many.changes).toBe(3)
    // The buckets the edits touched (at most 3), the 3 pages on each side, their paths: never the space.
    expect(many.reads).toBeLessThanOrEqual(few.reads + 3)
    expect(many.reads).toBeLessThan(40)
  })
})
