import type { Schema, StoragePort } from '../storage/port.js'

/** The options of `createSqliteStore`, and what the store offers beyond the port. */

export interface SqliteStoreOptions {
  /**
   * The database file, created when missing (with `<path>-wal` beside it while open). A file
   * another docs-content-api store has open is refused.
   * @example createSqliteStore(schema, { path: './docs-data/docs.sqlite' })
   */
  path: string
  /**
   * `'normal'`: a committed transaction survives the process dying (killed, crashed); the last
   * commits before a power cut or an OS crash may be lost, never half-written. `'full'`: SQLite
   * syncs the file on every commit, so those survive too, at the cost of waiting for the disk on
   * every commit.
   * @default 'normal'
   */
  durability?: 'normal' | 'full'
  /**
   * Characters of row JSON kept parsed in memory (rows read again are not parsed again). The
   * parsed rows weigh a few times that. 0 keeps none.
   * @default 16 * 1024 * 1024
   */
  cacheChars?: number
  /** Rebuild every index when opening (after a change to a helper an index's key function calls). @default false */
  rebuildIndexes?: boolean
  /**
   * Where `snapshot()` and `fork()` put their copies of the file (removed when the store closes,
   * when the process exits, or when a snapshot is no longer referenced).
   * @default os.tmpdir()
   */
  tempDir?: string
}

/** A storage port on a SQLite file, with what only a store on a file has. */
export interface SqliteStore<S extends Schema> extends StoragePort<S> {
  /** The database file, absolute. */
  readonly path: string
  /** Whether no collection holds a row (a new file, or one whose first transaction never committed). */
  isEmpty(): boolean
  /** Close the file (after a checkpoint: the WAL is folded back into it). The store cannot be used afterwards. */
  close(): void
}
