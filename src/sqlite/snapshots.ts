import { existsSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StoragePort, StoreSnapshot } from '../storage/port.js'
import type { Database } from './driver.js'

/**
 * snapshot, restore and fork on a SQLite store, by copying the file: `snapshot()` writes a
 * compact copy of the database (`VACUUM INTO`), `restore()` copies its tables back in one
 * transaction, `fork()` opens a store on a copy of its own. Each costs O(the data), where the
 * in-memory store's cost O(collections): fine for tests and tools, not for a request path; the
 * API takes no snapshot of such a store unasked (`snapshotCost: 'size'`, see src/api.ts).
 *
 * Copies live in a temporary directory of the store's, removed when the store closes or the
 * process exits; a snapshot's file also goes once nothing references the snapshot.
 */

interface SqliteSnapshot extends StoreSnapshot {
  readonly file: string
}

/** Snapshots made by any SQLite store of this process, and their files (a fork restores its parent's). */
const SNAPSHOTS = new WeakMap<object, string>()

/** Temporary directories of open stores, removed at exit if still there. */
const TEMP_DIRS = new Set<string>()
let exitHook = false

const removeQuietly = (path: string, remove: (p: string) => void): void => {
  try {
    remove(path)
  } catch {
    // already gone, or the process is going away: nothing to do
  }
}

const unreferenced = new FinalizationRegistry<string>((file) => removeQuietly(file, unlinkSync))

/** A temporary directory, removed by `removeTempDir` or at process exit. */
export function makeTempDir(parent: string | undefined): string {
  const dir = mkdtempSync(join(parent ?? tmpdir(), 'docs-content-api-'))
  TEMP_DIRS.add(dir)
  if (!exitHook) {
    exitHook = true
    process.once('exit', () => {
      for (const d of TEMP_DIRS) removeQuietly(d, (p) => rmSync(p, { recursive: true, force: true }))
    })
  }
  return dir
}

export function removeTempDir(dir: string): void {
  TEMP_DIRS.delete(dir)
  removeQuietly(dir, (p) => rmSync(p, { recursive: true, force: true }))
}

export interface SnapshotHost {
  db: Database
  tempDir: string | undefined
  /** Throws when the store is closed or a transaction is open. */
  outsideTransactions(what: string): void
  /** The file's contents were replaced: drop what is cached of the old ones. */
  replaced(): void
  /** Open a store on a copy of the file (its own; it removes `dir` when closed). */
  openCopy(file: string, dir: string): StoragePort<never>
}

export function createSnapshots(host: SnapshotHost) {
  const { db } = host
  let dir: string | undefined
  let made = 0
  const vacuumInto = db.prepare('VACUUM INTO ?')

  /** A compact copy of the database, as it is now, in the store's temporary directory. */
  const copy = (into: string, name: string): string => {
    const file = join(into, `${name}.sqlite`)
    vacuumInto.run(file)
    return file
  }

  return {
    snapshot: (): StoreSnapshot => {
      host.outsideTransactions('snapshot()')
      dir ??= makeTempDir(host.tempDir)
      const file = copy(dir, `snapshot-${++made}`)
      const snapshot: SqliteSnapshot = Object.freeze({ kind: 'store-snapshot' as const, file })
      SNAPSHOTS.set(snapshot, file)
      unreferenced.register(snapshot, file)
      return snapshot
    },
    restore: (snapshot: StoreSnapshot): void => {
      host.outsideTransactions('restore()')
      const file = SNAPSHOTS.get(snapshot)
      if (file === undefined) throw new TypeError('restore() takes a snapshot made by snapshot() of a SQLite store')
      if (!existsSync(file)) throw new TypeError(`restore(): the snapshot's copy ${file} is gone (its store was closed)`)
      db.prepare('ATTACH DATABASE ? AS snapshot').run(file)
      try {
        const tablesOf = (schema: string) =>
          new Set(db.prepare(`SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' AND name <> 'sqlite_sequence'`).pluck().all() as string[])
        const mine = tablesOf('main')
        const kept = tablesOf('snapshot')
        const missing = [...mine].filter((t) => !kept.has(t))
        if (missing.length > 0) throw new TypeError(`restore(): the snapshot is of a store with other collections or indexes (it lacks ${missing.join(', ')})`)
        db.transaction(() => {
          for (const t of mine) {
            const name = `"${t.replaceAll('"', '""')}"`
            db.exec(`DELETE FROM main.${name}; INSERT INTO main.${name} SELECT * FROM snapshot.${name}`)
          }
          // Last: the inserts above moved the sequence counters to their rows' highest numbers.
          db.exec('DELETE FROM main.sqlite_sequence; INSERT INTO main.sqlite_sequence SELECT * FROM snapshot.sqlite_sequence')
        }).immediate()
      } finally {
        db.prepare('DETACH DATABASE snapshot').run()
        host.replaced()
      }
    },
    fork: (): StoragePort<never> => {
      host.outsideTransactions('fork()')
      const own = makeTempDir(host.tempDir)
      try {
        return host.openCopy(copy(own, 'fork'), own)
      } catch (error) {
        removeTempDir(own)
        throw error
      }
    },
    /** The store closes: its copies go (a snapshot of it can no longer be restored). */
    close: (): void => {
      if (dir !== undefined) removeTempDir(dir)
    },
  }
}
