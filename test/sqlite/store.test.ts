import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { createSqliteStore, SQLITE_FORMAT_VERSION, SqliteFormatError } from '../../src/sqlite.js'
import { collection, type Row } from '../../src/storage/port.js'
import { suiteSchema } from '../../src/storage/suite.js'
import { scratchDir } from './helpers.js'

const dir = scratchDir()
let n = 0
const file = () => join(dir, `store-${++n}.sqlite`)
const item = (id: string, group: string, value = 1, tags: string[] = []) => ({ id, group, value, tags })
const ids = (entries: Array<{ row: Row }>) => entries.map((e) => e.row.id)

/** The bytes of the database and its WAL: what a crash would leave on disk. */
const onDisk = (path: string) =>
  createHash('sha256')
    .update(readFileSync(path))
    .update(existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`) : '')
    .digest('hex')

describe('SQLite store', () => {
  it('keeps rows, indexes, counts and sequence numbers across a close and a reopen', () => {
    const path = file()
    const store = createSqliteStore(suiteSchema, { path })
    store.transaction((tx) => {
      for (const [id, value] of [
        ['a', 5],
        ['b', 1],
        ['c', 3],
      ] as const)
        tx.insert('items', item(id, 'g', value, ['x']))
      tx.insert('others', { id: 'o', name: 'other' })
    })
    store.transaction((tx) => tx.delete('items', 'c'))
    const state = (s: typeof store) =>
      s.read((tx) => ({
        all: tx.all('items'),
        byValue: tx.scan('items', 'byValue', 'g').map((e) => [e.row.id, e.order, e.seq]),
        tagged: tx.count('items', 'byTag', 'x'),
        seqs: ['a', 'b', 'c'].map((id) => tx.seqOf('items', id)),
        other: tx.get('others', 'o'),
      }))
    const before = state(store)
    store.close()
    const reopened = createSqliteStore(suiteSchema, { path })
    expect(state(reopened)).toEqual(before)
    // A sequence number is never given twice: not even the deleted newest row's, after a reopen.
    reopened.transaction((tx) => tx.insert('items', item('d', 'g')))
    expect(reopened.read((tx) => tx.seqOf('items', 'd'))).toBeGreaterThan(before.seqs[1]! + 1)
    reopened.close()
    expect(() => reopened.read((tx) => tx.get('items', 'a'))).toThrow('closed')
  })

  it('reads rows from the file when nothing is cached, and hands out the same frozen row while it is unchanged', () => {
    const path = file()
    const store = createSqliteStore(suiteSchema, { path })
    store.transaction((tx) => tx.insert('items', item('a', 'g', 1, ['x'])))
    const first = store.read((tx) => tx.get('items', 'a'))!
    expect(store.read((tx) => tx.get('items', 'a'))).toBe(first)
    expect(store.read((tx) => tx.scan('items', 'byGroup', 'g')[0]!.row)).toBe(first)
    store.close()
    const uncached = createSqliteStore(suiteSchema, { path, cacheChars: 0 })
    const read = uncached.read((tx) => tx.get('items', 'a'))!
    expect(read).toEqual(item('a', 'g', 1, ['x']))
    expect(Object.isFrozen(read) && Object.isFrozen(read.tags)).toBe(true)
    uncached.close()
  })

  it('a small cache evicts and reads again, answers unchanged', () => {
    const store = createSqliteStore(suiteSchema, { path: file(), cacheChars: 200 })
    store.transaction((tx) => {
      for (let i = 0; i < 50; i++) tx.insert('items', item(`i${i}`, i % 2 ? 'odd' : 'even', i))
    })
    for (let round = 0; round < 3; round++) {
      expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'odd')).length)).toBe(25)
      expect(store.read((tx) => tx.get('items', 'i7')?.value)).toBe(7)
    }
    store.close()
  })

  it('a rolled-back transaction leaves the file as it was, byte for byte, and the caches follow the file', () => {
    const path = file()
    const store = createSqliteStore(suiteSchema, { path })
    store.transaction((tx) => {
      tx.insert('items', item('a', 'g', 1))
      tx.insert('items', item('b', 'g', 2))
    })
    expect(store.read((tx) => tx.count('items', 'byGroup', 'g'))).toBe(2)
    const bytes = onDisk(path)
    expect(() =>
      store.transaction((tx) => {
        tx.update('items', item('a', 'h', 10))
        tx.delete('items', 'b')
        tx.insert('items', item('c', 'g'))
        expect(tx.count('items', 'byGroup', 'g')).toBe(1)
        throw new Error('half-way')
      }),
    ).toThrow('half-way')
    expect(onDisk(path)).toBe(bytes)
    expect(store.read((tx) => [tx.count('items', 'byGroup', 'g'), tx.count('items', 'byGroup', 'h'), tx.get('items', 'a')?.group])).toEqual([2, 0, 'g'])
    store.close()
  })

  it('scans are range reads of the index: no table scan, no sort', () => {
    const path = file()
    createSqliteStore(suiteSchema, { path }).close()
    const db = new Database(path)
    const plan = (sql: string, ...args: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail).join('; ')
    const index = '"index.items.byValue"'
    expect(plan(`SELECT ord, seq, id FROM ${index} WHERE key = ? ORDER BY ord, seq LIMIT ?`, 'g', 10)).toBe(
      'SEARCH index.items.byValue USING PRIMARY KEY (key=?)',
    )
    expect(plan(`SELECT ord, seq, id FROM ${index} WHERE key = ? AND (ord, seq) > (?, ?) ORDER BY ord, seq LIMIT ?`, 'g', 1, 2, 10)).toBe(
      'SEARCH index.items.byValue USING PRIMARY KEY (key=? AND (ord,seq)>(?,?))',
    )
    expect(plan('SELECT seq, data FROM "rows.items" WHERE id = ?', 'a')).toMatch(/^SEARCH rows\.items USING INDEX/)
    db.close()
  })

  it('makes its tables from any schema: a new collection and a new index are built from the rows there, a dropped index goes', () => {
    const path = file()
    const v1 = { notes: collection<Row & { topic: string; n: number }>({ byTopic: { key: (r) => r.topic } }) }
    const store = createSqliteStore(v1, { path })
    store.transaction((tx) => {
      for (let i = 0; i < 5; i++) tx.insert('notes', { id: `n${i}`, topic: i % 2 ? 'odd' : 'even', n: i })
    })
    store.close()
    const v2 = {
      notes: collection<Row & { topic: string; n: number }>({ byParity: { key: (r) => (r.n % 2 ? 'odd' : 'even'), order: (r) => -r.n } }),
      tags: collection<Row>(),
    }
    const next = createSqliteStore(v2, { path })
    expect(next.read((tx) => ids(tx.scan('notes', 'byParity', 'even')))).toEqual(['n4', 'n2', 'n0'])
    next.transaction((tx) => tx.insert('tags', { id: 't' }))
    next.close()
    const db = new Database(path)
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()
    db.close()
    expect(tables).toContain('index.notes.byParity')
    expect(tables).not.toContain('index.notes.byTopic')
  })

  it('rebuilds an index whose key function changed', () => {
    const path = file()
    const store = createSqliteStore({ notes: collection<Row & { n: number }>({ byN: { key: (r) => String(r.n) } }) }, { path })
    store.transaction((tx) => tx.insert('notes', { id: 'a', n: 1 }))
    store.close()
    const changed = createSqliteStore({ notes: collection<Row & { n: number }>({ byN: { key: (r) => `n=${r.n}` } }) }, { path })
    expect(changed.read((tx) => [tx.count('notes', 'byN', 'n=1'), tx.count('notes', 'byN', '1')])).toEqual([1, 0])
    changed.close()
  })

  it('refuses a file of a newer format, a database that is not a store, a version it cannot read, and a file in use', () => {
    const newer = file()
    createSqliteStore(suiteSchema, { path: newer }).close()
    const db = new Database(newer)
    db.prepare("UPDATE meta SET value = ? WHERE key = 'version'").run(String(SQLITE_FORMAT_VERSION + 1))
    db.close()
    expect(() => createSqliteStore(suiteSchema, { path: newer })).toThrow(
      new SqliteFormatError(
        `${newer} was written by a newer docs-content-api (store format version ${SQLITE_FORMAT_VERSION + 1}); this one reads versions up to ${SQLITE_FORMAT_VERSION}: upgrade docs-content-api, or open a copy made before the upgrade`,
      ),
    )

    const foreign = file()
    const other = new Database(foreign)
    other.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY)')
    other.close()
    expect(() => createSqliteStore(suiteSchema, { path: foreign })).toThrow(/is a SQLite database but not a docs-content-api store/)

    const zero = file()
    createSqliteStore(suiteSchema, { path: zero }).close()
    const z = new Database(zero)
    z.prepare("UPDATE meta SET value = '0' WHERE key = 'version'").run()
    z.close()
    expect(() => createSqliteStore(suiteSchema, { path: zero })).toThrow(/unreadable store version "0"/)

    const path = file()
    const open = createSqliteStore(suiteSchema, { path })
    const busy = new Database(path, { timeout: 0 })
    expect(() => busy.prepare('SELECT count(*) FROM meta').get()).toThrow(/locked|busy/i)
    busy.close()
    expect(() => createSqliteStore(suiteSchema, { path })).toThrow(`${path} is in use: another store (in this process or another) has it open`)
    open.close()
  })

  it('snapshot and fork copy the file; a snapshot of a closed store can no longer be restored', () => {
    const store = createSqliteStore(suiteSchema, { path: file(), tempDir: dir })
    store.transaction((tx) => tx.insert('items', item('a', 'g')))
    const snapshot = store.snapshot!()
    store.transaction((tx) => tx.insert('items', item('b', 'g')))
    const fork = store.fork!() as typeof store
    store.restore!(snapshot)
    expect(store.read((tx) => ids(tx.scan('items', 'byGroup', 'g')))).toEqual(['a'])
    expect(fork.read((tx) => ids(tx.scan('items', 'byGroup', 'g')))).toEqual(['a', 'b'])
    // the fork is a file of its own, removed when it closes
    expect(fork.path).not.toBe(store.path)
    fork.close()
    expect(existsSync(fork.path)).toBe(false)
    store.close()
    const again = createSqliteStore(suiteSchema, { path: store.path })
    expect(() => again.restore!(snapshot)).toThrow(/is gone/)
    again.close()
  })
})
