import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../../src/api.js'
import { schema } from '../../../src/domains/schema.js'
import { createMemoryStore } from '../../../src/storage/memory.js'
import type { ReadTx, StoragePort, WriteTx } from '../../../src/storage/port.js'
import { createClock, sequentialIds } from '../../../src/testing.js'
import { call } from '../../helpers.js'

type S = typeof schema

/** A memory store counting the index entries every scan hands out (what a request reads of the trail). */
function countingStore() {
  const inner = createMemoryStore(schema)
  const counter = { entries: 0 }
  const wrap = <T extends ReadTx<S>>(tx: T): T =>
    new Proxy(tx, {
      get(target, key, receiver) {
        if (key !== 'scan') return Reflect.get(target, key, receiver) as unknown
        return (...args: Parameters<ReadTx<S>['scan']>) => {
          const entries = target.scan(...args)
          if (args[0] === 'auditEvents') counter.entries += entries.length
          return entries
        }
      },
    })
  const store: StoragePort<S> = {
    ...inner,
    read: (fn) => inner.read((tx) => fn(wrap(tx))),
    transaction: (fn) => inner.transaction((tx) => fn(wrap(tx as WriteTx<S>))),
    snapshot: () => inner.snapshot!(),
    restore: (s) => inner.restore!(s),
  }
  return { store, counter }
}

/** An organization with `n` events (most `member.role_updated`, every 500th `team.created`), one a second. */
function seedWith(n: number) {
  const start = Date.parse('2026-01-01T00:00:00.000Z')
  const hex = (i: number) => i.toString(16).padStart(12, '0')
  const auditEvents = Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-8000-8000-${hex(i)}`,
    organization: 'org',
    occurredAt: new Date(start + i * 1000).toISOString(),
    tie: 0,
    action: i % 500 === 0 ? 'team.created' : 'member.role_updated',
    actor: { type: 'user' as const, id: 'ada', label: 'Ada' },
    source: 'api' as const,
    target: { type: 'user', id: `user${i % 7}` },
    schemaVersion: 1,
    payload: {},
  }))
  return {
    users: [{ id: 'ada', displayName: 'Ada', email: 'ada@acme.test', emailVerified: true }],
    organizations: [{ id: 'org', title: 'Acme' }],
    members: [{ organization: 'org', user: 'ada', role: 'admin' as const }],
    auditEvents,
  }
}

describe('audit events: a page costs what it serves, not the size of the trail', () => {
  for (const n of [1_000, 8_000]) {
    it(`reads a bounded number of index entries per page (${n} events)`, async () => {
      const { store, counter } = countingStore()
      const api = createDocsApi({ store, seed: seedWith(n) as never, now: createClock('2026-06-01T00:00:00.000Z').now, ids: sequentialIds('x') })
      const token = await api.fixtures.createToken('ada')
      const read = async (query: string) => {
        counter.entries = 0
        const res = await call(api, token, 'GET', `/v1/orgs/org/audit-events?${query}`)
        expect(res.status).toBe(200)
        return { body: res.body, entries: counter.entries }
      }
      const first = await read('limit=10')
      expect(first.body.items).toHaveLength(10)
      expect(first.body.count).toBe(n)
      expect(first.entries).toBeLessThanOrEqual(11)
      // A page deep in the trail seeks past its cursor.
      let page = first.body.next.page as string
      for (let i = 0; i < 5; i++) page = (await read(`limit=10&page=${encodeURIComponent(page)}`)).body.next.page
      expect((await read(`limit=10&page=${encodeURIComponent(page)}`)).entries).toBeLessThanOrEqual(11)
      // A rare action is read through its own index.
      const rare = await read('action=team.created&limit=100')
      expect(rare.body.items).toHaveLength(n / 500)
      expect(rare.entries).toBeLessThanOrEqual(n / 500 + 1)
      // A time window seeks to `to` and stops at `from` (a scan reads at most limit + 1 entries at a time).
      const to = new Date(Date.parse('2026-01-01T00:00:00.000Z') + 500_000).toISOString()
      const from = new Date(Date.parse('2026-01-01T00:00:00.000Z') + 491_000).toISOString()
      const window = await read(`from=${from}&to=${to}&limit=20`)
      expect(window.body.items).toHaveLength(10)
      expect(window.entries).toBeLessThanOrEqual(21)
      expect(window.body.items[0].occurredAt).toBe(to)
    })
  }
})
