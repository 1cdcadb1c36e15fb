import { describe, expect, it } from 'vitest'
import { createFairQueue } from '../../src/core/fair-queue.js'

/** A job that runs until `finish()` is called, recording when it starts. */
function gate(log: string[], name: string) {
  let finish!: () => void
  const done = new Promise<void>((resolve) => (finish = resolve))
  return { job: async () => (log.push(name), await done, name), finish: () => finish() }
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('fair queue', () => {
  it('runs at most `concurrency` jobs at once, and waiting ones by owner in turn', async () => {
    const queue = createFairQueue(1)
    const log: string[] = []
    const gates = [gate(log, 'a1'), gate(log, 'a2'), gate(log, 'a3'), gate(log, 'b1'), gate(log, 'b2')]
    const owners = ['a', 'a', 'a', 'b', 'b']
    const results = gates.map((g, i) => queue.run(owners[i]!, g.job))
    for (const g of gates) {
      await turn()
      expect(queue.running).toBe(1)
      g.finish()
    }
    expect(await Promise.all(results)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2'])
    // a1 first (asked first), then the owners alternate: b's jobs do not wait for all of a's.
    expect(log).toEqual(['a1', 'b1', 'a2', 'b2', 'a3'])
  })

  it('frees the slot of a job that fails', async () => {
    const queue = createFairQueue(1)
    await expect(queue.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    await expect(
      queue.run('a', () => {
        throw new Error('sync')
      }),
    ).rejects.toThrow('sync')
    expect(await queue.run('a', async () => 'ok')).toBe('ok')
    expect(queue.running).toBe(0)
  })
})
