import type { Client } from './driver.js'

/**
 * How the PostgreSQL store lays out the state in a database (made once, checked on every open):
 *
 *   dca_meta    key, value: the format and its version
 *   dca_head    one row: the sequence number of the log's newest entry. Its row lock is the
 *               cluster's write lock (a writer holds it from its catch-up to its commit)
 *   dca_log     seq, origin, changes: every committed transaction, in order, as the slots it
 *               changed ([collection, seq, row or null, id], JSON). The newest LOG_KEPT entries
 *               are kept; a replica further behind loads the state again
 *   dca_rows    collection, id, seq, data: the state now (a row's JSON and its sequence number),
 *               written in the same transaction as the log entry; what a process loads at start
 *   dca_seqs    collection, next: the sequence number the next insert of a collection takes
 *               (deleted slots are never given again, so a replica loaded from dca_rows is told)
 *   dca_leases  name, owner, expires_at: background jobs, each run by the process holding its lease
 */

export const POSTGRES_FORMAT = 'docs-content-api/postgres'
export const POSTGRES_FORMAT_VERSION = 1

/** Log entries kept (older ones are deleted as new ones come). */
export const LOG_KEPT = 10_000

/** Thrown when a database cannot be opened as a store (another format, a newer version). */
export class PostgresFormatError extends Error {
  override readonly name = 'PostgresFormatError'
}

const DDL = `
CREATE TABLE IF NOT EXISTS dca_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS dca_head (id int PRIMARY KEY CHECK (id = 1), seq bigint NOT NULL);
CREATE TABLE IF NOT EXISTS dca_log (seq bigint PRIMARY KEY, origin text NOT NULL, changes text NOT NULL, at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS dca_rows (collection text NOT NULL, id text NOT NULL, seq bigint NOT NULL, data text NOT NULL, PRIMARY KEY (collection, id));
CREATE INDEX IF NOT EXISTS dca_rows_by_seq ON dca_rows (collection, seq);
CREATE TABLE IF NOT EXISTS dca_seqs (collection text PRIMARY KEY, next bigint NOT NULL);
CREATE TABLE IF NOT EXISTS dca_leases (name text PRIMARY KEY, owner text NOT NULL, expires_at timestamptz NOT NULL);
INSERT INTO dca_head (id, seq) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
`

/**
 * Create the tables when missing and check the format, in one transaction. An advisory lock
 * keeps two processes opening a new database at once from racing on CREATE TABLE.
 */
export async function prepareLayout(client: Client, where: string, schema?: string): Promise<void> {
  await client.query('BEGIN')
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('docs-content-api/layout'))")
    if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    const tables = await client.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'dca\\_%'",
    )
    const known = new Set(tables.rows.map((r) => r.name))
    if (known.has('dca_meta')) {
      const meta = new Map((await client.query<{ key: string; value: string }>('SELECT key, value FROM dca_meta')).rows.map((r) => [r.key, r.value]))
      if (meta.get('format') !== POSTGRES_FORMAT)
        throw new PostgresFormatError(`${where}: its dca_meta table is not a docs-content-api store's (format ${JSON.stringify(meta.get('format') ?? null)})`)
      const version = Number(meta.get('version'))
      if (version > POSTGRES_FORMAT_VERSION)
        throw new PostgresFormatError(
          `${where} was written by a newer docs-content-api (store format version ${version}); this one reads versions up to ${POSTGRES_FORMAT_VERSION}: upgrade docs-content-api`,
        )
    }
    await client.query(DDL)
    await client.query('INSERT INTO dca_meta (key, value) VALUES ($1, $2), ($3, $4) ON CONFLICT (key) DO NOTHING', [
      'format',
      POSTGRES_FORMAT,
      'version',
      String(POSTGRES_FORMAT_VERSION),
    ])
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  }
}
