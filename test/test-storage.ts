import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DocsApiOptions } from '../src/index.js'
import { openPostgresData, type PostgresData } from '../src/postgres.js'
import { openDataDir, type DataDir } from '../src/sqlite.js'

/**
 * Where the APIs of the test suites keep their data. `DOCS_TEST_STORE=sqlite` (CI's second run,
 * see .ci/run) puts every API `createWorld` makes on the SQLite adapter: a data directory of its
 * own (`openDataDir`: a file on disk and file blobs) in a temporary directory of the test file,
 * closed and removed after the file's tests (test/setup-storage.ts).
 * `DOCS_TEST_STORE=postgres` (with DATABASE_URL: `npm run test:postgres`, opt-in) puts each on the
 * PostgreSQL store, a schema of its own in DATABASE_URL's database (one process: fixtures and
 * seeds commit in the background, requests under the lock). Otherwise: in memory.
 */
export const TEST_STORE: 'memory' | 'sqlite' | 'postgres' =
  process.env.DOCS_TEST_STORE === 'sqlite' ? 'sqlite' : process.env.DOCS_TEST_STORE === 'postgres' ? 'postgres' : 'memory'

let root: string | undefined
let made = 0
const open: Array<DataDir | PostgresData> = []
/** Schemas this test file made (dropped after its tests). */
const schemas: string[] = []

/** The `store` and `blobs` options of a test API: none (in memory), or a new SQLite data directory / PostgreSQL schema. */
export async function testStorage(): Promise<Pick<DocsApiOptions, 'store' | 'blobs'>> {
  if (TEST_STORE === 'memory') return {}
  root ??= mkdtempSync(join(tmpdir(), 'docs-content-api-tests-'))
  if (TEST_STORE === 'postgres') {
    const url = process.env.DATABASE_URL
    if (!url) throw new Error('DOCS_TEST_STORE=postgres needs DATABASE_URL (npm run test:postgres starts a server)')
    const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 8)}_${++made}`
    schemas.push(schema)
    const data = await openPostgresData(url, { schema, blobsDir: join(root, `blobs-${made}`), pollMs: 60_000 })
    open.push(data)
    return { store: data.store, blobs: data.blobs }
  }
  const data = openDataDir(join(root, `api-${++made}`))
  open.push(data)
  return { store: data.store, blobs: data.blobs }
}

/** Close every store this test file opened and remove their files (and schemas). */
export async function closeTestStorage(): Promise<void> {
  for (const data of open.splice(0)) await data.close()
  if (schemas.length > 0) {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    for (const schema of schemas.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await client.end()
  }
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
  root = undefined
}
