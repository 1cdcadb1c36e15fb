import { afterEach, describe, expect, it } from 'vitest'
import { openPostgresStore, type PostgresStore } from '../../src/postgres.js'
import { runStorageSuite, suiteSchema, type SuiteSchema } from '../../src/testing.js'
import { closeAfter, DATABASE_URL, freshDatabase } from './helpers.js'

// The shared port suite over a PostgreSQL store of its own per test (a database each). The suite's
// transactions run outside `exclusive`, so they commit optimistically in the background: after
// each test, they are flushed, and a second store opened on the same database must hold exactly
// what the first one does (rows, sequence numbers, index order, counts).
const under: Array<{ store: PostgresStore<SuiteSchema>; url: string }> = []

async function open(url: string): Promise<PostgresStore<SuiteSchema>> {
  const store = await openPostgresStore(suiteSchema, { url })
  closeAfter(() => store.close())
  return store
}

function stateOf(store: PostgresStore<SuiteSchema>) {
  return store.read((tx) => ({
    items: tx.all('items').map((row) => [row, tx.seqOf('items', row.id)]),
    others: tx.all('others').map((row) => [row, tx.seqOf('others', row.id)]),
    groups: ['g', 'h', 'a', 'b'].map((key) => tx.scan('items', 'byValue', key).map((e) => [e.row.id, e.order, e.seq])),
    tags: ['x', 'y', 'z'].map((key) => [tx.count('items', 'byTag', key), tx.scan('items', 'byTag', key).map((e) => e.row.id)]),
    positive: tx.count('items', 'positive', 'yes'),
  }))
}

describe.skipIf(!DATABASE_URL)('PostgreSQL store: the port suite', () => {
  afterEach(async () => {
    for (const { store, url } of under.splice(0)) {
      await store.flush()
      const again = await open(url)
      expect(stateOf(again)).toEqual(stateOf(store))
      expect(again.position).toBe(store.position)
      // An insert after reopening takes the slot the first store would have given (deleted slots are never given again).
      const fresh = { id: `after-${Math.random()}`, group: 'g', value: 1, tags: [] }
      await again.shared.exclusive(() => again.transaction((tx) => tx.insert('items', fresh)))
      await store.shared.sync()
      expect(store.read((tx) => tx.seqOf('items', fresh.id))).toBe(again.read((tx) => tx.seqOf('items', fresh.id)))
    }
  })

  runStorageSuite(
    'postgres',
    async (schema) => {
      const url = await freshDatabase()
      const store = await open(url)
      under.push({ store, url })
      void schema
      return store
    },
    { describe, it, expect },
    { snapshots: false },
  )
})
