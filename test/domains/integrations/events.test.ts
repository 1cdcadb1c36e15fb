import { describe, expect, it } from 'vitest'
import { createDocsApi, type IntegrationHandler } from '../../../src/index.js'
import { expectOfficialResponse } from '../../conformance/official.js'
import { call, expectError } from '../../helpers.js'
import { integrationWorld, type IntegrationWorld } from './helpers.js'

/**
 * Setup events and their delivery to in-process handlers (`createDocsApi({ integrations })`):
 * each installation records an event, a background job delivers it as the platform calls a
 * script, retries with the configured delays, and writes every step in the event's trace.
 */
const NO_WAIT = { retryDelays: [0, 0, 0] }

/** A handler recording what it receives, answering with `answers` in turn (the last one after). */
function recorder(...answers: Array<() => Response | Promise<Response>>) {
  const requests: Request[] = []
  const handler: IntegrationHandler = async (request) => {
    requests.push(request.clone())
    const answer = answers[Math.min(requests.length - 1, answers.length - 1)]!
    return answer()
  }
  return { requests, handler }
}
const ok = () => new Response('OK')
const fail = () => new Response(JSON.stringify({ error: 'Internal server error' }), { status: 500 })

async function eventOf(w: IntegrationWorld, name = 'my-app') {
  const list = await call(w.api, w.tokens.ada, 'GET', `/v1/integrations/${name}/events`)
  expectOfficialResponse('listIntegrationEvents', 200, list.body)
  const one = await call(w.api, w.tokens.ada, 'GET', `/v1/integrations/${name}/events/${list.body.items.at(-1).id}`)
  expectOfficialResponse('getIntegrationEvent', 200, one.body)
  return one.body as { event: any; trace: { logs: Array<{ message: string; level: string; timestamp: string }> } }
}
const messages = (e: { trace: { logs: Array<{ message: string }> } }) => e.trace.logs.map((l) => l.message)

describe('integration events', () => {
  it('an installation records an installation_setup event, readable with its trace; without a handler it is recorded, not delivered', async () => {
    const w = await integrationWorld()
    await w.publish('my-app')
    const installation = await w.install('my-app')
    await w.api.idle()
    const { event, trace } = await eventOf(w)
    const integrationId = w.api.store.read((tx) => tx.get('integrations', 'my-app')!.uid)
    expect(event).toEqual({
      id: event.id,
      integrationId,
      installationId: installation.id,
      createdAt: '2026-03-01T10:00:00.000Z',
      payload: {
        eventId: event.id,
        type: 'installation_setup',
        installationId: installation.id,
        status: 'active',
        previous: { status: 'pending', configuration: {} },
      },
      status: 'success',
      delivery: { state: 'skipped', attempts: 0 },
    })
    expect(trace.logs.at(-1)).toMatchObject({ level: 'info', message: expect.stringContaining('No in-process handler for integration "my-app"') })
    expect(trace.logs.every((l) => l.timestamp === '2026-03-01T10:00:00.000Z')).toBe(true)
  })

  it('space and site installations record space_installation_setup and site_installation_setup', async () => {
    const w = await integrationWorld()
    await w.publish('my-app')
    const installation = await w.install('my-app')
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    const site = await w.api.fixtures.createSite(w.org.id, { title: 'Docs' })
    await call(w.api, w.tokens.ada, 'POST', `/v1/integrations/my-app/installations/${installation.id}/spaces`, { space: space.id })
    await call(w.api, w.tokens.ada, 'POST', `/v1/integrations/my-app/installations/${installation.id}/sites`, { siteId: site.id })
    await w.api.idle()
    const list = (await call(w.api, w.tokens.ada, 'GET', '/v1/integrations/my-app/events')).body
    expect(list.items.map((e: any) => [e.payload.type, e.payload.spaceId ?? e.payload.siteId])).toEqual([
      ['installation_setup', undefined],
      ['space_installation_setup', space.id],
      ['site_installation_setup', site.id],
    ])
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/integrations/my-app/events?limit=2')).body.next).toBeDefined()
  })

  it('events are for the owner admins; an unknown event or one of another integration is a 404', async () => {
    const w = await integrationWorld()
    await w.publish('my-app', { visibility: 'public' })
    await w.publish('other')
    await w.install('my-app')
    const other = await w.install('other')
    await w.api.idle()
    const id = (await call(w.api, w.tokens.ada, 'GET', '/v1/integrations/my-app/events')).body.items[0].id
    expectError(await call(w.api, w.tokens.rita, 'GET', '/v1/integrations/my-app/events'), 403, 'admin role on this integration')
    expectError(await call(w.api, w.tokens.olga, 'GET', `/v1/integrations/my-app/events/${id}`), 403, 'admin role on this integration')
    expectError(await call(w.api, w.tokens.olga, 'GET', '/v1/integrations/other/events'), 404, 'Integration not found')
    expectError(await call(w.api, undefined, 'GET', '/v1/integrations/my-app/events'), 401, '')
    expectError(await call(w.api, w.tokens.ada, 'GET', '/v1/integrations/my-app/events/nope'), 404, 'Event not found')
    const otherEvent = (await call(w.api, w.tokens.ada, 'GET', '/v1/integrations/other/events')).body.items[0]
    expect(otherEvent.installationId).toBe(other.id)
    expectError(await call(w.api, w.tokens.ada, 'GET', `/v1/integrations/my-app/events/${otherEvent.id}`), 404, 'Event not found')
    expectError(await call(w.api, w.tokens.ada, 'GET', '/v1/integrations/my-app/events?limit=-1'), 400, '`limit`: must be at least 0')
  })

  it('a failed request records no event and starts no delivery', async () => {
    const { handler, requests } = recorder(ok)
    const w = await integrationWorld({ integrations: { 'my-app': handler }, integrationDelivery: NO_WAIT })
    await w.publish('my-app')
    await call(w.api, w.tokens.rita, 'POST', '/v1/integrations/my-app/installations', { organization: w.org.id })
    await w.api.idle()
    expect(requests).toEqual([])
    expect(w.api.store.read((tx) => tx.all('integrationEvents'))).toEqual([])
  })
})

describe('integration event delivery', () => {
  it('delivers to the handler as the platform calls a script: a signed multipart POST to /v1 with `event` and `environment`', async () => {
    const { handler, requests } = recorder(ok)
    const w = await integrationWorld({ integrations: { 'my-app': handler }, integrationDelivery: NO_WAIT })
    await w.publish('my-app', { secrets: { API_KEY: 'k' } })
    const installation = await w.install('my-app')
    await w.api.idle()
    expect(requests).toHaveLength(1)
    const request = requests[0]!
    expect(request.method).toBe('POST')
    expect(new URL(request.url).pathname).toBe('/v1')
    expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/)
    const body = await request.clone().text()
    const form = await request.formData()
    const { event, trace } = await eventOf(w)
    expect(JSON.parse(String(form.get('event')))).toEqual(event.payload)
    const environment = JSON.parse(String(form.get('environment')))
    expect(environment).toMatchObject({
      apiEndpoint: 'http://localhost:4000',
      integration: { name: 'my-app', version: 1 },
      installation: { id: installation.id, target: { organization: w.org.id } },
      secrets: { API_KEY: 'k' },
      signingSecrets: { integration: expect.any(String) },
      apiTokens: { integration: expect.any(String) },
    })
    // The signature: HMAC-SHA256 of the body with the integration's signing secret, hex (as @gitbook/runtime verifies it).
    const enc = new TextEncoder()
    const key = await crypto.subtle.importKey('raw', enc.encode(environment.signingSecrets.integration), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    const mac = Buffer.from(await crypto.subtle.sign('HMAC', key, enc.encode(body))).toString('hex')
    expect(request.headers.get('x-gitbook-integration-signature')).toBe(mac)
    expect(event).toMatchObject({ status: 'success', delivery: { state: 'done', attempts: 1 } })
    expect(messages({ trace })).toEqual([
      'Recorded installation_setup for installation ' + installation.id,
      'Attempt 1 of 4: delivering installation_setup to the handler of "my-app"',
      'Delivered: the handler answered 200',
    ])
  })

  it('retries a handler that fails twice, then succeeds: three attempts, each in the trace', async () => {
    const { handler, requests } = recorder(
      fail,
      () => {
        throw new Error('boom')
      },
      ok,
    )
    const w = await integrationWorld({ integrations: { 'my-app': handler }, integrationDelivery: NO_WAIT })
    await w.publish('my-app')
    await w.install('my-app')
    await w.api.idle()
    expect(requests).toHaveLength(3)
    const e = await eventOf(w)
    expect(e.event).toMatchObject({ status: 'success', delivery: { state: 'done', attempts: 3 } })
    expect(messages(e).slice(1)).toEqual([
      'Attempt 1 of 4: delivering installation_setup to the handler of "my-app"',
      'Attempt 1 of 4 failed: the handler answered 500: {"error":"Internal server error"}',
      'Retrying in 0 ms',
      'Attempt 2 of 4: delivering installation_setup to the handler of "my-app"',
      'Attempt 2 of 4 failed: the handler threw: boom',
      'Retrying in 0 ms',
      'Attempt 3 of 4: delivering installation_setup to the handler of "my-app"',
      'Delivered: the handler answered 200',
    ])
    expect(e.trace.logs.map((l) => l.level)).toEqual(['debug', 'info', 'error', 'warn', 'info', 'error', 'warn', 'info', 'info'])
  })

  it('a handler that always fails: every attempt is made, then the event is failed with the reason', async () => {
    const { handler, requests } = recorder(() => {
      throw new Error('down')
    })
    const w = await integrationWorld({ integrations: { 'my-app': handler }, integrationDelivery: { retryDelays: [0, 0] } })
    await w.publish('my-app')
    await w.install('my-app')
    await w.api.idle()
    expect(requests).toHaveLength(3)
    const e = await eventOf(w)
    expect(e.event).toMatchObject({
      status: 'failed',
      delivery: { state: 'failed', attempts: 3, reason: 'Every attempt failed (3); the last: the handler threw: down' },
    })
    expect(e.trace.logs.at(-1)).toMatchObject({ level: 'error', message: e.event.delivery.reason })
  })

  it('an answer that refuses the event (a 4xx but 408 and 429) is not retried', async () => {
    const { handler, requests } = recorder(
      () => new Response(JSON.stringify({ error: 'Integration does not handle "installation_setup" events' }), { status: 406 }),
    )
    const w = await integrationWorld({ integrations: { 'my-app': handler }, integrationDelivery: NO_WAIT })
    await w.publish('my-app')
    await w.install('my-app')
    await w.api.idle()
    expect(requests).toHaveLength(1)
    expect((await eventOf(w)).event).toMatchObject({
      status: 'failed',
      delivery: { state: 'failed', attempts: 1, reason: expect.stringContaining('The handler refused the event: the handler answered 406') },
    })
  })

  it('waits the configured delays on a timer between attempts, the next attempt due on the event meanwhile', async () => {
    let calls = 0
    let called!: () => void
    let release!: () => void
    const first = new Promise<void>((resolve) => (called = resolve))
    const released = new Promise<void>((resolve) => (release = resolve))
    const handler: IntegrationHandler = async () => {
      calls++
      if (calls === 1) {
        called()
        await released
      }
      return calls < 3 ? new Response('busy', { status: 503 }) : new Response('OK')
    }
    const w = await integrationWorld({ integrations: { 'my-app': handler }, integrationDelivery: { retryDelays: [40, 40] } })
    await w.publish('my-app')
    await w.install('my-app')
    await first
    // During the first attempt: progress.
    expect((await eventOf(w)).event).toMatchObject({ status: 'failed', delivery: { state: 'progress', attempts: 1 } })
    const started = performance.now()
    release()
    await new Promise((resolve) => setTimeout(resolve, 10))
    // Between attempts: pending, with the next attempt due 40 ms later by the API's (frozen) clock.
    expect((await eventOf(w)).event.delivery).toEqual({ state: 'pending', attempts: 1, nextAttemptAt: '2026-03-01T10:00:00.040Z' })
    await w.api.idle()
    expect(performance.now() - started).toBeGreaterThanOrEqual(75)
    expect(calls).toBe(3)
    expect((await eventOf(w)).event.delivery).toEqual({ state: 'done', attempts: 3 })
  })

  it('an attempt past the timeout fails and is retried; what the handler hands to waitUntil is awaited', async () => {
    const slow: IntegrationHandler = () => new Promise<Response>(() => {})
    const w = await integrationWorld({ integrations: { 'my-app': slow }, integrationDelivery: { retryDelays: [0], timeout: 20 } })
    await w.publish('my-app')
    await w.install('my-app')
    await w.api.idle()
    expect((await eventOf(w)).event.delivery).toMatchObject({ state: 'failed', attempts: 2, reason: expect.stringContaining('did not answer within 20 ms') })

    let finished = false
    const background: IntegrationHandler = (_request, _env, ctx) => {
      ctx.waitUntil(new Promise((resolve) => setTimeout(resolve, 20)).then(() => (finished = true)))
      return new Response('OK')
    }
    const v = await integrationWorld({ integrations: { 'my-app': background }, integrationDelivery: NO_WAIT })
    await v.publish('my-app')
    await v.install('my-app')
    await v.api.idle()
    expect(finished).toBe(true)
    expect((await eventOf(v)).event.delivery).toEqual({ state: 'done', attempts: 1 })
  })

  it('an integration unpublished while a retry waits: the job stops quietly', async () => {
    const { handler, requests } = recorder(fail)
    const w = await integrationWorld({ integrations: { 'my-app': handler }, integrationDelivery: { retryDelays: [30, 30] } })
    await w.publish('my-app')
    await w.install('my-app')
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await call(w.api, w.tokens.ada, 'DELETE', '/v1/integrations/my-app')).status).toBe(204)
    await w.api.idle()
    expect(requests).toHaveLength(1)
    expect(w.api.store.read((tx) => tx.all('integrationEvents'))).toEqual([])
  })

  it('checks the options when the API is made', async () => {
    await expect(integrationWorld({ integrationDelivery: { retryDelays: [-1] } })).rejects.toThrow('retryDelays must be finite numbers')
    await expect(integrationWorld({ integrationDelivery: { timeout: 0 } })).rejects.toThrow('timeout must be a positive number')
    await expect(integrationWorld({ integrations: { x: 'nope' as never } })).rejects.toThrow('integrations["x"] must be a fetch function')
  })
})

describe('integration state documents', () => {
  it('dump and load keep integrations, installations and events as they were', async () => {
    const w = await integrationWorld()
    await w.publish('my-app', { visibility: 'public', blocks: [{ id: 'b', title: 'Block' }] })
    const installation = await w.install('my-app')
    const space = await w.api.fixtures.createSpace(w.org.id, { title: 'Handbook' })
    await call(w.api, w.tokens.ada, 'POST', `/v1/integrations/my-app/installations/${installation.id}/spaces`, { space: space.id })
    await w.api.idle()
    const dumped = w.api.dump()
    const again = createDocsApi({ baseUrl: 'http://localhost:4000', now: w.clock.now, seed: dumped })
    expect(again.dump()).toEqual(dumped)
    expect((await call(again, w.tokens.ada, 'GET', `/v1/integrations/my-app/installations/${installation.id}`)).body.spaces).toBe(1)
  })
})
