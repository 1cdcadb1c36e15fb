import { resolve } from 'node:path'
import type { BlobPort } from '../storage/blobs.js'
import { schema, type AppSchema } from '../domains/schema.js'
import { createFileBlobs } from '../sqlite/blobs.js'
import { ensureWritableDir } from '../sqlite/storage-errors.js'
import { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from './store.js'

export interface PostgresDataOptions extends Omit<PostgresStoreOptions, 'url'> {
  /**
   * The directory of the files' bytes, which every process of the deployment shares (the same
   * directory on one machine, a shared mount across machines). Blobs are named by their content
   * and written whole before they are renamed into place, so processes may write it at once.
   */
  blobsDir: string
}

/** The API's data on PostgreSQL: a shared store and a file blob port, ready for `createDocsApi`. */
export interface PostgresData {
  readonly store: PostgresStore<AppSchema>
  readonly blobs: BlobPort
  /** The blob directory, absolute. */
  readonly blobsDir: string
  /** The secret site tokens are signed with, shared by every process on the database (pass it as `siteTokenSecret`). */
  readonly siteTokenSecret: string
  /** Whether the database holds no row (ask inside `store.shared.exclusive` to decide on a seed: another process may be seeding). */
  isEmpty(): boolean
  close(): Promise<void>
}

/**
 * Open (or create) the API's state in a PostgreSQL database, as `serve --database` does.
 *
 * @example
 * const data = await openPostgresData('postgres://docs@db/docs', { blobsDir: '/srv/docs-blobs' })
 * const api = await data.store.shared.exclusive(() =>
 *   createDocsApi({ store: data.store, blobs: data.blobs, siteTokenSecret: data.siteTokenSecret, seed: data.isEmpty() ? mySeed : undefined }),
 * )
 */
export async function openPostgresData(url: string, options: PostgresDataOptions): Promise<PostgresData> {
  const blobsDir = resolve(options.blobsDir)
  ensureWritableDir(blobsDir)
  const blobs = createFileBlobs({ dir: blobsDir, shared: true })
  const store = await openPostgresStore(schema, { ...options, url })
  const siteTokenSecret = await store.secret('site-tokens').catch(async (error: unknown) => {
    await store.close()
    throw error
  })
  return { store, blobs, blobsDir, siteTokenSecret, isEmpty: () => store.isEmpty(), close: () => store.close() }
}
