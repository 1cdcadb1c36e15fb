import { createRequire } from 'node:module'
import type pg from 'pg'

/**
 * node-postgres (`pg`), loaded when a PostgreSQL store is first opened rather than when the
 * entry is imported: it is an optional peer dependency, so `docs-content-api/postgres` can be
 * imported (and its types used) where it is not installed, and the command line loads it only
 * for `serve --database`.
 */

export type Client = pg.Client
export type PgModule = typeof pg

let loaded: PgModule | undefined

/** The peer dependency's major version this adapter is built and tested with. */
export const PG_RANGE = '^8'

/** Thrown when `pg` is missing. */
export class PostgresUnavailableError extends Error {
  override readonly name = 'PostgresUnavailableError'
}

export function loadPg(): PgModule {
  if (loaded) return loaded
  // Resolved from this package's own location, where npm puts a peer dependency.
  const require = createRequire(import.meta.url)
  try {
    loaded = require('pg') as PgModule
  } catch (error) {
    const missing = (error as { code?: string }).code === 'MODULE_NOT_FOUND' && String((error as Error).message).includes("'pg'")
    throw new PostgresUnavailableError(
      missing
        ? `The PostgreSQL store needs pg (node-postgres), an optional peer dependency of docs-content-api: npm install pg@${PG_RANGE.slice(1)}`
        : `pg is installed but does not load (${(error as Error).message.split('\n')[0]})`,
      { cause: error },
    )
  }
  return loaded
}

/** A connected client (numbers of bigint columns come as strings: the store reads them with Number()). */
export async function connect(url: string, applicationName: string, schema?: string): Promise<Client> {
  const { Client } = loadPg()
  const client = new Client({
    connectionString: url,
    application_name: applicationName,
    // The store's tables in a schema of their own (created by prepareLayout), found first.
    ...(schema !== undefined && { options: `-c search_path=${schema}` }),
  })
  await client.connect()
  return client
}
