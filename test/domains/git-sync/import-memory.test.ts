import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { useGitServer } from './helpers.js'

/**
 * An import's memory against the repository's size, measured in a child process with `gc()`
 * (import-memory.child.ts; the Git server runs here, so its buffers are not counted there): a
 * repository of one 30 MiB random asset (its pack as large: random bytes do not compress). While
 * the job stores the asset it holds the pack and the asset read, nothing more: the in-memory file
 * system copies no file in or out (memory-fs.ts), where it held a second pack (isomorphic-git's
 * cached copy of the file) and the import held three times the repository. What the fetch itself
 * costs (isomorphic-git collects and indexes the pack: several copies at once, for a moment) is
 * not measured here: the process's peak resident size, printed on failure, varies with the
 * collector's timing (about 7 times the repository, 8 before; docs/behaviour/git-sync.md).
 */
const git = useGitServer()
const root = resolve(import.meta.dirname, '../../..')
const MIB = 1024 * 1024

describe('the memory of an import', () => {
  it('holds the pack and the asset it stores (about twice the repository), no other copy of them', async () => {
    const size = 30 * MIB
    git.server.createRepo('memory-big', { 'README.md': '# Home\n\n![Big](.gitbook/assets/big.bin)\n', '.gitbook/assets/big.bin': randomBytes(size) })
    git.server.createRepo('memory-warm', { 'README.md': '# Warm\n', '.gitbook/assets/warm.bin': randomBytes(2 * MIB) })
    const child = join(root, 'test/domains/git-sync/import-memory.child.ts')
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', child, git.server.url('memory-big'), git.server.url('memory-warm')],
      { cwd: root, maxBuffer: MIB },
    )
    const m = JSON.parse(stdout.trim().split('\n').pop()!) as {
      before: { rss: number; heapAndBuffers: number }
      atPut: number
      maxRss: number
      after: { rss: number; heapAndBuffers: number }
    }
    const times = (bytes: number) => Math.round((bytes / size) * 100) / 100
    const held = times(m.atPut - m.before.heapAndBuffers)
    const report = `held while storing the asset: ${held}×; peak resident size: +${times(m.maxRss - m.before.rss)}×; kept after: ${times(m.after.heapAndBuffers - m.before.heapAndBuffers)}×`
    // The pack and the asset read: 2× (it was 3×: the file system's pack and isomorphic-git's copy of it).
    expect(held, report).toBeGreaterThan(1.5)
    expect(held, report).toBeLessThan(2.4)
    // After the job, the stored asset only.
    expect(times(m.after.heapAndBuffers - m.before.heapAndBuffers), report).toBeLessThan(1.3)
  }, 180_000)
})
