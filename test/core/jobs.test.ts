import { describe, expect, it } from 'vitest'
import { createJobRunner } from '../../src/core/jobs.js'
import { createDocsApi } from '../../src/index.js'

describe('core: the job runner behind api.idle()', () => {
  it('runs jobs after the caller goes on, and idle() waits for them, jobs started by jobs included', async () => {
    const errors: unknown[] = []
    const jobs = createJobRunner((e) => errors.push(e))
    const done: string[] = []
    jobs.run('first', async () => {
      await new Promise((r) => setTimeout(r, 20))
      done.push('first')
      jobs.run('second', async () => {
        await new Promise((r) => setTimeout(r, 20))
        done.push('second')
      })
    })
    expect(done).toEqual([])
    expect(jobs.pending).toBe(1)
    await jobs.idle()
    expect(done).toEqual(['first', 'second'])
    expect(jobs.pending).toBe(0)
    expect(errors).toEqual([])
  })

  it('a job that throws goes to onError with its name and never rejects idle()', async () => {
    const errors: Array<[unknown, string]> = []
    const jobs = createJobRunner((e, name) => errors.push([e, name]))
    jobs.run('broken', () => {
      throw new Error('boom')
    })
    jobs.run('rejects', () => Promise.reject(new Error('later')))
    await expect(jobs.idle()).resolves.toBeUndefined()
    expect(errors.map(([e, name]) => [(e as Error).message, name])).toEqual([
      ['boom', 'broken'],
      ['later', 'rejects'],
    ])
  })

  it('api.idle() resolves at once when nothing is pending', async () => {
    const api = createDocsApi()
    await expect(api.idle()).resolves.toBeUndefined()
  })
})

describe('core: jobs deferred by a transaction', () => {
  it('start only once the transaction commits, after it answered; a rolled-back transaction starts none', async () => {
    const api = createDocsApi()
    const ran: string[] = []
    api.system((ctx) => ctx.defer('kept', { run: () => void ran.push('kept') }))
    expect(ran).toEqual([])
    expect(() =>
      api.system((ctx) => {
        ctx.defer('dropped', { run: () => void ran.push('dropped') })
        throw new Error('rolled back')
      }),
    ).toThrow('rolled back')
    await api.idle()
    expect(ran).toEqual(['kept'])
  })

  it('a job writes through its own system transactions and may defer others; idle() waits for all', async () => {
    const api = createDocsApi({
      ids: (() => {
        let n = 0
        return () => `id${++n}`
      })(),
    })
    const user = await api.fixtures.createUser({ displayName: 'Ada' })
    api.system((ctx) =>
      ctx.defer('rename', {
        async run(env) {
          await new Promise((r) => setTimeout(r, 5))
          await env.transaction((tx) => tx.tx.update('users', { ...tx.tx.get('users', user.id)!, displayName: 'Ada L.' }))
          env.defer('again', { run: (e) => e.transaction((tx) => tx.tx.update('users', { ...tx.tx.get('users', user.id)!, displayName: 'Ada Lovelace' })) })
        },
      }),
    )
    await api.idle()
    expect(api.store.read((tx) => tx.get('users', user.id)!.displayName)).toBe('Ada Lovelace')
  })

  it('a job that throws is handed to its failed step (recorded in a transaction), not to onError; without one, onError gets it', async () => {
    const errors: unknown[] = []
    const api = createDocsApi({ onError: (e) => errors.push(e) })
    const user = await api.fixtures.createUser({ displayName: 'Ada' })
    api.system((ctx) =>
      ctx.defer('fails', {
        run: () => Promise.reject(new Error('remote down')),
        failed: (ctx, error) => ctx.tx.update('users', { ...ctx.tx.get('users', user.id)!, displayName: `failed: ${(error as Error).message}` }),
      }),
    )
    api.system((ctx) =>
      ctx.defer('unhandled', {
        run: () => {
          throw new Error('boom')
        },
      }),
    )
    await api.idle()
    expect(api.store.read((tx) => tx.get('users', user.id)!.displayName)).toBe('failed: remote down')
    expect(errors.map((e) => (e as Error).message)).toEqual(['boom'])
  })
})
