import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { BlobPort } from '../storage/blobs.js'
import { schema, type AppSchema } from '../storage/schema.js'
import { createFileBlobs } from './blobs.js'
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
 * @example
 * const data = openDataDir('./docs-data')
 * const api = createDocsApi({ store: data.store, blobs: data.blobs, seed: data.empty ? mySeed : undefined })
 */
export function openDataDir(dir: string, options: DataDirOptions = {}): DataDir {
  const root = resolve(dir)
  mkdirSync(root, { recursive: true })
  const store = createSqliteStore(schema, { ...options, path: join(root, 'docs.sqlite') })
  try {
    const blobs = createFileBlobs({ dir: join(root, 'blobs') })
    return { dir: root, store, blobs, empty: store.isEmpty(), close: () => store.close() }
  } catch (error) {
    store.close()
    throw error
  }
}
