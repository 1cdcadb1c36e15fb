import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { useGitServer } from './helpers.js'

/**
 * An import's memory against the repository's size, measured in a child process with `gc()`
 * (import-memory.child.ts; the Git server runs here, so its buffers are not counted there): a
 * repository of one 30 MiB random asset (its pack as large: random bytes do not compress). The
 * fetch gathers the pack into one buffer grown in place (pack/upload-pack.ts) and indexes it
 * without inflating any object whole (pack/index-pack.ts); the asset is inflated straight into a
 * buffer of its size and given to the blob store, which keeps it (`owned`). So while the job
 * stores the asset it holds the pack and the asset, 2×; the process's peak resident size is about
 * 3 times the repository here and 2.1 times for a 150 MiB asset (it was about 7 with
 * isomorphic-git's fetch and indexer, which held several copies of the pack and of the asset at
 * once; 1.1 GiB for a 150 MiB asset).
 * (The pack grows in a resizable buffer, which the engine does not count; it is copied into an
 * ordinary one when complete, and the grown one given back: the pack is held twice only then.)
 */
const git = useGitServer()
const root = resolve(import.meta.dirname, '../../..')
const MIB = 1024 * 1024

describe('the memory of an import', () => {
  it('holds the pack and the asset it stores (about twice the repository), no other copy of them, and gives the pack back after', async () => {
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
      rssAtPut: number
      maxRss: number
      after: { rss: number; heapAndBuffers: number }
    }
    const times = (bytes: number) => Math.round((bytes / size) * 100) / 100
    const report = `resident while storing the asset: +${times(m.rssAtPut - m.before.rss)}×; heap and buffers then: +${times(m.atPut - m.before.heapAndBuffers)}×; peak resident size: +${times(m.maxRss - m.before.rss)}×; kept after: ${times(m.after.heapAndBuffers - m.before.heapAndBuffers)}×`
    // The pack and the asset read, no other copy of them (the blob store keeps the asset): 2×.
    expect(times(m.atPut - m.before.heapAndBuffers), report).toBeGreaterThan(1.5)
    expect(times(m.atPut - m.before.heapAndBuffers), report).toBeLessThan(2.4)
    // Resident, the same with the allocator's slack: about 2× alone, 3.03× once under a loaded CI run
    // (pages freed by the collector are given back to the system late), so the bound is 4: a second
    // copy of the pack and the asset would pass 4. (The peak resident size, in the report, is not
    // asserted: under a loaded machine the collector lags and it moves, about 3× alone, near 7× under CI's load.)
    expect(times(m.rssAtPut - m.before.rss), report).toBeLessThan(4)
    // After the job, the stored asset only.
    expect(times(m.after.heapAndBuffers - m.before.heapAndBuffers), report).toBeLessThan(1.3)
  }, 180_000)
})
