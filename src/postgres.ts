// The PostgreSQL entry: `import { openPostgresData, openPostgresStore } from 'docs-content-api/postgres'`.
// Node-only, like `docs-content-api/sqlite`: several API processes over one database, each with a
// replica of the state in memory (docs/guide/postgres.md, docs/design/postgres.md), over pg
// (node-postgres, an optional peer dependency, loaded when a store is first opened).
export { openPostgresStore } from './postgres/store.js'
export type { PostgresStore, PostgresStoreOptions } from './postgres/store.js'
export { openPostgresData } from './postgres/data.js'
export type { PostgresData, PostgresDataOptions } from './postgres/data.js'
export { POSTGRES_FORMAT, POSTGRES_FORMAT_VERSION, PostgresFormatError } from './postgres/layout.js'
export { PostgresUnavailableError } from './postgres/driver.js'
export type { SharedStore } from './storage/port.js'
export { StorageError } from './storage/errors.js'
