import { describe, expect, it } from 'vitest'
import type { ReadTx } from '../../../src/domains/context.js'
import { matchSiteRedirect } from '../../../src/domains/site-redirects/resolve.js'
import { external, redirectWorld, type RedirectWorld } from './helpers.js'

/**
 * What resolving a path costs, in store reads (docs/behaviour/site-redirects.md: one index read per
 * candidate, O(length of the path) whatever the number of redirects).
 */

/** A transaction counting the reads made through it. */
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

const readsToMatch = (w: RedirectWorld, path: string) =>
  w.api.store.read((tx) => {
    const c = counting(tx)
    const match = matchSiteRedirect(c.tx, w.site.id, path)
    return { id: match?.row.id, reads: c.reads() }
  })

async function withRedirects(count: number) {
  const w = await redirectWorld()
  for (let from = 0; from < count; from += 500) {
    const items = Array.from({ length: Math.min(500, count - from) }, (_, i) => ({ source: `/r${from + i}/*`, destination: external('https://example.com/') }))
    expect((await w.http('PUT', '/redirects', { redirects: items })).status).toBe(200)
  }
  return w
}

describe('site redirects: the cost of resolving a path', () => {
  it('is the same among 10 and among 1,000 redirects, and grows with the length of the path only', async () => {
    const small = await withRedirects(10)
    const large = await withRedirects(1000)
    const path = '/r5/guide/install/linux'
    const few = readsToMatch(small, path)
    const many = readsToMatch(large, path)
    expect(few.id).toBeDefined()
    expect(many.id).toBeDefined()
    expect(many.reads).toBe(few.reads)
    // A miss reads one candidate per prefix of the path: at most its length, plus the exact source.
    const miss = readsToMatch(large, '/nothing/here')
    expect(miss.id).toBeUndefined()
    expect(miss.reads).toBeLessThanOrEqual('/nothing/here'.length + 1)
  })
})
