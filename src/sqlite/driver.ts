import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

/**
 * better-sqlite3, loaded when a SQLite store is first opened rather than when the entry is
 * imported: it is an optional peer dependency (a native module), so `docs-content-api/sqlite`
 * can be imported (and its types used) where it is not installed, and the command line loads it
 * only for `serve --data`. Synchronous on purpose: the storage port is synchronous, and so is
 * better-sqlite3 (see src/storage/port.ts).
 */

export type Database = BetterSqlite3.Database
export type Statement = BetterSqlite3.Statement

type DatabaseConstructor = typeof BetterSqlite3

let loaded: DatabaseConstructor | undefined

/** The peer dependency's major version this adapter is built and tested with. */
export const BETTER_SQLITE3_RANGE = '^12'

/** Thrown when better-sqlite3 is missing or cannot load (a native build for another Node, say). */
export class SqliteUnavailableError extends Error {
  override readonly name = 'SqliteUnavailableError'
}

function load(): DatabaseConstructor {
  if (loaded) return loaded
  // Resolved from this package's own location, where npm puts a peer dependency.
  const require = createRequire(import.meta.url)
  try {
    loaded = require('better-sqlite3') as DatabaseConstructor
  } catch (error) {
    const missing = (error as { code?: string }).code === 'MODULE_NOT_FOUND' && String((error as Error).message).includes("'better-sqlite3'")
    throw new SqliteUnavailableError(
      missing
        ? `The SQLite store needs better-sqlite3, an optional peer dependency of docs-content-api: npm install better-sqlite3@${BETTER_SQLITE3_RANGE.slice(1)}`
        : `better-sqlite3 is installed but does not load (${(error as Error).message.split('\n')[0]}); its native module may need building for this Node: npm rebuild better-sqlite3`,
      { cause: error },
    )
  }
  return loaded
}

/**
 * Open (or create) a database file. A file another connection holds is waited for a second (a
 * server restarted while the previous one closes), not the driver's five.
 */
export function openDatabase(path: string): Database {
  const Database = load()
  return new Database(path, { timeout: 1000 })
}
