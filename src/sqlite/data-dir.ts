import { accessSync, constants, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { BlobPort } from '../storage/blobs.js'
import { schema, type AppSchema } from '../domains/schema.js'
import { createFileBlobs } from './blobs.js'
import { ensureWritableDir, storageErrorOf } from './storage-errors.js'
import { createSqliteStore, type SqliteStore, type SqliteStoreOptions } from './store.js'

export type DataDirOptions = Omit<SqliteStoreOptions, 'path'>

/** The API's data on disk: a SQLite store and a file blob port, ready for `createDocsApi`. */
export interface DataDir {
  /** The directory, absolute. */
  readonly dir: string
  /** `<dir>/docs.sqlite`: the rows. */
  readonly store: SqliteStore<AppSchema>
  /** `<dir>/blobs/`: the bytes of files. */
  readonly blobs: BlobPort
  /** Whether the store holds no row yet (where a seed goes). */
  readonly empty: boolean
  /** Close the store. */
  close(): void
}

/**
 * Open (or create) a data directory: the layout the command line's `serve --data` uses.
 *
 * A directory that cannot be written (a read-only file system, no write permission) is refused
 * with a StorageError saying so (`... is not writable (EROFS: read-only file system)`), and so is
 * a disk too full to create the store. Opening removes the temporary files of blob writes a
 * crash cut short (see `createFileBlobs`).
 *
 * @example
 * const data = openDataDir('./docs-data')
 * const api = createDocsApi({ store: data.store, blobs: data.blobs, seed: data.empty ? mySeed : undefined })
 */
export function openDataDir(dir: string, options: DataDirOptions = {}): DataDir {
  const root = resolve(dir)
  ensureWritableDir(root)
  const file = join(root, 'docs.sqlite')
  // SQLite opens a file it may not write read-only, and would say so only at the first write.
  try {
    if (existsSync(file)) accessSync(file, constants.W_OK)
  } catch (error) {
    throw storageErrorOf(error, file) ?? error
  }
  const store = createSqliteStore(schema, { ...options, path: file })
  try {
    const blobs = createFileBlobs({ dir: join(root, 'blobs') })
    return { dir: root, store, blobs, empty: store.isEmpty(), close: () => store.close() }
  } catch (error) {
    store.close()
    throw error
  }
}
