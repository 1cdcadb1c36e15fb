import { GitBookAPIError } from '@gitbook/api'
import { describe, expect, it } from 'vitest'
import { createDocsApi } from '../../src/index.js'
import { BASE, call, createWorld } from '../helpers.js'

describe('toolkit: api.faults', () => {
  it('answers the next matching requests with the status and the usual error body, then lets them through', async () => {
    const w = await createWorld()
    const fault = w.api.faults.add({ operationId: 'getOrganizationById', status: 503, times: 2, message: 'Maintenance' })
    for (let i = 0; i < 2; i++) {
      const res = await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)
      expect(res.status).toBe(503)
      expect(res.body).toEqual({ error: { code: 503, message: 'Maintenance' } })
      expect(res.headers.get('retry-after')).toBe('1')
    }
    expect(fault.hits).toBe(2)
    expect(fault.spent).toBe(true)
    expect(w.api.faults.list()).toEqual([])
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)).status).toBe(200)
    expect(w.api.journal.find({ operationId: 'getOrganizationById' }).map((e) => [e.status, e.fault])).toEqual([
      [503, true],
      [503, true],
      [200, false],
    ])
  })

  it('acts before anything else: an error fault on a write changes nothing, even without a token', async () => {
    const w = await createWorld()
    w.api.faults.add({ path: '/v1/orgs/{organizationId}', method: 'PATCH', status: 500 })
    const res = await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'Changed' })
    expect(res.body).toEqual({ error: { code: 500, message: 'Injected fault: 500' } })
    expect((await call(w.api, undefined, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'Changed' })).status).toBe(500)
    expect(w.api.store.read((tx) => tx.get('organizations', w.org.id))!.title).toBe('Acme')
    // GET on the same path is not matched (method), and other paths are not either.
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)).status).toBe(200)
    w.api.faults.clear()
    expect((await call(w.api, w.tokens.ada, 'PATCH', `/v1/orgs/${w.org.id}`, { title: 'Changed' })).status).toBe(200)
  })

  it('429 carries Retry-After; matching by exact path or RegExp; remove() stops a fault', async () => {
    const w = await createWorld()
    const limited = w.api.faults.add({ path: /^\/v1\/orgs$/, status: 429, retryAfter: 30 })
    const res = await call(w.api, w.tokens.ada, 'GET', '/v1/orgs')
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('30')
    limited.remove()
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/orgs')).status).toBe(200)
    w.api.faults.add({ path: `/v1/orgs/${w.org.id}/`, status: 502 })
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}`)).status).toBe(502)
    expect((await call(w.api, w.tokens.ada, 'GET', `/v1/orgs/${w.org.id}/members`)).status).toBe(200)
  })

  it('delays: with a status the error comes after the delay; without one the request then runs as usual', async () => {
    const w = await createWorld()
    w.api.faults.add({ operationId: 'getAuthenticatedUser', delayMs: 60, times: 1 })
    let started = performance.now()
    const slow = await call(w.api, w.tokens.ada, 'GET', '/v1/user')
    expect(performance.now() - started).toBeGreaterThanOrEqual(55)
    expect(slow.status).toBe(200)
    expect(slow.body.id).toBe(w.users.ada.id)
    expect(w.api.journal.last()!.fault).toBe(true)
    w.api.faults.add({ operationId: 'getAuthenticatedUser', delayMs: 40, status: 504, times: 1 })
    started = performance.now()
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/user')).status).toBe(504)
    expect(performance.now() - started).toBeGreaterThanOrEqual(35)
    started = performance.now()
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/user')).status).toBe(200)
  })

  it('probability draws from the random option, so a seeded run is repeatable', async () => {
    const draws = [0.9, 0.1, 0.6, 0.4]
    let i = 0
    const api = createDocsApi({ baseUrl: BASE, random: () => draws[i++ % draws.length]! })
    api.faults.add({ status: 503, probability: 0.5 })
    const statuses = []
    for (let n = 0; n < 4; n++) statuses.push((await api.fetch(new Request(`${BASE}/v1/orgs`))).status)
    expect(statuses).toEqual([401, 503, 401, 503])
  })

  it('an official operation this API does not implement can be faulted by its operationId', async () => {
    const w = await createWorld()
    w.api.faults.add({ operationId: 'listPages', status: 429 })
    expect((await call(w.api, w.tokens.ada, 'GET', '/v1/spaces/s/content/pages')).status).toBe(429)
  })

  it('reaches @gitbook/api as a GitBookAPIError with the status: code under test sees a real failure', async () => {
    const w = await createWorld()
    w.api.faults.add({ operationId: 'listOrganizationsForAuthenticatedUser', status: 503, times: 1 })
    const gb = w.client(w.tokens.ada)
    const error = await gb.orgs.listOrganizationsForAuthenticatedUser().then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(GitBookAPIError)
    expect((error as GitBookAPIError).code).toBe(503)
    expect((await gb.orgs.listOrganizationsForAuthenticatedUser()).data.count).toBe(1)
  })

  it('rejects a fault that would do nothing or cannot be answered', () => {
    const api = createDocsApi()
    expect(() => api.faults.add({ operationId: 'x' })).toThrow('give a status to answer, a delayMs to wait, or both')
    expect(() => api.faults.add({ status: 200 })).toThrow('status must be an error status (400..599)')
    expect(() => api.faults.add({ status: 500, times: 0 })).toThrow('times must be at least 1')
    expect(() => api.faults.add({ status: 500, probability: 2 })).toThrow('probability must be between 0 and 1')
    expect(() => api.faults.add({ delayMs: -1 })).toThrow('delayMs must be a finite number >= 0')
    expect(api.faults.list()).toEqual([])
  })
})
