import { describe, expect, it } from 'vitest'
import { createDocsApi, type DocsApi, type IntegrationHandler } from '../../../src/index.js'
import { sequentialIds } from '../../../src/testing.js'
import { call } from '../../helpers.js'
import { integrationWorld } from './helpers.js'
import { TEST_STORE } from '../../test-storage.js'

/**
 * An event whose delivery is under way (its handler held) when the API forks, goes back to a
 * snapshot or is saved to a state document is delivered again there (core/resume.ts) and ends
 * `done` with one outcome recorded; a delivery that already ended is never made again.
 */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

/** A handler that counts its calls and answers `answer` once released. */
function heldHandler(answer: () => Response = () => new Response('OK')) {
  let gate: Promise<void> | undefined
  let open: (() => void) | undefined
  const state = { calls: 0 }
  let reached!: () => void
  const called = new Promise<void>((resolve) => (reached = resolve))
  const handler: IntegrationHandler = async () => {
    state.calls++
    reached()
    await gate
    return answer()
  }
  return {
    handler,
    state,
    called,
    hold: () => void (gate = new Promise((resolve) => (open = resolve))),
    release: () => (open?.(), (gate = undefined)),
  }
}

async function midRun() {
  const h = heldHandler()
  const w = await integrationWorld({ integrations: { 'my-app': h.handler }, integrationDelivery: { retryDelays: [0, 0, 0] } })
  await w.publish('my-app')
  h.hold()
  await w.install('my-app')
  await h.called
  const event = async (on: DocsApi = w.api) => {
    const id = (await call(on, w.tokens.ada, 'GET', '/v1/integrations/my-app/events')).body.items[0].id
    return (await call(on, w.tokens.ada, 'GET', `/v1/integrations/my-app/events/${id}`)).body as { event: any; trace: { logs: Array<{ message: string }> } }
  }
  expect((await event()).event.delivery).toEqual({ state: 'progress', attempts: 1 })
  expect(h.state.calls).toBe(1)
  return { ...w, h, event }
}

/** Delivered, with one outcome in the trace. */
async function expectDeliveredOnce(w: Awaited<ReturnType<typeof midRun>>, on: DocsApi) {
  const { event, trace } = await w.event(on)
  expect(event).toMatchObject({ status: 'success', delivery: { state: 'done', attempts: 1 } })
  expect(trace.logs.filter((l) => l.message.startsWith('Delivered')).length).toBe(1)
  return trace.logs.map((l) => l.message)
}

describe('integration events: deliveries taken up again after a fork, a restore, a state document', () => {
  it('a fork delivers the event it copied in progress (the interrupted attempt made again); the parent ends its own', async () => {
    const w = await midRun()
    const fork = w.api.fork()
    w.h.release()
    await Promise.all([w.api.idle(), fork.idle()])
    await expectDeliveredOnce(w, w.api)
    const messages = await expectDeliveredOnce(w, fork)
    expect(messages).toContainEqual(expect.stringContaining('Attempt 1 was interrupted'))
    expect(w.h.state.calls).toBe(2)
  })

  it.skipIf(TEST_STORE === 'postgres')(
    'restore() to the state with the delivery in progress delivers it again; the attempt still in flight records nothing',
    async () => {
      const w = await midRun()
      w.api.restore(w.api.snapshot())
      w.h.release()
      await w.api.idle()
      const messages = await expectDeliveredOnce(w, w.api)
      expect(messages.filter((m) => m.startsWith('Attempt 1 of 4')).length).toBe(2)
      // The handler had it twice (the interrupted attempt and the resumed one): deliveries are at least once.
      expect(w.h.state.calls).toBe(2)
    },
  )

  it('a state document (seed or fixtures.load) with the delivery in progress delivers it once', async () => {
    const w = await midRun()
    const doc = w.api.dump()
    const options = {
      baseUrl: 'http://localhost:4000',
      now: w.clock.now,
      integrations: { 'my-app': w.h.handler },
      integrationDelivery: { retryDelays: [0, 0, 0] },
    }
    const seeded = createDocsApi({ ...options, ids: sequentialIds('s'), seed: doc })
    const loaded = createDocsApi({ ...options, ids: sequentialIds('l') })
    await loaded.fixtures.load(doc)
    w.h.release()
    await Promise.all([w.api.idle(), seeded.idle(), loaded.idle()])
    for (const api of [w.api, seeded, loaded]) await expectDeliveredOnce(w, api)
    expect(w.h.state.calls).toBe(3)
  })

  it.skipIf(TEST_STORE === 'postgres')('a delivery that ended is never made again: not by a fork, a restore or a load', async () => {
    const w = await midRun()
    w.h.release()
    await w.api.idle()
    const doc = w.api.dump()
    const snapshot = w.api.snapshot()
    const fork = w.api.fork()
    w.api.restore(snapshot)
    const seeded = createDocsApi({ baseUrl: 'http://localhost:4000', seed: doc, integrations: { 'my-app': w.h.handler } })
    await Promise.all([w.api.idle(), fork.idle(), seeded.idle()])
    expect(w.h.state.calls).toBe(1)
    for (const api of [w.api, fork, seeded]) await expectDeliveredOnce(w, api)
  })

  it('a retry that was waiting is made when its time comes (by the API clock), counted from where it stood', async () => {
    let calls = 0
    const flaky: IntegrationHandler = async () => (++calls === 1 ? new Response('busy', { status: 503 }) : new Response('OK'))
    const w = await integrationWorld({ integrations: { 'my-app': flaky }, integrationDelivery: { retryDelays: [300] } })
    await w.publish('my-app')
    await w.install('my-app')
    const id = (await call(w.api, w.tokens.ada, 'GET', '/v1/integrations/my-app/events')).body.items[0].id
    const read = async (on: DocsApi) => (await call(on, w.tokens.ada, 'GET', `/v1/integrations/my-app/events/${id}`)).body
    for (let i = 0; i < 200 && (await read(w.api)).event.delivery.state !== 'pending'; i++) await tick()
    expect((await read(w.api)).event.delivery).toEqual({ state: 'pending', attempts: 1, nextAttemptAt: '2026-03-01T10:00:00.300Z' })
    // The retry is due by the clock: the fork makes it at once, while the parent still waits its timer.
    w.clock.advance(300)
    const fork = w.api.fork()
    await fork.idle()
    const { event, trace } = await read(fork)
    expect(event.delivery).toEqual({ state: 'done', attempts: 2 })
    expect(trace.logs.map((l: { message: string }) => l.message)).toContainEqual(expect.stringContaining('taken up again'))
    expect((await read(w.api)).event.delivery.state).toBe('pending')
    await w.api.idle()
    expect((await read(w.api)).event.delivery).toEqual({ state: 'done', attempts: 2 })
    expect(calls).toBe(3)
  })
})
