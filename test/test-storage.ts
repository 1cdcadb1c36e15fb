import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DocsApiOptions } from '../src/index.js'
import { openDataDir, type DataDir } from '../src/sqlite.js'

/**
 * Where the APIs of the test suites keep their data. `DOCS_TEST_STORE=sqlite` (CI's second run,
 * see .ci/run) puts every API `createWorld` makes on the SQLite adapter: a data directory of its
 * own (`openDataDir`: a file on disk and file blobs) in a temporary directory of the test file,
 * closed and removed after the file's tests (test/setup-storage.ts). Otherwise: in memory.
 */
export const TEST_STORE: 'memory' | 'sqlite' = process.env.DOCS_TEST_STORE === 'sqlite' ? 'sqlite' : 'memory'

let root: string | undefined
let made = 0
const open: DataDir[] = []

/** The `store` and `blobs` options of a test API: none (in memory), or a new SQLite data directory. */
export function testStorage(): Pick<DocsApiOptions, 'store' | 'blobs'> {
  if (TEST_STORE === 'memory') return {}
  root ??= mkdtempSync(join(tmpdir(), 'docs-content-api-tests-'))
  const data = openDataDir(join(root, `api-${++made}`))
  open.push(data)
  return { store: data.store, blobs: data.blobs }
}

/** Close every store this test file opened and remove their files. */
export function closeTestStorage(): void {
  for (const data of open.splice(0)) data.close()
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
  root = undefined
}
