import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/core/errors.js'
import {
  compareKeys,
  decodeCursor,
  encodeCursor,
  listQuery,
  mapPage,
  paginateList,
  paginate,
  paginateScan,
  type Page,
  type PageQuery,
  type SortKey,
} from '../../src/core/paging.js'
import { createMemoryStore } from '../../src/storage/memory.js'
import { suiteSchema } from '../../src/storage/suite.js'

/** Every page of `fetch`, following `next.page`, as arrays of items. */
function allPages<T>(fetch: (q: PageQuery) => Page<T>, limit: number): T[][] {
  const pages: T[][] = []
  let page: string | undefined
  for (let guard = 0; guard < 100; guard++) {
    const p = fetch({ limit, page })
    pages.push(p.items)
    if (!p.next) return pages
    page = p.next.page
  }
  throw new Error('paging does not end')
}

function expectBadCursor(fn: () => unknown): void {
  try {
    fn()
  } catch (error) {
    expect(ApiError.isApiError(error)).toBe(true)
    expect((error as ApiError).status).toBe(400)
    expect((error as ApiError).message).toContain('`page`')
    return
  }
  throw new Error('expected a 400 for the cursor')
}

describe('paging: cursors', () => {
  it.each<[string, SortKey]>([
    ['numbers', [1, 2.5, -3]],
    ['strings with unicode and symbols', ['héllo wörld ✓ 日本', 'a/b+c=d?']],
    ['a mixed key', ['2026-03-01T10:00:00.000Z', 'id42', 7]],
    ['an empty key', []],
  ])('encodes and decodes %s (round trip, URL-safe)', (_, key) => {
    const cursor = encodeCursor(key)
    expect(cursor).toMatch(/^[A-Za-z0-9_-]*$/)
    expect(decodeCursor(cursor)).toEqual(key)
  })

  it('rejects anything that is not a cursor with a 400 naming `page`', () => {
    for (const bad of ['garbage!!', '%%%', btoa('not json'), btoa('{"a":1}'), btoa('[{"a":1}]'), btoa('[null]'), btoa('"str"')]) {
      expectBadCursor(() => decodeCursor(bad))
    }
  })

  it('compares keys element by element, numbers numerically', () => {
    expect(compareKeys([2], [10])).toBeLessThan(0)
    expect(compareKeys(['2'], ['10'])).toBeGreaterThan(0)
    expect(compareKeys(['a', 1], ['a', 2])).toBeLessThan(0)
    expect(compareKeys(['a'], ['a', 0])).toBeLessThan(0)
    expect(compareKeys(['b', 0], ['a', 9])).toBeGreaterThan(0)
    expect(compareKeys([1, 'x'], [1, 'x'])).toBe(0)
  })

  it('listQuery defaults limit to 50 and bounds it to 0..1000', () => {
    expect(listQuery.parse({})).toEqual({ limit: 50 })
    expect(listQuery.parse({ limit: '0' }).limit).toBe(0)
    expect(listQuery.parse({ limit: '1000', page: 'abc' })).toEqual({ limit: 1000, page: 'abc' })
    expect(listQuery.safeParse({ limit: '1001' }).success).toBe(false)
    expect(listQuery.safeParse({ limit: 'abc' }).success).toBe(false)
    expect(listQuery.safeParse({ page: '' }).success).toBe(false)
  })
})

describe('paging: paginate (sorted arrays)', () => {
  interface Item {
    name: string
    id: number
  }
  // unique sort key: name, then id as tie-breaker
  const keyOf = (i: Item): SortKey => [i.name, i.id]
  const sorted = (items: Item[], order: 'asc' | 'desc' = 'asc') => [...items].sort((a, b) => (order === 'asc' ? 1 : -1) * compareKeys(keyOf(a), keyOf(b)))
  const items: Item[] = ['d', 'a', 'c', 'b', 'b', 'e'].map((name, id) => ({ name, id }))
  const names = (list: Item[]) => list.map((i) => `${i.name}${i.id}`)

  it('serves every item once, in order, asc and desc', () => {
    const asc = allPages((q) => paginate(sorted(items), keyOf, q), 4)
    expect(asc.map(names)).toEqual([
      ['a1', 'b3', 'b4', 'c2'],
      ['d0', 'e5'],
    ])
    const desc = allPages((q) => paginate(sorted(items, 'desc'), keyOf, q, 'desc'), 4)
    expect(desc.map(names)).toEqual([
      ['e5', 'd0', 'c2', 'b4'],
      ['b3', 'a1'],
    ])
    expect(paginate(sorted(items), keyOf, { limit: 10 }).count).toBe(6)
  })

  it('gives no next page when the last page is exactly full, and none for an empty list', () => {
    const page = paginate(sorted(items), keyOf, { limit: 6 })
    expect(page.items).toHaveLength(6)
    expect(page.next).toBeUndefined()
    expect(paginate([], keyOf, { limit: 5 })).toEqual({ items: [], count: 0 })
  })

  it('limit 0 returns the count and no items, and no next page', () => {
    expect(paginate(sorted(items), keyOf, { limit: 0 })).toEqual({ items: [], count: 6 })
  })

  it('keeps its place when items are inserted and deleted between pages (asc)', () => {
    let data = sorted(items)
    const first = paginate(data, keyOf, { limit: 3 })
    expect(names(first.items)).toEqual(['a1', 'b3', 'b4'])
    // delete the last item served and one not yet served, insert one before and one after the cursor
    data = sorted([...data.filter((i) => i.id !== 4 && i.id !== 2), { name: 'a', id: 9 }, { name: 'c', id: 8 }])
    const second = paginate(data, keyOf, { limit: 3, page: first.next!.page })
    expect(names(second.items)).toEqual(['c8', 'd0', 'e5'])
    expect(second.count).toBe(6)
    expect(second.next).toBeUndefined()
  })

  it('keeps its place when items are inserted and deleted between pages (desc)', () => {
    let data = sorted(items, 'desc')
    const first = paginate(data, keyOf, { limit: 2 }, 'desc')
    expect(names(first.items)).toEqual(['e5', 'd0'])
    data = sorted([...data.filter((i) => i.id !== 0), { name: 'z', id: 7 }, { name: 'c', id: 6 }], 'desc')
    const rest = allPages((q) => paginate(data, keyOf, q.page ? q : { ...q, page: first.next!.page }, 'desc'), 2)
    expect(rest.flat().map((i) => `${i.name}${i.id}`)).toEqual(['c6', 'c2', 'b4', 'b3', 'a1'])
  })

  it('a cursor past the end gives an empty page; mapPage keeps the envelope', () => {
    const page = paginate(sorted(items), keyOf, { limit: 2, page: encodeCursor(['zzz', 0]) })
    expect(page).toEqual({ items: [], count: 6 })
    const first = paginate(sorted(items), keyOf, { limit: 2 })
    expect(mapPage(first, (i) => i.id)).toEqual({ items: [1, 3], count: 6, next: first.next })
  })
})

describe('paging: paginateScan (index order)', () => {
  const setup = (n: number) => {
    const store = createMemoryStore(suiteSchema)
    store.transaction((tx) => {
      for (let i = 0; i < n; i++) tx.insert('items', { id: `i${i}`, group: 'g', tags: [], value: i })
    })
    const fetch = (q: PageQuery, filter?: (row: { value: number }) => boolean) =>
      store.read((tx) => paginateScan({ scan: (o) => tx.scan('items', 'byGroup', 'g', o), count: () => tx.count('items', 'byGroup', 'g') }, q, filter))
    const ids = (page: Page<{ row: { id: string } }>) => page.items.map((e) => e.row.id)
    return { store, fetch, ids }
  }

  it('serves every row once in insertion order, with the count of the key', () => {
    const { fetch } = setup(7)
    const pages = allPages((q) => fetch(q), 3)
    expect(pages.map((p) => p.map((e) => e.row.id))).toEqual([['i0', 'i1', 'i2'], ['i3', 'i4', 'i5'], ['i6']])
    expect(fetch({ limit: 3 }).count).toBe(7)
  })

  it('has no next page when the rows end exactly at the limit; limit 0 gives no items', () => {
    const { fetch, ids } = setup(4)
    const page = fetch({ limit: 4 })
    expect(ids(page)).toHaveLength(4)
    expect(page.next).toBeUndefined()
    expect(fetch({ limit: 0 })).toEqual({ items: [], count: 4 })
  })

  it('keeps its place when rows are inserted and deleted between pages, updates included', () => {
    const { store, fetch, ids } = setup(6)
    const first = fetch({ limit: 2 })
    expect(ids(first)).toEqual(['i0', 'i1'])
    store.transaction((tx) => {
      tx.delete('items', 'i1') // the last row served
      tx.delete('items', 'i3')
      tx.update('items', { id: 'i2', group: 'g', tags: [], value: 100 }) // an update keeps its place
      tx.insert('items', { id: 'new', group: 'g', tags: [], value: 0 })
    })
    const second = fetch({ limit: 2, page: first.next!.page })
    expect(ids(second)).toEqual(['i2', 'i4'])
    expect(second.count).toBe(5)
    const third = fetch({ limit: 2, page: second.next!.page })
    expect(ids(third)).toEqual(['i5', 'new'])
    expect(third.next).toBeUndefined()
  })

  it('pages over the rows a filter keeps, counting only those', () => {
    const { fetch } = setup(10)
    const even = (row: { value: number }) => row.value % 2 === 0
    const pages = allPages((q) => fetch(q, even), 2)
    expect(pages.flat().map((e) => e.row.id)).toEqual(['i0', 'i2', 'i4', 'i6', 'i8'])
    expect(fetch({ limit: 2 }, even).count).toBe(5)
  })

  it('rejects a cursor that is not one of its own', () => {
    const { fetch } = setup(3)
    expectBadCursor(() => fetch({ limit: 2, page: encodeCursor(['a string key']) }))
    expectBadCursor(() => fetch({ limit: 2, page: 'garbage' }))
  })
})

describe('paginateList', () => {
  it('pages a list in its own order, each item once, with a count of all', () => {
    const items = ['a', 'b', 'c', 'd', 'e']
    const seen: string[] = []
    let page: string | undefined
    do {
      const p = paginateList(items, { limit: 2, page })
      expect(p.count).toBe(5)
      seen.push(...p.items)
      page = p.next?.page
    } while (page)
    expect(seen).toEqual(items)
  })

  it('takes only the positions it makes: whole numbers from the first position (0, or 1 for a 1-based list); past the end pages to nothing', () => {
    const items = ['a', 'b', 'c', 'd', 'e']
    expect(paginateList(items, { limit: 2 }, 1)).toEqual({ items: ['a', 'b'], count: 5, next: { page: encodeCursor([2]) } })
    expect(paginateList(items, { limit: 2, page: encodeCursor([2]) }, 1).items).toEqual(['c', 'd'])
    expect(paginateList(items, { limit: 2, page: encodeCursor([1]) }).items).toEqual(['c', 'd'])
    expect(paginateList(items, { limit: 2, page: encodeCursor([0]) }).items).toEqual(['b', 'c'])
    expect(paginateList(items, { limit: 2, page: encodeCursor([9]) })).toEqual({ items: [], count: 5 })
    for (const bad of [[-5], [1.5], [-1], [1e300 * 10], ['1'], [1, 2], []])
      expectBadCursor(() => paginateList(items, { limit: 2, page: encodeCursor(bad as SortKey) }))
    expectBadCursor(() => paginateList(items, { limit: 2, page: encodeCursor([0]) }, 1))
  })
})
