import { GitBookAPI } from '@gitbook/api'
import pg from 'pg'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createDocsApi, type DocsApi, type DocsApiOptions } from '../../src/index.js'
import { openPostgresData, type PostgresData } from '../../src/postgres.js'
import { expectOfficialResponse } from '../conformance/official.js'
import { closeAfter, DATABASE_URL, freshDatabase } from './helpers.js'

// Several APIs over one PostgreSQL database, in one process (test/postgres/multi-process.test.ts
// runs them as `serve` processes): each its own replica, connections and job runner, as separate
// processes would have.
const BASE = 'http://localhost:4000'
const blobsRoot = mkdtempSync(join(tmpdir(), 'pg-api-blobs-'))
afterAll(() => rmSync(blobsRoot, { recursive: true, force: true }))

async function openApi(url: string, options: Partial<DocsApiOptions> = {}): Promise<{ api: DocsApi; data: PostgresData }> {
  const data = await openPostgresData(url, { blobsDir: blobsRoot, leaseMs: 400 })
  closeAfter(() => data.close())
  const api = await data.store.shared.exclusive(() =>
    createDocsApi({ baseUrl: BASE, store: data.store, blobs: data.blobs, siteTokenSecret: data.siteTokenSecret, ...options }),
  )
  return { api, data }
}

/** Two APIs on a new database (B with options of its own when given), with a user, an organization and a token made through the first. */
async function twoApis(options: Partial<DocsApiOptions> = {}, optionsB: Partial<DocsApiOptions> = options) {
  const url = await freshDatabase()
  const a = await openApi(url, options)
  const b = await openApi(url, optionsB)
  const ada = await a.api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
  const org = await a.api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
  const token = await a.api.fixtures.createToken(ada.id)
  // Fixtures run outside exclusive: committed in the background, in order; flush waits for them.
  await a.data.store.flush()
  const client = (api: DocsApi) => new GitBookAPI({ endpoint: BASE, authToken: token, serviceBinding: { fetch: api.fetch } })
  return { url, a, b, org, ada, token, ga: client(a.api), gb: client(b.api) }
}

describe.skipIf(!DATABASE_URL)('PostgreSQL: several APIs over one database', () => {
  it('a write acknowledged by one API is read at once through the other (its token signs in there too)', async () => {
    const { org, ga, gb, a, b } = await twoApis()
    // Site tokens one process issues are valid on the others: they share the signing secret.
    expect(a.data.siteTokenSecret).toBe(b.data.siteTokenSecret)
    expect(a.data.siteTokenSecret.length).toBeGreaterThanOrEqual(32)
    const created = await ga.orgs.createSpace(org.id, { title: 'Handbook' })
    expect(created.status).toBe(201)
    const got = await gb.spaces.getSpaceById(created.data.id)
    expect(got.status).toBe(200)
    expectOfficialResponse('getSpaceById', 200, got.data)
    expect(got.data.title).toBe('Handbook')
    const renamed = await gb.spaces.updateSpaceById(created.data.id, { title: 'Handbook 2' })
    expect(renamed.data.title).toBe('Handbook 2')
    expect((await ga.spaces.getSpaceById(created.data.id)).data.title).toBe('Handbook 2')
  })

  it('concurrent writers on both APIs: change request numbers unique and consecutive, counts exact', async () => {
    const { org, ga, gb } = await twoApis()
    const space = (await ga.orgs.createSpace(org.id, { title: 'Busy' })).data
    const made = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? ga : gb).spaces.createChangeRequest(space.id, { subject: `cr ${i}` })))
    const numbers = made.map((r) => r.data.number).sort((x, y) => x - y)
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    for (const g of [ga, gb]) {
      const listed = await g.spaces.listChangeRequestsForSpace(space.id, { limit: 100 })
      expect(listed.data.items.map((cr) => cr.number).sort((x, y) => x - y)).toEqual(numbers)
    }
  })

  it('a failed write changes nothing anywhere; a bad request names the field', async () => {
    const { org, ga, gb, a, b, token } = await twoApis()
    const space = (await ga.orgs.createSpace(org.id, { title: 'Strict' })).data
    await b.data.store.shared.sync()
    const bad = await a.api.fetch(
      new Request(`${BASE}/v1/spaces/${space.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'x'.repeat(10_000) }),
      }),
    )
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/title/)
    expect((await gb.spaces.getSpaceById(space.id)).data.title).toBe('Strict')
    expect(a.data.store.position).toBe(b.data.store.position)
  })

  it('search through one API finds what another merged (its index follows the replica), both ways', async () => {
    const { org, ga, gb, a, b, token } = await twoApis()
    const space = (await ga.orgs.createSpace(org.id, { title: 'Lanterns' })).data
    const edit = async (api: DocsApi, changes: unknown[]) => {
      const call = (method: string, path: string, body?: unknown) =>
        api.fetch(
          new Request(`${BASE}/v1/spaces/${space.id}${path}`, {
            method,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        )
      const cr = (await (await call('POST', '/change-requests', { subject: 'Edit' })).json()) as { id: string }
      expect((await call('POST', `/change-requests/${cr.id}/content?compat=false`, { changes })).status).toBe(200)
      expect(((await (await call('POST', `/change-requests/${cr.id}/merge`)).json()) as { result: string }).result).toBe('merge')
    }
    const search = async (g: typeof ga, query: string) => (await g.spaces.searchSpaceContent(space.id, { query })).data.items.map((i) => i.title)
    // B searches first (its index is built), then A merges a page: B's next search finds it.
    expect(await search(gb, 'lantern')).toEqual([])
    await edit(a.api, [{ operation: 'insert_page', title: 'Lantern care', document: { markdown: 'Clean the lantern glass weekly.' } }])
    expect(await search(gb, 'lantern')).toEqual(['Lantern care'])
    await edit(b.api, [{ operation: 'insert_page', title: 'Wicks', document: { markdown: 'A lantern wick lasts a month.' } }])
    expect((await search(ga, 'wick')).sort()).toEqual(['Wicks'])
    expect((await search(gb, 'lantern')).sort()).toEqual(['Lantern care', 'Wicks'])
  })

  it('a process whose connections were cut (a server restart) answers 503 at most once per connection, then reconnects', async () => {
    const { org, a, b, token } = await twoApis()
    const admin = new pg.Client({ connectionString: DATABASE_URL })
    await admin.connect()
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE '%' || $1", [a.data.store.origin])
    await admin.end()
    const create = () =>
      a.api.fetch(
        new Request(`${BASE}/v1/orgs/${org.id}/spaces`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'After the cut' }),
        }),
      )
    const statuses: number[] = []
    for (let i = 0; i < 4 && statuses.at(-1) !== 201; i++) statuses.push((await create()).status)
    expect(statuses.at(-1)).toBe(201)
    expect(statuses.slice(0, -1).every((status) => status === 503)).toBe(true)
    const id = ((await (await create()).json()) as { id: string }).id
    await b.data.store.shared.sync()
    expect(b.data.store.read((tx) => tx.get('spaces', id)?.title)).toBe('After the cut')
  })

  it("a job whose process stopped renewing its lease (it died) is taken up once the lease expired; the dead one's job writes nothing after", async () => {
    let calls = 0
    let release: () => void = () => undefined
    const hanging = new Promise<void>((resolve) => (release = resolve))
    const yaml = 'openapi: 3.0.3\ninfo: {title: Pets, version: "1"}\npaths: {}\n'
    const fetchA: typeof fetch = async () => {
      calls++
      await hanging
      return new Response(`${yaml}# from the dead process\n`)
    }
    const fetchB: typeof fetch = async () => {
      calls++
      return new Response(yaml)
    }
    const { url, a, b, org, ga, gb } = await twoApis({ fetch: fetchA, abandonedWorkMs: 60_000 }, { fetch: fetchB, abandonedWorkMs: 100 })
    expect((await ga.orgs.createOpenApiSpec(org.id, { slug: 'pets', source: { url: 'https://specs.acme.test/pets.yaml' } })).status).toBe(201)
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    const leases = async () => (await admin.query<{ name: string; owner: string }>('SELECT name, owner FROM dca_leases')).rows
    for (let i = 0; i < 100 && (await leases()).length === 0; i++) await new Promise((r) => setTimeout(r, 10))
    expect((await leases()).map((l) => l.owner)).toEqual([a.data.store.origin])
    // A "dies": its lease is no longer renewed (handed to an owner that never renews it) and runs out.
    await admin.query("UPDATE dca_leases SET owner = 'dead', expires_at = now() + interval '300 milliseconds'")
    await new Promise((r) => setTimeout(r, 400))
    expect(calls).toBe(1)
    const deadline = Date.now() + 10_000
    let spec = (await gb.orgs.getOpenApiSpecBySlug(org.id, 'pets')).data
    while (Date.now() < deadline && spec.processingState !== 'complete') {
      await new Promise((r) => setTimeout(r, 50))
      spec = (await gb.orgs.getOpenApiSpecBySlug(org.id, 'pets')).data
    }
    expect(spec.processingState).toBe('complete')
    expect(calls).toBe(2)
    // The dead process's job ends now: its run was superseded, so it writes nothing.
    release()
    await a.api.idle()
    await b.data.store.shared.sync()
    const text = (await gb.orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'pets')).data.text
    expect(text).toBe(yaml)
    await admin.end()
  })

  it('a run superseded from another process does not hold the new one up: it starts at once there, and the old one writes nothing', async () => {
    let release: () => void = () => undefined
    const hanging = new Promise<void>((resolve) => (release = resolve))
    const fetchA: typeof fetch = async () => {
      await hanging
      return new Response('openapi: 3.0.3\ninfo: {title: Old, version: "1"}\npaths: {}\n')
    }
    // No watch for abandoned work within the test: only the new run itself can finish the spec.
    const { a, b, org, ga, gb } = await twoApis({ fetch: fetchA, abandonedWorkMs: 60_000 }, { abandonedWorkMs: 60_000 })
    expect((await ga.orgs.createOpenApiSpec(org.id, { slug: 'pets', source: { url: 'https://specs.acme.test/pets.yaml' } })).status).toBe(201)
    const text = 'openapi: 3.0.3\ninfo: {title: New, version: "2"}\npaths: {}\n'
    expect((await gb.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'pets', { source: { text } })).status).toBe(200)
    await b.api.idle()
    expect((await gb.orgs.getOpenApiSpecBySlug(org.id, 'pets')).data.processingState).toBe('complete')
    release()
    await a.api.idle()
    await b.data.store.shared.sync()
    expect((await gb.orgs.getLatestOpenApiSpecVersionContentRaw(org.id, 'pets')).data.text).toBe(text)
  })

  it("a job runs in one process; a process's unfinished work is taken up by another once its lease is gone", async () => {
    let calls = 0
    let release: () => void = () => undefined
    const hanging = new Promise<void>((resolve) => (release = resolve))
    const fetchA: typeof fetch = async () => {
      calls++
      // The first process never gets its answer (it is about to stop).
      await hanging
      throw new Error('gone')
    }
    const fetchB: typeof fetch = async () => {
      calls++
      return new Response('openapi: 3.0.3\ninfo: {title: Pets, version: "1"}\npaths: {}\n', { headers: { 'content-type': 'application/yaml' } })
    }
    // A's job fails once A's store is closed: its error is expected, not reported.
    const { a, org, ga, gb } = await twoApis({ fetch: fetchA, abandonedWorkMs: 60_000, onError: () => undefined }, { fetch: fetchB, abandonedWorkMs: 100 })
    const created = await ga.orgs.createOpenApiSpec(org.id, { slug: 'pets', source: { url: 'https://specs.acme.test/pets.yaml' } })
    expect(created.status).toBe(201)
    // A's job holds its lease: B's watch (every 100 ms) leaves it alone.
    await new Promise((r) => setTimeout(r, 600))
    expect(calls).toBe(1)
    expect((await gb.orgs.getOpenApiSpecBySlug(org.id, 'pets')).data.processingState).not.toBe('complete')
    // A stops (its connections close, its leases go): B takes the spec up and processes it.
    await a.data.close()
    release()
    const deadline = Date.now() + 10_000
    let state = ''
    while (Date.now() < deadline) {
      state = (await gb.orgs.getOpenApiSpecBySlug(org.id, 'pets')).data.processingState
      if (state === 'complete') break
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(state).toBe('complete')
    expect(calls).toBe(2)
  })
})
