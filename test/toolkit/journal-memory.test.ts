import { execFile } from 'node:child_process'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

/**
 * The journal's memory, measured: large bodies from a caller of no organization, in a child
 * process with `gc()` (journal-memory.child.ts). Before the journal cut bodies, sixty 4 MiB bodies
 * grew the heap by the 240 MiB sent (and 16 MiB ones ran it out of memory).
 */

const root = resolve(import.meta.dirname, '../..')
const child = join(root, 'test/toolkit/journal-memory.child.ts')

async function measure(count: number, megabytes: number) {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', child, String(count), String(megabytes)], {
    cwd: root,
    maxBuffer: 1024 * 1024,
  })
  return JSON.parse(stdout.trim().split('\n').pop()!) as {
    before: number
    after: number
    sent: number
    statuses: number[]
    entries: number
    size: number
    sizeLimit: number
  }
}

describe('toolkit: the journal’s memory', () => {
  it('keeps a bounded part of each large body: twenty 4 MiB bodies grow the heap by a small fraction of what was sent', async () => {
    const m = await measure(20, 4)
    expect(m.statuses).toEqual([400])
    // What the journal keeps of them: 64 Ki characters of each request (1 byte each, ASCII) and its small answer.
    expect(m.after - m.before).toBeLessThan(m.sent / 10)
    expect(m.entries).toBe(25)
    expect(m.size).toBeLessThanOrEqual(m.sizeLimit)
  }, 120_000)
})
