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
