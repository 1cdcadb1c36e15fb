import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../src/storage/memory.js'
import { suiteSchema } from '../../src/storage/suite.js'
import { runStorageSuite } from '../../src/testing.js'

runStorageSuite('memory', (schema) => createMemoryStore(schema), { describe, it, expect })

describe('memory store specifics', () => {
  const item = (id: string, group: string, value = 1, tags: string[] = []) => ({ id, group, value, tags })
  const ids = (entries: Array<{ row: { id: string } }>) => entries.map((e) => e.row.id)

  it('freezes rows deeply: what insert, update, get, scan and all hand out cannot be changed', () => {
    const store = createMemoryStore(suiteSchema)
    const inserted = store.transaction((tx) => tx.insert('items', item('a', 'g', 1, ['x'])))
    const updated = store.transaction((tx) => tx.update('items', item('a', 'g', 2, ['y'])))
    const got = store.read((tx) => tx.get('items', 'a'))!
    const scanned = store.read((tx) => tx.scan('items', 'byGroup', 'g'))[0]!.row
    const all = store.read((tx) => tx.all('items'))[0]!
    for (const row of [inserted, updated, got, scanned, all]) {
      expect(Object.isFrozen(row)).toBe(true)
      expect(Object.isFrozen(row.tags)).toBe(true)
    }
    expect(inserted.value).toBe(1) // the old version is a separate, still frozen, value
    expect(() => got.tags.push('z')).toThrow(TypeError)
    expect(store.read((tx) => tx.get('items', 'a'))).toEqual(item('a', 'g', 2, ['y']))
  })

  it('an object given to insert cannot change the stored row afterwards', () => {
    const store = createMemoryStore(suiteSchema)
    const row = item('a', 'g', 1, ['x'])
    store.transaction((tx) => tx.insert('items', row))
    expect(() => {
      row.value = 5
    }).toThrow(TypeError)
    expect(store.read((tx) => tx.get('items', 'a')!.value)).toBe(1)
  })

  it('an update keeps the row in its index position; delete and insert again goes to the end', () => {
    const store = createMemoryStore(suiteSchema)
    store.transaction((tx) => {
      for (const id of ['a', 'b', 'c']) tx.insert('items', item(id, 'g'))
    })
    const seqA = store.read((tx) => tx.seqOf('items', 'a'))
    store.transaction((tx) => tx.update('items', item('a', 'g', 42, ['t'])))
    expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'g')))).toEqual(['a', 'b', 'c'])
    expect(store.read((tx) => tx.seqOf('items', 'a'))).toBe(seqA)
    expect(store.read((tx) => ids(tx.scan('items', 'byTag', 't')))).toEqual(['a'])
    store.transaction((tx) => {
      tx.delete('items', 'a')
      tx.insert('items', item('a', 'g'))
    })
    expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'g')))).toEqual(['b', 'c', 'a'])
    expect(store.read((tx) => tx.seqOf('items', 'a'))).toBeGreaterThan(seqA!)
    expect(store.read((tx) => tx.count('items', 'byTag', 't'))).toBe(0)
    expect(store.read((tx) => tx.all('items').map((r) => r.id))).toEqual(['b', 'c', 'a'])
  })

  it('a rollback restores rows, their sequence numbers and every index entry', () => {
    const store = createMemoryStore(suiteSchema)
    store.transaction((tx) => {
      tx.insert('items', item('a', 'g', 1, ['x']))
      tx.insert('items', item('b', 'g', 2, ['x', 'y']))
      tx.insert('items', item('c', 'h', -1))
    })
    const snapshot = () =>
      store.read((tx) => ({
        all: tx.all('items'),
        seqs: ['a', 'b', 'c', 'd'].map((id) => tx.seqOf('items', id)),
        g: ids(tx.scan('items', 'byGroup', 'g')),
        h: ids(tx.scan('items', 'byGroup', 'h')),
        x: ids(tx.scan('items', 'byTag', 'x')),
        y: ids(tx.scan('items', 'byTag', 'y')),
        z: tx.count('items', 'byTag', 'z'),
        positive: ids(tx.scan('items', 'positive', 'yes')),
      }))
    const before = snapshot()
    expect(() =>
      store.transaction((tx) => {
        tx.delete('items', 'a')
        tx.insert('items', item('a', 'h', 5, ['z'])) // same id again, other key
        tx.update('items', item('b', 'h', -2, ['z']))
        tx.update('items', item('b', 'g', 3, [])) // updated twice
        tx.insert('items', item('d', 'g', 1, ['z']))
        tx.delete('items', 'c')
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect(snapshot()).toEqual(before)
    // the store still works normally after a rollback
    store.transaction((tx) => tx.insert('items', item('d', 'g')))
    expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'g')))).toEqual(['a', 'b', 'd'])
  })

  it('a committed transaction is not undone by a later failing one', () => {
    const store = createMemoryStore(suiteSchema)
    store.transaction((tx) => tx.insert('items', item('a', 'g')))
    expect(() =>
      store.transaction((tx) => {
        tx.insert('items', item('b', 'g'))
        throw new Error('later')
      }),
    ).toThrow('later')
    expect(store.read((tx) => tx.all('items').map((r) => r.id))).toEqual(['a'])
  })

  it('reads inside a transaction see its own writes; stores do not share state', () => {
    const store = createMemoryStore(suiteSchema)
    const other = createMemoryStore(suiteSchema)
    store.transaction((tx) => {
      tx.insert('items', item('a', 'g'))
      expect(tx.get('items', 'a')?.id).toBe('a')
      expect(tx.count('items', 'byGroup', 'g')).toBe(1)
    })
    expect(other.read((tx) => tx.all('items'))).toEqual([])
    expect(() => store.read((tx) => tx.get('nope' as 'items', 'a'))).toThrow('Unknown collection')
    expect(() => store.read((tx) => tx.scan('items', 'nope' as 'byGroup', 'g'))).toThrow('Unknown index')
  })

  it('never gives a committed sequence number twice: a cursor past a deleted last row still finds new rows', () => {
    const store = createMemoryStore(suiteSchema)
    store.transaction((tx) => {
      for (const id of ['a', 'b']) tx.insert('items', item(id, 'g'))
    })
    const cursor = store.read((tx) => tx.scan('items', 'byGroup', 'g'))[1]!
    store.transaction((tx) => tx.delete('items', 'b'))
    store.transaction((tx) => tx.insert('items', item('c', 'g')))
    expect(store.read((tx) => tx.seqOf('items', 'c'))).toBeGreaterThan(cursor.seq)
    expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'g', { after: cursor })))).toEqual(['c'])
  })

  it('a rolled-back insert gives its sequence number back; rows keep theirs through rollbacks', () => {
    const store = createMemoryStore(suiteSchema)
    store.transaction((tx) => tx.insert('items', item('a', 'g')))
    expect(() =>
      store.transaction((tx) => {
        tx.insert('items', item('b', 'g'))
        tx.insert('items', item('c', 'g'))
        tx.delete('items', 'a')
        throw new Error('undo')
      }),
    ).toThrow('undo')
    store.transaction((tx) => tx.insert('items', item('d', 'g')))
    expect(store.read((tx) => ['a', 'b', 'c', 'd'].map((id) => tx.seqOf('items', id)))).toEqual([0, undefined, undefined, 1])
    expect(store.read((tx) => tx.all('items').map((r) => r.id))).toEqual(['a', 'd'])
  })

  it("an update that keeps a row's keys and order leaves its index entries alone; one that changes them moves them", () => {
    const store = createMemoryStore(suiteSchema)
    store.transaction((tx) => {
      for (const [id, value] of [
        ['a', 1],
        ['b', 1],
        ['c', 2],
      ] as const)
        tx.insert('items', item(id, 'g', value, ['t']))
    })
    const scanValues = () => store.read((tx) => tx.scan('items', 'byValue', 'g').map((e) => [e.row.id, e.order, e.row.tags.join()]))
    store.transaction((tx) => tx.update('items', item('a', 'g', 1, ['t'])))
    expect(scanValues()).toEqual([
      ['a', 1, 't'],
      ['b', 1, 't'],
      ['c', 2, 't'],
    ])
    store.transaction((tx) => tx.update('items', item('a', 'g', 1, ['t', 'u'])))
    expect(store.read((tx) => ids(tx.scan('items', 'byTag', 'u')))).toEqual(['a'])
    expect(scanValues()).toEqual([
      ['a', 1, 't,u'],
      ['b', 1, 't'],
      ['c', 2, 't'],
    ])
    store.transaction((tx) => tx.update('items', item('a', 'g', 3, ['t', 'u'])))
    expect(scanValues()).toEqual([
      ['b', 1, 't'],
      ['c', 2, 't'],
      ['a', 3, 't,u'],
    ])
  })
})
