import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { openDataDir } from '../../src/sqlite.js'
import { scratchDir } from '../sqlite/helpers.js'

/**
 * `serve --data` on a real read-only or full file system, the command line in a child process (as
 * a person runs it): a tmpfs mounted small, or read-only, or a folder bind-mounted read-only while
 * the server runs. Mounting needs the privilege to (root in a container usually has it); a test
 * that needs a mount and may not make one is skipped and says why. Without root, read-only is
 * `chmod` (which root ignores). test/sqlite/disk.test.ts injects the same failures in process,
 * on any machine.
 */

const root = resolve(import.meta.dirname, '../..')
const bin = join(root, 'src/cli/bin.ts')
const scratch = scratchDir('cli-disk-')
const isRoot = process.getuid?.() === 0

const mounted: string[] = []
afterAll(() => {
  // Innermost first (a bind mount inside a tmpfs).
  for (const dir of mounted.reverse()) unmount(dir)
})
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

function unmount(dir: string): void {
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' })
  } catch {
    // already unmounted
  }
}

/** Run `mount` with `args`; the reason it failed, or undefined. */
function mount(args: string[]): string | undefined {
  try {
    execFileSync('mount', args, { stdio: 'pipe' })
    return undefined
  } catch (error) {
    const said = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()
    return `this process may not mount file systems (mount ${args.join(' ')}: ${said})`
  }
}

/** A new tmpfs of `size` (`-o` options added), or the reason there can be none. */
function tmpfs(size: string): { dir: string } | { skip: string } {
  const dir = mkdtempSync(join(scratch, 'tmpfs-'))
  const failed = mount(['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir])
  if (failed) return { skip: failed }
  mounted.push(dir)
  return { dir }
}

/** Run the command line to its exit. */
function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(proc)
  let out = ''
  let err = ''
  proc.stdout.on('data', (chunk) => (out += chunk))
  proc.stderr.on('data', (chunk) => (err += chunk))
  return new Promise((done) => proc.once('exit', (code) => done({ code, out, err })))
}

interface Server {
  proc: ChildProcess
  url: string
  token: string
  org: string
  /** What it wrote to stderr so far. */
  err(): string
}

/** Start `serve --data dir` and wait for its banner. */
function start(dir: string): Promise<Server> {
  const proc = spawn(process.execPath, ['--import', 'tsx', bin, 'serve', '--port', '0', '--data', dir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(proc)
  return new Promise((done, fail) => {
    let out = ''
    let err = ''
    proc.stderr!.on('data', (chunk) => (err += chunk))
    proc.stdout!.on('data', (chunk) => {
      out += chunk
      if (!out.includes('Ctrl+C to stop.')) return
      const url = /^docs-content-api on (\S+)/.exec(out)![1]!
      const token = /token {2}(gb_api_\S+) {3}\(Ada Lovelace, admin\)/.exec(out)![1]!
      const org = /organization {2}Acme Docs {2}(\S+)/.exec(out)![1]!
      done({ proc, url, token, org, err: () => err })
    })
    proc.once('exit', (code) => fail(new Error(`the server exited (${code}) before serving:\n${out}\n${err}`)))
  })
}

/** A client of a server: a change request to put files in, and calls. */
async function client(server: Server) {
  const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) })
    return { status: res.status, body: (await res.json()) as any }
  }
  const space = (await send('GET', `/v1/orgs/${server.org}/spaces`)).body.items[0].id as string
  const cr = (await send('POST', `/v1/spaces/${space}/change-requests`, { subject: 'Files' })).body.id as string
  return {
    send,
    space,
    cr,
    /** Put a file of `bytes` random bytes (a new blob) and a page in the change request. */
    upload: (bytes: number) =>
      send('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
        changes: [
          { operation: 'insert_page', title: 'With a file', document: { markdown: 'See the file.' } },
          { operation: 'insert_files', files: [{ name: 'data.bin', contentType: 'application/octet-stream', base64: randomBytes(bytes).toString('base64') }] },
        ],
      }),
  }
}

/** The files under a data directory's blobs/: the blobs' bytes, their metadata, and any temporary file. */
function blobFiles(dir: string) {
  const names = (readdirSync(join(dir, 'blobs'), { recursive: true }) as string[]).filter((name) => name.includes('/'))
  return { bytes: names.filter((n) => /\/[0-9a-f]{64}$/.test(n)), partial: names.filter((n) => n.endsWith('.partial')) }
}

/** One line, no stack trace: what `serve` prints for a data directory it cannot use. */
const NOT_WRITABLE = isRoot ? 'EROFS: read-only file system' : 'EACCES: permission denied'

describe('cli: serve --data on a read-only or full disk', () => {
  it('a data directory that is not writable exits 1 with one line saying so (one holding data, and one to create)', async (ctx) => {
    let ro: string
    if (isRoot) {
      const fs = tmpfs('4m')
      if ('skip' in fs) return ctx.skip(`root ignores file permissions, and ${fs.skip}`)
      ro = fs.dir
    } else ro = mkdtempSync(join(scratch, 'ro-'))
    const data = join(ro, 'data')
    openDataDir(data).close()
    if (isRoot) {
      const failed = mount(['-o', 'remount,ro', ro])
      if (failed) return ctx.skip(failed)
    } else {
      chmodSync(data, 0o555)
      chmodSync(ro, 0o555)
    }

    const held = await run(['serve', '--port', '0', '--data', data])
    expect(held.err).toBe(`docs-content-api: ${data} is not writable (${NOT_WRITABLE})\n`)
    expect(held.code).toBe(1)
    const created = await run(['serve', '--port', '0', '--data', join(ro, 'new', 'data')])
    expect(created.err).toBe(`docs-content-api: ${join(ro, 'new', 'data')} cannot be created: ${ro} is not writable (${NOT_WRITABLE})\n`)
    expect(created.code).toBe(1)
    if (!isRoot) for (const dir of [ro, data]) chmodSync(dir, 0o755)
  }, 120_000)

  it('a blob folder that becomes read-only while serving: a file upload answers 503 and changes nothing; other writes go on; writable again, uploads go through', async (ctx) => {
    const data = join(mkdtempSync(join(scratch, 'case-')), 'data')
    const server = await start(data)
    const c = await client(server)
    expect((await c.upload(1000)).status).toBe(200)
    const before = blobFiles(data)
    const blobs = join(data, 'blobs')
    if (isRoot) {
      const failed = mount(['--bind', blobs, blobs])
      if (failed) return ctx.skip(`root ignores file permissions, and ${failed}`)
      mounted.push(blobs)
      expect(mount(['-o', 'remount,bind,ro', blobs])).toBeUndefined()
    } else for (const folder of ['', ...readdirSync(blobs)]) chmodSync(join(blobs, folder), 0o555)

    const refused = await c.upload(1000)
    expect(refused).toEqual({
      status: 503,
      body: { error: { code: 503, message: 'Storage is not writable (a read-only or failing disk): the change was not saved, nothing was changed' } },
    })
    // The operator's log says which file and why.
    expect(server.err()).toMatch(new RegExp(`${blobs}/[0-9a-f]{2}.* is not writable \\(${NOT_WRITABLE.replace(/[()]/g, '\\$&')}\\)`))
    expect(blobFiles(data)).toEqual(before)
    expect((await c.send('POST', `/v1/orgs/${server.org}/spaces`, { title: 'No files' })).status).toBe(201)

    if (isRoot) unmount(blobs)
    else for (const folder of ['', ...readdirSync(blobs)]) chmodSync(join(blobs, folder), 0o755)
    expect((await c.upload(1000)).status).toBe(200)
    expect(blobFiles(data).bytes).toHaveLength(before.bytes.length + 1)
  }, 180_000)

  it('a full disk: uploads answer 507 saying storage is full, leave no temporary file and no blob of theirs; reads go on; a restart removes what a crash left and serves every answered write', async (ctx) => {
    const fs = tmpfs('3m')
    if ('skip' in fs) return ctx.skip(`a full disk needs a small file system: ${fs.skip}`)
    const data = join(fs.dir, 'data')
    // What a server killed in the middle of a blob write leaves (its pid is above any pid_max: no process has it).
    mkdirSync(join(data, 'blobs', 'ab'), { recursive: true })
    writeFileSync(join(data, 'blobs', 'ab', `${'ab'.repeat(32)}.${2 ** 22 + 1}.1.partial`), randomBytes(100_000))
    const server = await start(data)
    expect(blobFiles(data)).toEqual({ bytes: [], partial: [] })
    const c = await client(server)

    // 700 KB files into 3 MB (the demo data takes about 1 MB): the disk is full within a few.
    let stored = 0
    let last: { status: number; body: any } | undefined
    for (let i = 0; i < 8; i++) {
      last = await c.upload(700_000)
      if (last.status !== 200) break
      stored++
    }
    expect(last).toEqual({
      status: 507,
      body: { error: { code: 507, message: 'Storage is full: the change was not saved, nothing was changed; try again once space is freed' } },
    })
    expect(stored).toBeGreaterThan(0)
    expect(server.err()).toMatch(/: storage is full \((ENOSPC: no space left on device|SQLITE_FULL: database or disk is full)\)/)
    // The failed upload's bytes are gone, whole or partial: each stored blob is a file answered 200.
    expect(blobFiles(data)).toEqual({ bytes: expect.any(Array), partial: [] })
    expect(blobFiles(data).bytes).toHaveLength(stored)
    // Reads go on: the change request's content has a page for each upload answered 200.
    const pages = `/v1/spaces/${c.space}/change-requests/${c.cr}/content/pages`
    const read = await c.send('GET', pages)
    expect(read.status).toBe(200)
    expect(read.body.pages.filter((p: any) => p.title === 'With a file')).toHaveLength(stored)

    server.proc.kill('SIGKILL')
    await new Promise((done) => server.proc.once('exit', done))
    // A crash on a full disk, cut in the middle of a blob write: restarting removes what it left.
    mkdirSync(join(data, 'blobs', 'cd'), { recursive: true })
    writeFileSync(join(data, 'blobs', 'cd', `${'cd'.repeat(32)}.${2 ** 22 + 1}.1.partial`), '')
    const again = await start(data)
    expect(blobFiles(data).partial).toEqual([])
    const reread = await fetch(`${again.url}${pages}`, { headers: { authorization: `Bearer ${server.token}` } })
    // The same, but for the port in the URLs (each start takes a free one).
    expect(await reread.text()).toBe(JSON.stringify(read.body).replaceAll(server.url, again.url))
  }, 240_000)
})
