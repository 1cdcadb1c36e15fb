import pg from 'pg'
import { afterAll } from 'vitest'

/**
 * The PostgreSQL tests run when DATABASE_URL names a server they may create databases on
 * (`scripts/postgres-test.sh run -- npx vitest run test/postgres`); skipped otherwise.
 */
export const DATABASE_URL = process.env.DATABASE_URL

/** Closers run after this file's tests, before its databases are dropped. */
const closers: Array<() => Promise<void>> = []
const made: string[] = []

/** Run `close` after this file's tests (stores first: a database in use cannot be dropped). */
export function closeAfter(close: () => Promise<void>): void {
  closers.push(close)
}

/** A new, empty database on DATABASE_URL's server, dropped after this file's tests: its URL. */
export async function freshDatabase(): Promise<string> {
  const name = `dca_test_${Math.random().toString(36).slice(2, 10)}`
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  if (made.length === 0)
    afterAll(async () => {
      for (const close of closers.splice(0)) await close().catch(() => undefined)
      const client = new pg.Client({ connectionString: DATABASE_URL })
      await client.connect()
      for (const db of made.splice(0)) await client.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`)
      await client.end()
    })
  made.push(name)
  const url = new URL(DATABASE_URL!)
  url.pathname = `/${name}`
  return url.toString()
}
