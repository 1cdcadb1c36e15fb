import { collection, type Row, type StoragePort } from './port.js'

/**
 * The shared test suite every storage adapter must pass (like unstorage's `testDriver`).
 * It takes the test functions as arguments so `src` does not depend on a test runner:
 *
 * @example
 * import { describe, it, expect } from 'vitest'
 * runStorageSuite('memory', (schema) => createMemoryStore(schema), { describe, it, expect })
 */
export interface SuiteRunner {
  describe: (name: string, fn: () => void) => void
  it: (name: string, fn: () => void | Promise<void>) => void
  expect: (value: unknown) => {
    toBe(expected: unknown): void
    toEqual(expected: unknown): void
    toThrow(expected?: unknown): void
    toBeUndefined(): void
  }
}

interface ItemRow extends Row {
  group: string
  tags: string[]
  value: number
}

export const suiteSchema = {
  items: collection<ItemRow>({
    byGroup: { key: (r) => r.group },
    byTag: { key: (r) => r.tags },
    /** Ordered by value, ties in insertion order. */
    byValue: { key: (r) => r.group, order: (r) => r.value },
    positive: { key: (r) => (r.value > 0 ? 'yes' : undefined) },
  }),
  others: collection<Row & { name: string }>(),
}
export type SuiteSchema = typeof suiteSchema

/** Options of the suite. */
export interface SuiteOptions {
  /**
   * Whether the store has snapshots (`snapshot`, `restore`, `fork`), whose tests then run. Left
   * out, a store is made to ask it (which needs `create` to answer synchronously).
   */
  snapshots?: boolean
}

export function runStorageSuite(
  name: string,
  create: (schema: SuiteSchema) => StoragePort<SuiteSchema> | Promise<StoragePort<SuiteSchema>>,
  { describe, it, expect }: SuiteRunner,
  options: SuiteOptions = {},
): void {
  const item = (id: string, group: string, value = 1, tags: string[] = []): ItemRow => ({ id, group, value, tags })
  const ids = (rows: Array<{ row: Row }>) => rows.map((e) => e.row.id)

  describe(`storage port: ${name}`, () => {
    it('inserts, gets, updates and deletes rows', async () => {
      const store = await create(suiteSchema)
      store.transaction((tx) => {
        tx.insert('items', item('a', 'g'))
        tx.insert('others', { id: 'a', name: 'same id, other collection' })
      })
      expect(store.read((tx) => tx.get('items', 'a'))).toEqual(item('a', 'g'))
      store.transaction((tx) => tx.update('items', { ...item('a', 'g'), value: 5 }))
      expect(store.read((tx) => tx.get('items', 'a')?.value)).toBe(5)
      expect(store.transaction((tx) => tx.delete('items', 'a'))).toBe(true)
      expect(store.transaction((tx) => tx.delete('items', 'a'))).toBe(false)
      expect(store.read((tx) => tx.get('items', 'a'))).toBeUndefined()
      expect(store.read((tx) => tx.get('others', 'a')?.name)).toBe('same id, other collection')
    })

    it('rejects a duplicate insert and an update of a missing row', async () => {
      const store = await create(suiteSchema)
      store.transaction((tx) => tx.insert('items', item('a', 'g')))
      expect(() => store.transaction((tx) => tx.insert('items', item('a', 'h')))).toThrow()
      expect(() => store.transaction((tx) => tx.update('items', item('zz', 'h')))).toThrow()
    })

    it('hands out frozen rows, so a caller cannot corrupt the store', async () => {
      const store = await create(suiteSchema)
      store.transaction((tx) => tx.insert('items', item('a', 'g', 1, ['x'])))
      const row = store.read((tx) => tx.get('items', 'a'))!
      expect(() => {
        ;(row as { value: number }).value = 99
      }).toThrow()
      expect(() => row.tags.push('y')).toThrow()
      expect(store.read((tx) => tx.get('items', 'a'))).toEqual(item('a', 'g', 1, ['x']))
    })

    it('keeps indexes in insertion order, across updates that move rows between keys', async () => {
      const store = await create(suiteSchema)
      store.transaction((tx) => {
        for (const [id, group] of [
          ['a', 'g'],
          ['b', 'h'],
          ['c', 'g'],
          ['d', 'g'],
        ] as const)
          tx.insert('items', item(id, group))
      })
      expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'g')))).toEqual(['a', 'c', 'd'])
      store.transaction((tx) => tx.update('items', item('c', 'h')))
      expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'g')))).toEqual(['a', 'd'])
      expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'h')))).toEqual(['b', 'c'])
      store.transaction((tx) => tx.update('items', item('c', 'g')))
      expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'g')))).toEqual(['a', 'c', 'd'])
      expect(store.read((tx) => tx.count('items', 'byGroup', 'g'))).toBe(3)
      expect(store.read((tx) => tx.count('items', 'byGroup', 'nothing'))).toBe(0)
    })

    it('indexes rows under several keys or none', async () => {
      const store = await create(suiteSchema)
      store.transaction((tx) => {
        tx.insert('items', item('a', 'g', 1, ['x', 'y']))
        tx.insert('items', item('b', 'g', -1, ['y']))
      })
      expect(store.read((tx) => ids(tx.scan('items', 'byTag', 'y')))).toEqual(['a', 'b'])
      expect(store.read((tx) => ids(tx.scan('items', 'positive', 'yes')))).toEqual(['a'])
      store.transaction((tx) => tx.update('items', item('a', 'g', -3, ['x', 'y'])))
      expect(store.read((tx) => tx.count('items', 'positive', 'yes'))).toBe(0)
    })

    it('scans after a sequence number with a limit (cursor paging)', async () => {
      const store = await create(suiteSchema)
      store.transaction((tx) => {
        for (let i = 0; i < 10; i++) tx.insert('items', item(`i${i}`, 'g'))
      })
      const first = store.read((tx) => tx.scan('items', 'byGroup', 'g', { limit: 3 }))
      expect(ids(first)).toEqual(['i0', 'i1', 'i2'])
      const last = first[first.length - 1]!
      // deleting the last item served and inserting new ones does not shift the next page
      store.transaction((tx) => {
        tx.delete('items', 'i2')
        tx.insert('items', item('new', 'g'))
      })
      expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'g', { after: last, limit: 3 })))).toEqual(['i3', 'i4', 'i5'])
      expect(store.read((tx) => tx.seqOf('items', 'i3'))).toBe(store.read((tx) => tx.scan('items', 'byGroup', 'g', { after: last, limit: 1 })[0]!.seq))
      expect(store.read((tx) => tx.all('items').length)).toBe(10)
    })

    it('keeps an ordered index sorted by its order value, ties in insertion order, across updates', async () => {
      const store = await create(suiteSchema)
      store.transaction((tx) => {
        for (const [id, value] of [
          ['a', 5],
          ['b', 1],
          ['c', 3],
          ['d', 3],
          ['e', 9],
        ] as const)
          tx.insert('items', item(id, 'g', value))
      })
      const order = () => store.read((tx) => ids(tx.scan('items', 'byValue', 'g')))
      expect(order()).toEqual(['b', 'c', 'd', 'a', 'e'])
      store.transaction((tx) => tx.update('items', item('e', 'g', 2)))
      expect(order()).toEqual(['b', 'e', 'c', 'd', 'a'])
      store.transaction((tx) => tx.update('items', item('c', 'g', 3.5)))
      expect(order()).toEqual(['b', 'e', 'd', 'c', 'a'])
      const entries = store.read((tx) => tx.scan('items', 'byValue', 'g'))
      expect(entries.map((e) => e.order)).toEqual([1, 2, 3, 3.5, 5])
      // a cursor is the (order, seq) of the last entry served: it survives moves of other rows
      const after = entries[1]!
      store.transaction((tx) => tx.update('items', item('b', 'g', 4)))
      expect(store.read((tx) => ids(tx.scan('items', 'byValue', 'g', { after, limit: 2 })))).toEqual(['d', 'c'])
      expect(() =>
        store.transaction((tx) => {
          tx.update('items', item('a', 'g', 0))
          throw new Error('undo')
        }),
      ).toThrow('undo')
      expect(order()).toEqual(['e', 'd', 'c', 'b', 'a'])
    })

    it('rolls back every write of a transaction that throws', async () => {
      const store = await create(suiteSchema)
      store.transaction((tx) => {
        tx.insert('items', item('a', 'g', 1))
        tx.insert('items', item('b', 'g', 2))
      })
      expect(() =>
        store.transaction((tx) => {
          tx.update('items', item('a', 'h', 10))
          tx.delete('items', 'b')
          tx.insert('items', item('c', 'g'))
          throw new Error('half-way')
        }),
      ).toThrow('half-way')
      expect(store.read((tx) => tx.all('items'))).toEqual([item('a', 'g', 1), item('b', 'g', 2)])
      expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'g')))).toEqual(['a', 'b'])
      expect(store.read((tx) => tx.count('items', 'byGroup', 'h'))).toBe(0)
    })

    it('rolls back a nested transaction alone, and the outer one whole', async () => {
      const store = await create(suiteSchema)
      store.transaction((tx) => {
        tx.insert('items', item('a', 'g'))
        expect(() =>
          store.transaction((inner) => {
            inner.insert('items', item('b', 'g'))
            throw new Error('inner')
          }),
        ).toThrow('inner')
        expect(tx.get('items', 'b')).toBeUndefined()
      })
      expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'g')))).toEqual(['a'])
      expect(() =>
        store.transaction(() => {
          store.transaction((inner) => inner.insert('items', item('c', 'g')))
          throw new Error('outer')
        }),
      ).toThrow('outer')
      expect(store.read((tx) => tx.get('items', 'c'))).toBeUndefined()
    })

    it('refuses writes outside a transaction and asynchronous transaction functions', async () => {
      const store = await create(suiteSchema)
      expect(() => store.read((tx) => (tx as unknown as { insert: (c: string, r: Row) => void }).insert('items', item('a', 'g')))).toThrow()
      expect(() => store.transaction((() => Promise.resolve(1)) as never)).toThrow()
    })
  })

  // Snapshots are optional: an adapter without them says so, and the API's snapshot tools refuse it.
  const snapshots =
    options.snapshots ??
    (() => {
      const store = create(suiteSchema)
      if (store instanceof Promise) throw new TypeError('runStorageSuite: give options.snapshots when create answers a promise')
      return store.snapshot !== undefined
    })()
  if (!snapshots) return
  describe(`storage port: ${name}: snapshots`, () => {
    /** Everything a reader can see of the store. */
    const state = (store: StoragePort<SuiteSchema>) =>
      store.read((tx) => ({
        items: tx.all('items'),
        others: tx.all('others'),
        g: ids(tx.scan('items', 'byGroup', 'g')),
        byValue: tx.scan('items', 'byValue', 'g').map((e) => [e.row.id, e.order, e.seq]),
        tagged: tx.count('items', 'byTag', 'x'),
        seqOfA: tx.seqOf('items', 'a'),
      }))
    const seeded = () => {
      // Stores with snapshots answer `create` synchronously (both adapters that have them do).
      const store = create(suiteSchema) as StoragePort<SuiteSchema>
      store.transaction((tx) => {
        tx.insert('items', item('a', 'g', 3, ['x']))
        tx.insert('items', item('b', 'g', 1))
        tx.insert('others', { id: 'o', name: 'other' })
      })
      return store
    }

    it('restores the state a snapshot kept, as often as asked, whatever was written since', async () => {
      const store = seeded()
      const before = state(store)
      const snapshot = store.snapshot!()
      store.transaction((tx) => {
        tx.update('items', item('a', 'h', 9))
        tx.delete('items', 'b')
        tx.insert('items', item('c', 'g', 2, ['x']))
        tx.insert('others', { id: 'p', name: 'new' })
      })
      const after = state(store)
      expect(after.g).toEqual(['c'])
      store.restore!(snapshot)
      expect(state(store)).toEqual(before)
      store.transaction((tx) => tx.insert('items', item('d', 'g')))
      store.restore!(snapshot)
      expect(state(store)).toEqual(before)
      // a later snapshot is restorable too, and the earlier one still after it
      store.transaction((tx) => tx.insert('items', item('e', 'g', 5)))
      const later = store.snapshot!()
      const withE = state(store)
      store.restore!(snapshot)
      store.restore!(later)
      expect(state(store)).toEqual(withE)
      store.restore!(snapshot)
      expect(state(store)).toEqual(before)
    })

    it('a rolled-back transaction after a snapshot leaves both the store and the snapshot as they were', async () => {
      const store = seeded()
      const before = state(store)
      const snapshot = store.snapshot!()
      expect(() =>
        store.transaction((tx) => {
          tx.insert('items', item('z', 'g'))
          tx.update('items', item('a', 'q', 0))
          throw new Error('no')
        }),
      ).toThrow('no')
      expect(state(store)).toEqual(before)
      store.transaction((tx) => tx.delete('items', 'a'))
      store.restore!(snapshot)
      expect(state(store)).toEqual(before)
    })

    it('forks an independent store: writes on either side do not reach the other', async () => {
      const store = seeded()
      const before = state(store)
      const fork = store.fork!()
      expect(state(fork)).toEqual(before)
      fork.transaction((tx) => tx.insert('items', item('f', 'g')))
      store.transaction((tx) => tx.update('items', item('a', 'g', 7)))
      expect(fork.read((tx) => tx.get('items', 'a')?.value)).toBe(3)
      expect(store.read((tx) => tx.get('items', 'f'))).toBeUndefined()
      expect(fork.read((tx) => ids(tx.scan('items', 'byGroup', 'g')))).toEqual(['a', 'b', 'f'])
      // a fork's snapshot restores the fork, not its parent
      const snap = fork.snapshot!()
      fork.transaction((tx) => tx.delete('items', 'f'))
      fork.restore!(snap)
      expect(fork.read((tx) => tx.get('items', 'f')?.id)).toBe('f')
      expect(store.read((tx) => tx.get('items', 'a')?.value)).toBe(7)
    })

    it('refuses snapshots and restores inside a transaction, and a snapshot that is not one', async () => {
      const store = seeded()
      const snapshot = store.snapshot!()
      expect(() => store.transaction(() => store.snapshot!())).toThrow()
      expect(() => store.transaction(() => store.restore!(snapshot))).toThrow()
      expect(() => store.restore!({ kind: 'store-snapshot' })).toThrow()
    })
  })
}
