import { describe, expect, it } from 'vitest'
import { API_CORE } from '../../src/http/api-core.js'
import { encodeSpace, encodeSpaceJson, SPACE_JSON_CACHE_CHARS, spaceJsonCache } from '../../src/domains/spaces/encode.js'
import { createDocsApi, createMemoryStore, schema, type AppSchema, type DocsApi, type StoragePort } from '../../src/index.js'
import { createClock, sequentialIds } from '../../src/testing.js'
import { BASE, call } from '../helpers.js'

/**
 * The JSON text of spaces is kept per row version (domains/spaces/encode.ts). These tests write,
 * fail, roll back and read again through `api.fetch`, and check every answer against the
 * space's encoding from the store as it is.
 */

/** A memory store whose next transaction fails after its function ran (its writes made, its answer encoded). */
function failingStore() {
  const inner = createMemoryStore(schema)
  let failNext = false
  const store: StoragePort<AppSchema> = {
    schema,
    read: (fn) => inner.read(fn),
    transaction: (fn) =>
      inner.transaction((tx) => {
        const result = fn(tx)
        if (failNext) {
          failNext = false
          throw new Error('the disk is full')
        }
        return result
      }),
  }
  return { store, failNext: () => (failNext = true) }
}

async function world() {
  const failing = failingStore()
  const clock = createClock('2026-03-01T10:00:00.000Z')
  const api = createDocsApi({ baseUrl: BASE, now: clock.now, ids: sequentialIds('id'), store: failing.store, onError: () => {} })
  const ada = await api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
  const rita = await api.fixtures.createUser({ displayName: 'Rita', email: 'rita@acme.test' })
  const org = await api.fixtures.createOrganization({
    title: 'Acme',
    members: [
      { user: ada.id, role: 'admin' },
      { user: rita.id, role: 'read' },
    ],
  })
  const tokens = { ada: await api.fixtures.createToken(ada.id), rita: await api.fixtures.createToken(rita.id) }
  const space = await api.fixtures.createSpace(org.id, { title: 'First' })
  return { api, clock, org, tokens, space, users: { ada, rita }, failNext: failing.failNext }
}

/** The space as the store holds it now, encoded for `user` without any cache. */
function fromStore(api: DocsApi, id: string, user: string) {
  return api.system((ctx) => {
    const row = ctx.tx.get('spaces', id)!
    const level = api[API_CORE].runtime.resolvers.space({ ...ctx, actor: { user } }, id)
    return JSON.parse(JSON.stringify(encodeSpace(ctx, row, level)))
  })
}

describe('space JSON cache', () => {
  it('serves each version after writes, and the previous one after a rolled-back write', async () => {
    const w = await world()
    const path = `/v1/spaces/${w.space.id}`
    const get = async () => (await call(w.api, w.tokens.ada, 'GET', path)).body
    expect(await get()).toEqual(fromStore(w.api, w.space.id, w.users.ada.id))

    w.clock.advance(1000)
    expect((await call(w.api, w.tokens.ada, 'PATCH', path, { title: 'Second', emoji: '1f600' })).status).toBe(200)
    expect(await get()).toMatchObject({ title: 'Second', emoji: '1f600', updatedAt: '2026-03-01T10:00:01.000Z' })

    // The failing PATCH writes and encodes its new version before its transaction fails.
    w.clock.advance(1000)
    w.failNext()
    expect((await call(w.api, w.tokens.ada, 'PATCH', path, { title: 'Rolled back' })).status).toBe(500)
    const afterRollback = await get()
    expect(afterRollback).toMatchObject({ title: 'Second', updatedAt: '2026-03-01T10:00:01.000Z' })
    expect(afterRollback).toEqual(fromStore(w.api, w.space.id, w.users.ada.id))

    w.clock.advance(1000)
    expect((await call(w.api, w.tokens.ada, 'PATCH', path, { title: 'Third' })).status).toBe(200)
    expect(await get()).toEqual(fromStore(w.api, w.space.id, w.users.ada.id))
    expect((await get()).title).toBe('Third')
  })

  it('never serves text kept for a version whose transaction rolled back', async () => {
    const w = await world()
    const path = `/v1/spaces/${w.space.id}`
    const before = (await call(w.api, w.tokens.ada, 'GET', path)).body
    // A transaction that writes a version, encodes it through the cache, then fails.
    expect(() =>
      w.api.system((ctx) => {
        const row = ctx.tx.update('spaces', { ...ctx.tx.get('spaces', w.space.id)!, title: 'Never committed' })
        expect(JSON.parse(encodeSpaceJson(ctx, row, 'admin').json).title).toBe('Never committed')
        throw new Error('fails after encoding')
      }),
    ).toThrow('fails after encoding')
    expect((await call(w.api, w.tokens.ada, 'GET', path)).body).toEqual(before)
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`)).body.items[0]).toEqual(before)
  })

  it('keeps lists right through writes and rollbacks of their items', async () => {
    const w = await world()
    const more = [await w.api.fixtures.createSpace(w.org.id, { title: 'Two' }), await w.api.fixtures.createSpace(w.org.id, { title: 'Three' })]
    const list = async () => (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`)).body.items.map((s: { title: string }) => s.title)
    expect(await list()).toEqual(['First', 'Two', 'Three'])
    await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${more[0]!.id}`, { title: 'Deux' })
    expect(await list()).toEqual(['First', 'Deux', 'Three'])
    w.failNext()
    expect((await call(w.api, w.tokens.ada, 'PATCH', `/v1/spaces/${more[1]!.id}`, { title: 'Never' })).status).toBe(500)
    expect(await list()).toEqual(['First', 'Deux', 'Three'])
    // a rolled-back delete and restore leave the list as it was, then a real delete takes the space out
    w.failNext()
    expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${more[1]!.id}`)).status).toBe(500)
    expect(await list()).toEqual(['First', 'Deux', 'Three'])
    expect((await call(w.api, w.tokens.ada, 'DELETE', `/v1/spaces/${more[1]!.id}`)).status).toBe(204)
    expect(await list()).toEqual(['First', 'Deux'])
    const items = (await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`)).body.items
    expect(items).toEqual([w.space.id, more[0]!.id].map((id) => fromStore(w.api, id, w.users.ada.id)))
  })

  it("shares the text between callers: permissions are each caller's own", async () => {
    const w = await world()
    const path = `/v1/spaces/${w.space.id}`
    for (let i = 0; i < 2; i++) {
      for (const [name, user] of [
        ['ada', w.users.ada.id],
        ['rita', w.users.rita.id],
      ] as const) {
        const body = (await call(w.api, w.tokens[name], 'GET', path)).body
        expect(body).toEqual(fromStore(w.api, w.space.id, user))
      }
    }
    expect((await call(w.api, w.tokens.rita, 'GET', path)).body.permissions.admin).toBe(false)
    expect((await call(w.api, w.tokens.ada, 'GET', path)).body.permissions.admin).toBe(true)
    // a change of the default level changes no cached text, and the levels it gives show at once
    await call(w.api, w.tokens.ada, 'PATCH', path, { defaultLevel: 'admin' })
    expect((await call(w.api, w.tokens.rita, 'GET', path)).body.permissions.admin).toBe(true)
  })

  it('two APIs over one store keep their own URLs', async () => {
    const w = await world()
    const other = createDocsApi({ baseUrl: 'https://elsewhere.test', store: w.api.store })
    const here = (await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}`)).body
    const there = await (
      await other.fetch(new Request(`https://elsewhere.test/v1/spaces/${w.space.id}`, { headers: { authorization: `Bearer ${w.tokens.ada}` } }))
    ).json()
    expect(here.urls.location).toBe(`${BASE}/v1/spaces/${w.space.id}`)
    expect(there.urls.location).toBe(`https://elsewhere.test/v1/spaces/${w.space.id}`)
  })

  it(`holds at most ${SPACE_JSON_CACHE_CHARS} characters however many spaces are read, and serves evicted ones right`, async () => {
    const w = await world()
    const cache = spaceJsonCache(w.api[API_CORE].runtime.urls)
    // enough spaces that their JSON passes the bound
    await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}`)
    const n = Math.ceil(SPACE_JSON_CACHE_CHARS / cache.chars) + 1000
    await w.api.system((ctx) => {
      for (let i = 0; i < n; i++)
        ctx.tx.insert('spaces', { ...ctx.tx.get('spaces', w.space.id)!, id: `bulk${i}`, title: `Bulk ${i} `.padEnd(50, '.'), position: i + 10 })
    })
    let page: string | undefined
    let seen = 0
    do {
      const res = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces?limit=1000${page ? `&page=${page}` : ''}`)
      seen += res.body.items.length
      expect(cache.chars).toBeLessThanOrEqual(SPACE_JSON_CACHE_CHARS)
      page = res.body.next?.page
    } while (page)
    expect(seen).toBe(n + 1)
    expect(cache.size).toBeLessThan(n)
    expect(cache.chars).toBeGreaterThan(SPACE_JSON_CACHE_CHARS * 0.9)
    // the first spaces were dropped to make room; they are encoded again, right
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}`)).body).toEqual(fromStore(w.api, w.space.id, w.users.ada.id))
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/spaces/bulk0')).body).toEqual(fromStore(w.api, 'bulk0', w.users.ada.id))
  })

  it("a request that changes the caller's own level answers with the level after its write", async () => {
    const w = await world()
    const path = `/v1/spaces/${w.space.id}`
    // rita (organization role read) is admin of the space through its default level only
    await call(w.api, w.tokens.ada, 'PATCH', path, { defaultLevel: 'admin' })
    expect((await call(w.api, w.tokens.rita, 'GET', path)).body.permissions.admin).toBe(true)
    const renamed = await call(w.api, w.tokens.rita, 'PATCH', path, { title: 'Still admin' })
    expect(renamed.body.permissions.admin).toBe(true)
    const lowered = await call(w.api, w.tokens.rita, 'PATCH', path, { defaultLevel: 'read' })
    expect(lowered.status).toBe(200)
    expect(lowered.body.permissions).toEqual(fromStore(w.api, w.space.id, w.users.rita.id).permissions)
    expect(lowered.body.permissions.admin).toBe(false)
    expect((await call(w.api, w.tokens.rita, 'PATCH', path, { title: 'No longer' })).status).toBe(403)
  })
})
