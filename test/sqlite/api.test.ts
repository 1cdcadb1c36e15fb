import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createDocsApi, type DocsApi } from '../../src/index.js'
import { openDataDir, type DataDir } from '../../src/sqlite.js'
import { createClock, sequentialIds } from '../../src/testing.js'
import { BASE, call, expectError } from '../helpers.js'
import { scratchDir } from './helpers.js'

const root = scratchDir('sqlite-api-')
let n = 0

/** An API on a data directory of its own: an organization where ada is admin and rita reads, one space. */
async function world(dir = join(root, `data-${++n}`)) {
  const data = openDataDir(dir)
  const api = createDocsApi({ baseUrl: BASE, now: createClock('2026-03-01T10:00:00.000Z').now, ids: sequentialIds('id'), store: data.store, blobs: data.blobs })
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
  const space = await api.fixtures.createSpace(org.id, { title: 'Docs' })
  return { data, api, org, tokens, space, dir }
}

/** Every byte the data directory holds: the database, its WAL, and the blob files. */
function onDisk(data: DataDir): string {
  const hash = createHash('sha256')
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      hash.update(path)
      if (statSync(path).isDirectory()) walk(path)
      else hash.update(readFileSync(path))
    }
  }
  walk(data.dir)
  return hash.digest('hex')
}

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

describe('the API on SQLite', () => {
  it('a failed request leaves the files on disk unchanged, byte for byte: refused inputs, permissions, and a batch that fails after writing', async () => {
    const w = await world()
    const cr = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests`, { subject: 'Edit' })).body
    const content = `/v1/spaces/${w.space.id}/change-requests/${cr.id}/content?compat=false`
    const before = onDisk(w.data)
    const dump = w.api.dump()
    expectError(await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 42 }), 400, 'title')
    expectError(await call(w.api, w.tokens.rita, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 'No' }), 403, '')
    expectError(await call(w.api, w.tokens.ada, 'PATCH', '/v1/spaces/nope', { title: 'No' }), 404, 'Space not found')
    // The first changes are written (a page, a file and its blob), then the last one fails: all of it is undone.
    const failed = await call(w.api, w.tokens.ada, 'POST', content, {
      changes: [
        { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: png }] },
        { operation: 'insert_page', title: 'New', document: { markdown: 'Hello' } },
        { operation: 'delete_page', page: 'nope' },
      ],
    })
    expectError(failed, 400, 'changes[2].page')
    expect(onDisk(w.data)).toBe(before)
    expect(w.api.dump()).toEqual(dump)
    // The same batch without its bad change goes through (and the file changes).
    const ok = await call(w.api, w.tokens.ada, 'POST', content, {
      changes: [{ operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: png }] }],
    })
    expect(ok.status).toBe(200)
    expect(onDisk(w.data)).not.toBe(before)
    w.data.close()
  })

  it('a reopened directory answers as before: rows, counters, lists, files', async () => {
    const w = await world()
    const cr = (await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests`, { subject: 'Files' })).body
    const inserted = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: png }] }],
    })
    const file = inserted.body.insertedFiles[0]
    await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${w.space.id}/comments`, { body: { markdown: 'Hi' } })
    const reads = async (api: DocsApi) => ({
      space: (await call(api, w.tokens.rita, 'GET', `/v1/spaces/${w.space.id}`)).body,
      list: (await call(api, w.tokens.rita, 'GET', `/v1/orgs/${w.org.id}/spaces`)).body,
      crs: (await call(api, w.tokens.ada, 'GET', `/v1/spaces/${w.space.id}/change-requests`)).body,
      bytes: new Uint8Array(await (await api.fetch(file.downloadURL)).arrayBuffer()),
    })
    const before = await reads(w.api)
    expect(before.bytes.byteLength).toBe(70)
    const dump = w.api.dump()
    w.data.close()

    const data = openDataDir(w.dir)
    expect(data.empty).toBe(false)
    const api = createDocsApi({
      baseUrl: BASE,
      now: createClock('2026-03-01T10:00:00.000Z').now,
      ids: sequentialIds('again'),
      store: data.store,
      blobs: data.blobs,
    })
    expect(await reads(api)).toEqual(before)
    expect(api.dump()).toEqual(dump)
    data.close()
  })

  it('snapshot, restore and fork work on SQLite (copies of the file); reset() says why it cannot', async () => {
    const w = await world()
    const titles = async (api: DocsApi) => (await call(api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/spaces`)).body.items.map((s: any) => s.title)
    const snapshot = w.api.snapshot()
    await call(w.api, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 'Later' })
    const fork = w.api.fork()
    expect(fork.store).not.toBe(w.api.store)
    w.api.restore(snapshot)
    expect(await titles(w.api)).toEqual(['Docs'])
    expect(await titles(fork)).toEqual(['Docs', 'Later'])
    await call(fork, w.tokens.ada, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 'In the fork' })
    expect(await titles(w.api)).toEqual(['Docs'])
    expect(() => w.api.reset()).toThrow(
      'reset() needs the state the API was created with, which is not kept for a store whose snapshots copy its data (SQLite)',
    )
    const forkPath = (fork.store as unknown as { path: string }).path
    expect(existsSync(forkPath)).toBe(true)
    ;(fork.store as unknown as { close(): void }).close()
    expect(existsSync(forkPath)).toBe(false)
    w.data.close()
  })
})
