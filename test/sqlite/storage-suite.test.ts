import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSqliteStore, type SqliteStore } from '../../src/sqlite.js'
import { runStorageSuite } from '../../src/testing.js'
import type { Schema } from '../../src/storage/port.js'
import { scratchDir } from './helpers.js'

// The shared port suite, unchanged, over a store on a file of its own per test.
const dir = scratchDir()
const opened: Array<SqliteStore<Schema>> = []
let n = 0
afterAll(() => {
  for (const store of opened) store.close()
})

runStorageSuite(
  'sqlite',
  (schema) => {
    const store = createSqliteStore(schema, { path: join(dir, `suite-${++n}.sqlite`), tempDir: dir })
    opened.push(store as never)
    return store
  },
  { describe, it, expect },
)

// And with no row cache: every read comes from the file.
runStorageSuite(
  'sqlite, uncached',
  (schema) => {
    const store = createSqliteStore(schema, { path: join(dir, `uncached-${++n}.sqlite`), cacheChars: 0, tempDir: dir })
    opened.push(store as never)
    return store
  },
  { describe, it, expect },
)
