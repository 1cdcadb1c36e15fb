import { resolve } from 'node:path'
import type { Entry, ReadTx, Row, Schema, StoragePort, WriteTx } from '../storage/port.js'
import { RowCache, type CachedRow } from './cache.js'
import { openDatabase, type Database } from './driver.js'
import { keysOf, prepareLayout, SqliteFormatError } from './layout.js'
import { createSnapshots, removeTempDir } from './snapshots.js'
import { storageErrorOf } from './storage-errors.js'
import { prepareTables, type IndexTable, type Table } from './tables.js'
import type { SqliteStore, SqliteStoreOptions } from './options.js'
import { deepFreeze } from '../storage/freeze.js'

export type { SqliteStore, SqliteStoreOptions } from './options.js'

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

const isUniqueViolation = (error: unknown): boolean => (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE'

/**
 * The SQLite adapter of the storage port, on better-sqlite3 (synchronous, like the port).
 *
 * Atomicity and durability: `transaction` is a SQLite transaction (a savepoint when nested), in
 * WAL mode: a transaction that throws is rolled back by SQLite, so nothing of it reaches the
 * file; one that returns is committed, and survives the process being killed right after.
 * Isolation: the port is synchronous and a JavaScript function runs to completion, so nothing
 * else runs between a transaction's reads and writes; the store takes SQLite's exclusive lock
 * (`locking_mode = EXCLUSIVE`), so no other process writes the file either, which is also what
 * keeps the row and count caches exact (cache.ts).
 */
export function createSqliteStore<S extends Schema>(schema: S, options: SqliteStoreOptions): SqliteStore<S> {
  return openStore(schema, options, undefined)
}

/** Open the store at `options.path`; `ownDir`: a temporary directory (a fork's) to remove when it closes. */
function openStore<S extends Schema>(schema: S, options: SqliteStoreOptions, ownDir: string | undefined): SqliteStore<S> {
  const path = options.path === ':memory:' ? ':memory:' : resolve(options.path)
  let db: Database
  try {
    db = openDatabase(path)
  } catch (error) {
    throw storageErrorOf(error, path) ?? error
  }
  try {
    configure(db, path, options.durability ?? 'normal')
    prepareLayout(db, schema, path, options.rebuildIndexes ?? false)
  } catch (error) {
    db.close()
    // A file on a read-only file system opens, and fails at its first lock or write (here).
    throw storageErrorOf(error, path) ?? error
  }
  return sqliteStore(schema, db, path, options, ownDir)
}

function configure(db: Database, path: string, durability: 'normal' | 'full'): void {
  try {
    // Exclusive before WAL: the WAL index then lives in this process's memory (no -shm file),
    // and the lock taken by the first transaction is held until close.
    db.pragma('locking_mode = EXCLUSIVE')
    if (path !== ':memory:' && db.pragma('journal_mode = WAL', { simple: true }) !== 'wal') throw new SqliteFormatError(`${path}: SQLite refused WAL mode`)
    db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`)
    // Take the lock now, so a file in use says so here rather than at the first request.
    db.exec('BEGIN IMMEDIATE; COMMIT')
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY'))
      throw new SqliteFormatError(`${path} is in use: another store (in this process or another) has it open, and a store keeps its file to itself`, {
        cause: error,
      })
    throw error
  }
}

/** The store over an open, prepared database. */
function sqliteStore<S extends Schema>(schema: S, db: Database, path: string, options: SqliteStoreOptions, ownDir: string | undefined): SqliteStore<S> {
  const tables = prepareTables(db, schema)
  const cache = new RowCache(options.cacheChars ?? 16 * 1024 * 1024)
  /** Counts of index keys asked so far (`count`), kept up to date by writes: by index, by key. */
  const counts = new Map<IndexTable, Map<string, number>>()
  const begin = db.prepare('BEGIN IMMEDIATE')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  const savepoint = db.prepare('SAVEPOINT nested')
  const release = db.prepare('RELEASE nested')
  const rollbackTo = db.prepare('ROLLBACK TO nested')
  let depth = 0
  let closed = false
  /** What the running transaction wrote, to evict from the caches if it rolls back: collection, id pairs. */
  let touchedRows: Array<string> = []
  let touchedCounts: Array<IndexTable | string> = []

  const table = (collection: string): Table => {
    const t = tables.get(collection)
    if (!t) throw new Error(closed ? 'The SQLite store is closed' : `Unknown collection "${collection}"`)
    return t
  }
  const indexOf = (collection: string, index: string): IndexTable => {
    const i = table(collection).indexes.get(index)
    if (!i) throw new Error(`Unknown index "${collection}.${index}"`)
    return i
  }
  const open = (): void => {
    if (closed) throw new Error('The SQLite store is closed')
  }

  /** Parse, freeze and cache a row read from the file. */
  const load = (t: Table, seq: number, data: string): CachedRow => {
    const row = deepFreeze(JSON.parse(data) as Row)
    cache.set(t.name, row, seq, data.length)
    return { row, seq, chars: data.length }
  }
  const find = (t: Table, id: string): CachedRow | undefined => {
    const hit = cache.get(t.name, id)
    if (hit) return hit
    open()
    const found = t.byId.get(id) as [number, string] | undefined
    return found && load(t, found[0], found[1])
  }
  const rowAt = (t: Table, seq: number, id: string): Row => {
    const hit = cache.get(t.name, id)
    if (hit) return hit.row
    return load(t, seq, t.bySeq.get(seq) as string).row
  }

  const bump = (index: IndexTable, key: string, by: number): void => {
    const known = counts.get(index)
    const n = known?.get(key)
    if (n !== undefined) known!.set(key, n + by)
    touchedCounts.push(index, key)
  }
  const addEntries = (index: IndexTable, row: Row, seq: number, keys: readonly string[]): void => {
    const ord = index.def.order ? index.def.order(row) : 0
    for (const key of keys) {
      if (index.add.run(key, ord, seq, row.id).changes > 0) bump(index, key, 1)
    }
  }
  const removeEntries = (index: IndexTable, row: Row, seq: number, keys: readonly string[]): void => {
    const ord = index.def.order ? index.def.order(row) : 0
    for (const key of keys) {
      if (index.remove.run(key, ord, seq).changes > 0) bump(index, key, -1)
    }
  }

  const writing = (): void => {
    if (depth === 0) throw new Error('Writes need a transaction')
  }

  const reader: ReadTx<S> = {
    get: (collection, id) => find(table(collection), id)?.row as never,
    scan: (collection, index, key, options) => {
      const t = table(collection)
      const i = indexOf(collection, index)
      open()
      const limit = options?.limit ?? -1
      const after = options?.after
      const found = (after === undefined ? i.scanFirst.all(key, limit) : i.scanAfter.all(key, after.order, after.seq, limit)) as Array<[number, number, string]>
      const out: Entry<never>[] = new Array(found.length)
      for (let n = 0; n < found.length; n++) {
        const [order, seq, id] = found[n]!
        out[n] = { order, seq, row: rowAt(t, seq, id) as never }
      }
      return out
    },
    count: (collection, index, key) => {
      const i = indexOf(collection, index)
      let known = counts.get(i)
      const n = known?.get(key)
      if (n !== undefined) return n
      open()
      const counted = i.count.get(key) as number
      if (!known) counts.set(i, (known = new Map()))
      // A cache of counts asked for, not of every key: bounded, emptied when full.
      if (known.size >= 65_536) known.clear()
      known.set(key, counted)
      return counted
    },
    seqOf: (collection, id) => {
      const t = table(collection)
      const hit = cache.get(t.name, id)
      if (hit) return hit.seq
      open()
      return (t.seqOf.get(id) as number | undefined) ?? undefined
    },
    all: (collection) => {
      const t = table(collection)
      open()
      const rows: never[] = []
      // Not cached: a walk of a whole collection would push out the rows requests read.
      for (const [, id, data] of t.all.iterate() as Iterable<[number, string, string]>)
        rows.push((cache.get(t.name, id)?.row ?? deepFreeze(JSON.parse(data))) as never)
      return rows
    },
  }

  const writer: WriteTx<S> = {
    ...reader,
    insert: (collection, row) => {
      writing()
      const t = table(collection)
      if (cache.get(t.name, row.id)) throw new Error(`Duplicate id "${row.id}" in "${collection}"`)
      const data = JSON.stringify(row)
      let seq: number
      try {
        seq = Number(t.insert.run(row.id, data).lastInsertRowid)
      } catch (error) {
        if (isUniqueViolation(error)) throw new Error(`Duplicate id "${row.id}" in "${collection}"`)
        throw error
      }
      touchedRows.push(t.name, row.id)
      const frozen = deepFreeze(row)
      for (const index of t.indexList) addEntries(index, frozen, seq, keysOf(index.def, frozen))
      cache.set(t.name, frozen, seq, data.length)
      return frozen
    },
    update: (collection, row) => {
      writing()
      const t = table(collection)
      const before = find(t, row.id)
      if (!before) throw new Error(`No row "${row.id}" in "${collection}"`)
      const data = JSON.stringify(row)
      touchedRows.push(t.name, row.id)
      t.update.run(data, before.seq)
      const frozen = deepFreeze(row)
      for (const index of t.indexList) {
        const { def } = index
        const old = keysOf(def, before.row)
        const now = keysOf(def, frozen)
        if (sameKeys(old, now) && (!def.order || def.order(before.row) === def.order(frozen))) continue
        removeEntries(index, before.row, before.seq, old)
        addEntries(index, frozen, before.seq, now)
      }
      cache.set(t.name, frozen, before.seq, data.length)
      return frozen
    },
    delete: (collection, id) => {
      writing()
      const t = table(collection)
      const before = find(t, id)
      if (!before) return false
      touchedRows.push(t.name, id)
      t.remove.run(before.seq)
      for (const index of t.indexList) removeEntries(index, before.row, before.seq, keysOf(index.def, before.row))
      cache.delete(t.name, id)
      return true
    },
  }

  /** After a rollback: what the transaction touched is read again from the file. */
  const evictTouched = (): void => {
    for (let i = 0; i < touchedRows.length; i += 2) cache.delete(touchedRows[i]!, touchedRows[i + 1]!)
    for (let i = 0; i < touchedCounts.length; i += 2) counts.get(touchedCounts[i] as IndexTable)?.delete(touchedCounts[i + 1] as string)
  }

  const transaction = <T>(fn: (tx: WriteTx<S>) => T): T => {
    open()
    try {
      ;(depth === 0 ? begin : savepoint).run()
    } catch (error) {
      throw storageErrorOf(error, path) ?? error
    }
    depth++
    try {
      const result = fn(writer)
      if (result && typeof (result as { then?: unknown }).then === 'function') {
        throw new Error('A transaction function must be synchronous: the port gives no isolation across awaits')
      }
      // A nested transaction commits into its parent (RELEASE); only the outermost reaches the file.
      if (depth === 1) {
        commit.run()
        touchedRows = []
        touchedCounts = []
      } else release.run()
      return result
    } catch (error) {
      // SQLite may have rolled back already (a failed COMMIT on a full disk does).
      if (db.inTransaction) {
        try {
          if (depth === 1) rollback.run()
          else {
            rollbackTo.run()
            release.run()
          }
        } catch (failed) {
          // Rolled back anyway (SQLite does on some I/O errors): the error that made it roll back is the one to report.
          if (db.inTransaction) throw storageErrorOf(failed, path) ?? failed
        }
      }
      evictTouched()
      if (depth === 1) {
        touchedRows = []
        touchedCounts = []
      }
      // A full disk or one that cannot be written (SQLITE_FULL, SQLITE_READONLY...) says so: the API answers 507 / 503.
      throw storageErrorOf(error, path) ?? error
    } finally {
      depth--
    }
  }

  const outsideTransactions = (what: string): void => {
    open()
    if (depth > 0) throw new Error(`${what} cannot run inside a transaction`)
  }
  const snapshots = createSnapshots({
    db,
    tempDir: options.tempDir,
    outsideTransactions,
    replaced: () => {
      // The rows and counts in memory are those of the state replaced.
      cache.clear()
      counts.clear()
    },
    // Same layout (the copy's indexes are built for this schema): opening it only checks.
    openCopy: (file, dir) => openStore(schema, { ...options, path: file, rebuildIndexes: false }, dir) as never,
  })

  return {
    schema,
    path,
    read: (fn) => fn(reader),
    transaction,
    snapshotCost: 'size',
    isEmpty: () => {
      open()
      return [...tables.values()].every((t) => t.any.get() === undefined)
    },
    snapshot: snapshots.snapshot,
    restore: snapshots.restore,
    fork: snapshots.fork as () => StoragePort<S>,
    close: () => {
      if (closed) return
      outsideTransactions('close()')
      closed = true
      snapshots.close()
      cache.clear()
      counts.clear()
      tables.clear()
      db.close()
      if (ownDir !== undefined) removeTempDir(ownDir)
    },
  }
}
