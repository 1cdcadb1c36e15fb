// The SQLite entry: `import { createSqliteStore, createFileBlobs } from 'docs-content-api/sqlite'`.
// Node-only, like `docs-content-api/node`: durable storage on files, over better-sqlite3 (an
// optional peer dependency, loaded when a store is first opened: importing this entry needs it not).
export { createSqliteStore } from './sqlite/store.js'
export type { SqliteStore, SqliteStoreOptions } from './sqlite/store.js'
export { createFileBlobs } from './sqlite/blobs.js'
export type { FileBlobsOptions } from './sqlite/blobs.js'
export { openDataDir } from './sqlite/data-dir.js'
export type { DataDir, DataDirOptions } from './sqlite/data-dir.js'
export { SQLITE_FORMAT, SQLITE_FORMAT_VERSION, SqliteFormatError } from './sqlite/layout.js'
export { SqliteUnavailableError } from './sqlite/driver.js'
// What the store and the blob port throw for a full disk or one that cannot be written (also exported by the main entry).
export { StorageError } from './storage/errors.js'
