import { randomBytes } from 'node:crypto'
import * as fs from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Database } from '../../src/sqlite/driver.js'
import { StorageError } from '../../src/storage/errors.js'
import { createClock, sequentialIds } from '../../src/testing.js'
import { BASE, call, expectError } from '../helpers.js'
import { scratchDir } from './helpers.js'

/**
 * A full disk and storage that cannot be written, injected deterministically (the command line
 * on a real full or read-only file system is test/cli/disk.test.ts, when mounting is permitted):
 * SQLite's own SQLITE_FULL from a page cap (`PRAGMA max_page_count`) and SQLITE_READONLY
 * (`PRAGMA query_only`) on the store's connection, and the blob files' writes failing with the
 * system's ENOSPC or EROFS after writing part of their bytes, as a full disk does.
 */

/** The databases the stores of this file opened (the real driver: only the connection is kept, to set its pragmas). */
const opened = vi.hoisted(() => [] as unknown[])
vi.mock('../../src/sqlite/driver.js', async (importOriginal) => {
  const driver = await importOriginal<typeof import('../../src/sqlite/driver.js')>()
  return {
    ...driver,
    openDatabase: (path: string) => {
      const db = driver.openDatabase(path)
      opened.push(db)
      return db
    },
  }
})

/** When set, the nth write of a temporary blob file from now (0: the next one) writes half its bytes and fails with this errno. */
const failing = vi.hoisted(() => ({ code: undefined as string | undefined, after: 0 }))
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>()
  const writeFileSync = (file: fs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
    if (failing.code !== undefined && typeof file === 'string' && file.endsWith('.partial') && failing.after-- === 0) {
      const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      real.writeFileSync(file, bytes.subarray(0, bytes.byteLength >> 1))
      const messages: Record<string, string> = { ENOSPC: 'no space left on device', EROFS: 'read-only file system', EACCES: 'permission denied' }
      throw Object.assign(new Error(`${failing.code}: ${messages[failing.code]}, write`), { code: failing.code, syscall: 'write' })
    }
    return (real.writeFileSync as (...args: unknown[]) => void)(file, data, ...rest)
  }
  return { ...real, default: { ...real, writeFileSync }, writeFileSync }
})

afterEach(() => {
  failing.code = undefined
})

// The setup file (test/setup-storage.ts) has loaded the SQLite modules already, without the mocks:
// these are loaded again, with them.
vi.resetModules()
const { createDocsApi } = await import('../../src/index.js')
const { createFileBlobs, openDataDir } = await import('../../src/sqlite.js')

const root = scratchDir('sqlite-disk-')
let n = 0

async function world() {
  const dir = join(root, `data-${++n}`)
  const data = openDataDir(dir)
  const db = opened.at(-1) as Database
  const errors: unknown[] = []
  const api = createDocsApi({
    baseUrl: BASE,
    now: createClock('2026-03-01T10:00:00.000Z').now,
    ids: sequentialIds('id'),
    store: data.store,
    blobs: data.blobs,
    onError: (e) => errors.push(e),
  })
  const ada = await api.fixtures.createUser({ displayName: 'Ada', email: 'ada@acme.test' })
  const org = await api.fixtures.createOrganization({ title: 'Acme', members: [{ user: ada.id, role: 'admin' }] })
  const token = await api.fixtures.createToken(ada.id)
  const space = await api.fixtures.createSpace(org.id, { title: 'Docs' })
  const cr = (await call(api, token, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Edit' })).body
  const content = `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`
  return { dir, data, db, api, errors, token, org, content }
}

/** Every file under `dir` with its size (the blob files, the database and its WAL). */
function files(dir: string): Record<string, number> {
  const out: Record<string, number> = {}
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const stat = fs.statSync(join(dir, name))
    if (stat.isFile()) out[name] = stat.size
  }
  return out
}
const blobFiles = (dir: string) => Object.keys(files(join(dir, 'blobs'))).sort()

/** A batch storing two files of random bytes (two new blobs) and a page. */
const batch = () => ({
  changes: [
    { operation: 'insert_files', files: [{ name: 'a.bin', contentType: 'application/octet-stream', base64: randomBytes(64 * 1024).toString('base64') }] },
    { operation: 'insert_page', title: 'Long', document: { markdown: `# Long\n\n${'A paragraph of text to store. '.repeat(8000)}` } },
    { operation: 'insert_files', files: [{ name: 'b.bin', contentType: 'application/octet-stream', base64: randomBytes(64 * 1024).toString('base64') }] },
  ],
})

describe('a full disk, a storage that cannot be written (SQLite and file blobs)', () => {
  it('SQLITE_FULL (the database at its size cap) answers 507 saying storage is full; nothing changes, the batch’s blobs are removed; with room again it goes through', async () => {
    const w = await world()
    const dump = w.api.dump()
    const blobsBefore = blobFiles(w.dir)
    w.db.pragma(`max_page_count = ${w.db.pragma('page_count', { simple: true }) as number}`)
    const full = await call(w.api, w.token, 'POST', w.content, batch())
    expectError(full, 507, 'Storage is full: the change was not saved, nothing was changed')
    expect(w.api.dump()).toEqual(dump)
    expect(blobFiles(w.dir)).toEqual(blobsBefore)
    // The operator is told which file and why.
    expect(w.errors).toHaveLength(1)
    expect(StorageError.isStorageError(w.errors[0])).toBe(true)
    expect((w.errors[0] as Error).message).toBe(`${join(w.dir, 'docs.sqlite')}: storage is full (SQLITE_FULL: database or disk is full)`)
    // Reads go on.
    expect((await call(w.api, w.token, 'GET', `/v1/orgs/${w.org.id}/spaces`)).status).toBe(200)

    w.db.pragma('max_page_count = 1073741823')
    const ok = await call(w.api, w.token, 'POST', w.content, batch())
    expect(ok.status).toBe(200)
    expect(blobFiles(w.dir)).toHaveLength(blobsBefore.length + 4)
    w.data.close()
  })

  it('a database that cannot be written (SQLITE_READONLY) answers 503 saying storage is not writable; nothing changes', async () => {
    const w = await world()
    const dump = w.api.dump()
    w.db.pragma('query_only = 1')
    expectError(
      await call(w.api, w.token, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 'No' }),
      503,
      'Storage is not writable (a read-only or failing disk)',
    )
    expectError(await call(w.api, w.token, 'POST', w.content, batch()), 503, 'Storage is not writable')
    expect(w.api.dump()).toEqual(dump)
    expect(blobFiles(w.dir)).toEqual([])
    expect((w.errors[0] as Error).message).toBe(`${join(w.dir, 'docs.sqlite')} is not writable (SQLITE_READONLY: attempt to write a readonly database)`)
    w.db.pragma('query_only = 0')
    expect((await call(w.api, w.token, 'POST', `/v1/orgs/${w.org.id}/spaces`, { title: 'Yes' })).status).toBe(201)
    w.data.close()
  })

  for (const [code, status, message] of [
    ['ENOSPC', 507, 'Storage is full'],
    ['EROFS', 503, 'Storage is not writable'],
    ['EACCES', 503, 'Storage is not writable'],
  ] as const) {
    it(`a blob write failing with ${code} answers ${status}; its partly written file and the blobs the batch stored before are removed, nothing changes`, async () => {
      const w = await world()
      const dump = w.api.dump()
      const before = files(w.dir)
      // Each new blob writes two temporary files (bytes, metadata): the second blob's bytes fail.
      failing.code = code
      failing.after = 2
      const failed = await call(w.api, w.token, 'POST', w.content, batch())
      expectError(failed, status, message)
      expect(failing.after).toBe(-1)
      expect(w.api.dump()).toEqual(dump)
      // No blob, no temporary file, no folder: the blob directory is as it was (and so is the database).
      expect(files(w.dir)).toEqual(before)
      expect(fs.readdirSync(join(w.dir, 'blobs'))).toEqual([])
      expect((w.errors[0] as Error).message).toMatch(
        new RegExp(
          `^${join(w.dir, 'blobs')}/[0-9a-f]{2}/[0-9a-f]{64}${code === 'ENOSPC' ? ': storage is full \\(ENOSPC: no space left on device\\)' : ` is not writable \\(${code}: `}`,
        ),
      )
      failing.code = undefined
      expect((await call(w.api, w.token, 'POST', w.content, batch())).status).toBe(200)
      w.data.close()
    })
  }

  it('a failed metadata write removes the new blob’s bytes too (no file without its metadata stays)', () => {
    const dir = join(root, `blobs-${++n}`)
    const blobs = createFileBlobs({ dir })
    failing.code = 'ENOSPC'
    failing.after = 1
    expect(() => blobs.put(new Uint8Array([1, 2, 3]), 'application/octet-stream')).toThrow(/: storage is full \(ENOSPC: no space left on device\)$/)
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('opening removes the temporary files a dead process left (and this process’s), not those of a running one', () => {
    const dir = join(root, `data-${++n}`)
    openDataDir(dir).close()
    const key = 'ab'.repeat(32)
    // Above any pid_max (2^22): no process has this pid.
    const dead = 2 ** 22 + 1
    const alive = process.ppid
    const folder = join(dir, 'blobs', 'ab')
    fs.mkdirSync(folder)
    const stale = [`${key}.${dead}.1.partial`, `${key}.json.${dead}.2.partial`, `${key}.${process.pid}.7.partial`]
    const live = `${key}.${alive}.3.partial`
    for (const name of [...stale, live]) fs.writeFileSync(join(folder, name), 'half of something')
    fs.mkdirSync(join(dir, 'blobs', 'cd'))
    fs.writeFileSync(join(dir, 'blobs', 'cd', `${'cd'.repeat(32)}.${dead}.1.partial`), 'x')

    const data = openDataDir(dir)
    expect(fs.readdirSync(folder)).toEqual([live])
    // A folder that held only temporary files goes too.
    expect(fs.readdirSync(join(dir, 'blobs'))).toEqual(['ab'])
    data.close()
  })
})
