import { afterEach, expect, it, vi } from 'vitest'
import { OPERATION_TIMEOUT_MS } from '../../../src/domains/spaces/git-sync.js'
import { call, createWorld } from '../../helpers.js'

afterEach(() => {
  vi.useRealTimers()
})

it('an operation still running after operationTimeout ends as `timeout`, and changes nothing', async () => {
  let reached!: () => void
  const called = new Promise<void>((resolve) => (reached = resolve))
  // A remote that never answers.
  const w = await createWorld({ fetch: () => (reached(), new Promise<Response>(() => undefined)) })
  const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Docs' })
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  const res = await call(w.api, w.tokens.ada, 'POST', `/v1/spaces/${space.id}/git/import`, { url: 'https://git.example.com/a/b.git', ref: 'refs/heads/main' })
  expect(res.status).toBe(204)
  await called
  const running = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/git/info`)
  expect(running.body.operation).toEqual({ state: 'running', direction: 'import', startedAt: '2026-03-01T10:00:00.000Z' })
  const before = w.api.dump()
  vi.advanceTimersByTime(OPERATION_TIMEOUT_MS)
  await w.api.idle()
  const info = await call(w.api, w.tokens.ada, 'GET', `/v1/spaces/${space.id}/git/info`)
  expect(info.body.operation).toMatchObject({ state: 'timeout', error: 'the operation took longer than 300 s and was stopped' })
  expect(w.api.dump().revisions).toEqual(before.revisions)
})
