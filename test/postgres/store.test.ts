import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { openPostgresStore, type PostgresStore } from '../../src/postgres.js'
import { suiteSchema, type SuiteSchema } from '../../src/testing.js'
import { closeAfter, DATABASE_URL, freshDatabase } from './helpers.js'

async function open(url: string): Promise<PostgresStore<SuiteSchema>> {
  const store = await openPostgresStore(suiteSchema, { url, pollMs: 60_000 })
  closeAfter(() => store.close())
  return store
}

const item = (id: string, value: number) => ({ id, group: 'g', value, tags: [] as string[] })

describe.skipIf(!DATABASE_URL)('PostgreSQL store: two replicas', () => {
  it('a replica far behind (more entries than one catch-up batch) catches up, by a read and under the lock alike', async () => {
    const url = await freshDatabase()
    const a = await open(url)
    const b = await open(url)
    // 600 commits through B (each one log entry), A asleep meanwhile (no poll; notifications ignored until it reads).
    for (let i = 0; i < 600; i++) await b.shared.exclusive(() => b.transaction((tx) => tx.insert('items', item(`i${i}`, i))))
    await a.shared.sync()
    expect(a.position).toBe(b.position)
    expect(a.read((tx) => tx.count('items', 'byGroup', 'g'))).toBe(600)
    expect(a.read((tx) => tx.scan('items', 'byValue', 'g', { limit: 3 }).map((e) => [e.row.id, e.seq]))).toEqual(
      b.read((tx) => tx.scan('items', 'byValue', 'g', { limit: 3 }).map((e) => [e.row.id, e.seq])),
    )
    // 600 more; then A writes first thing: its lock's catch-up brings them in before its transaction runs.
    for (let i = 600; i < 1200; i++) await b.shared.exclusive(() => b.transaction((tx) => tx.insert('items', item(`i${i}`, i))))
    const counted = await a.shared.exclusive(() =>
      a.transaction((tx) => {
        const n = tx.count('items', 'byGroup', 'g')
        tx.insert('items', item('last', n))
        return n
      }),
    )
    expect(counted).toBe(1200)
    await b.shared.sync()
    expect(b.read((tx) => tx.get('items', 'last')?.value)).toBe(1200)
    expect(b.read((tx) => tx.seqOf('items', 'last'))).toBe(a.read((tx) => tx.seqOf('items', 'last')))
  })

  it('concurrent increments of one counter row from two replicas: none lost', async () => {
    const url = await freshDatabase()
    const a = await open(url)
    const b = await open(url)
    await a.shared.exclusive(() => a.transaction((tx) => tx.insert('items', item('counter', 0))))
    const bump = (s: PostgresStore<SuiteSchema>) =>
      s.shared.exclusive(() => s.transaction((tx) => tx.update('items', { ...tx.get('items', 'counter')!, value: tx.get('items', 'counter')!.value + 1 })))
    await Promise.all(Array.from({ length: 200 }, (_, i) => bump(i % 2 === 0 ? a : b)))
    await a.shared.sync()
    await b.shared.sync()
    expect(a.read((tx) => tx.get('items', 'counter')?.value)).toBe(200)
    expect(b.read((tx) => tx.get('items', 'counter')?.value)).toBe(200)
  })

  it('a transaction run outside exclusive() after another process wrote is dropped, and the replica holding it is loaded again', async () => {
    const url = await freshDatabase()
    const a = await open(url)
    const errors: unknown[] = []
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    // Another process holds the lock: A's write queues behind it in PostgreSQL, and A's optimistic commit behind that.
    await admin.query('BEGIN; SELECT seq FROM dca_head WHERE id = 1 FOR UPDATE')
    const locked = a.shared.exclusive(() => a.transaction((tx) => tx.insert('items', item('x1', 1))))
    await new Promise((r) => setTimeout(r, 50))
    a.transaction((tx) => tx.insert('items', item('phantom', 2)))
    // That process commits an entry: A applies it before its own write runs, after its optimistic transaction read.
    await admin.query(`INSERT INTO dca_log (seq, origin, changes) SELECT seq + 1, 'other', '[]' FROM dca_head; UPDATE dca_head SET seq = seq + 1; COMMIT`)
    await admin.end()
    await locked
    await a.flush().catch((error: unknown) => errors.push(error))
    expect(String(errors[0])).toMatch(/dropped: another process wrote first/)
    await a.shared.sync()
    expect(a.read((tx) => tx.get('items', 'phantom'))).toBeUndefined()
    const fresh = await open(url)
    expect(a.read((tx) => tx.all('items').map((r) => [r.id, tx.seqOf('items', r.id)]))).toEqual(
      fresh.read((tx) => tx.all('items').map((r) => [r.id, tx.seqOf('items', r.id)])),
    )
    expect(a.read((tx) => tx.get('items', 'x1')?.value)).toBe(1)
  })
})
