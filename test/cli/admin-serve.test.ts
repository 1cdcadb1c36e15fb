import { afterEach, describe, expect, it } from 'vitest'
import { runCli, type CliIo } from '../../src/cli/main.js'
import type { RunningServer } from '../../src/cli/serve.js'

// The control plane of `docs-content-api serve` over real HTTP: the token from the banner, the
// flag and the environment variable. What each route does: test/http/admin.test.ts.

const running: RunningServer[] = []
afterEach(async () => {
  for (const r of running.splice(0)) await r.close()
})

async function serve(args: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { out: (t) => void out.push(t), err: (t) => void err.push(t), env }
  const result = await runCli(['serve', '--port', '0', ...args], io)
  if (typeof result === 'number') return { code: result, err: err.join('') }
  running.push(result)
  return { server: result, banner: out.join('') }
}

describe('cli: the control plane of serve', () => {
  it('is on with a random admin token printed in the banner; the banner\u2019s reset line resets', async () => {
    const { server, banner } = await serve([])
    const m = /Admin API:\s+(\S+)\/_admin \(Authorization: Bearer (\S+)\)/.exec(banner!)
    expect(m, banner).not.toBeNull()
    const [, url, token] = m!
    expect(url).toBe(server!.url)
    expect(token).toMatch(/^gb_admin_[\w-]{32}$/)
    expect(token).toBe(server!.adminApiToken)
    const userToken = /token {2}(gb_api_\S+) {3}\(Ada Lovelace, admin\)/.exec(banner!)![1]!
    const admin = { authorization: `Bearer ${token}` }

    // A change through the API, then the banner's curl line for reset.
    const orgId = server!.api.store.read((tx) => tx.all('organizations'))[0]!.id
    const patched = await fetch(`${url}/v1/orgs/${orgId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Changed over HTTP' }),
    })
    expect(patched.status).toBe(200)
    const resetLine = banner!.split('\n').find((l) => l.includes('/_admin/reset'))!
    expect(resetLine.trim()).toBe(`curl -X POST -H "Authorization: Bearer ${token}" ${url}/_admin/reset`)
    const reset = await fetch(`${url}/_admin/reset`, { method: 'POST', headers: admin })
    expect(reset.status).toBe(200)
    const org = await fetch(`${url}/v1/orgs/${orgId}`, { headers: { authorization: `Bearer ${userToken}` } })
    expect(((await org.json()) as { title: string }).title).toBe('Acme Docs')

    // No token, a user's token: 401.
    expect((await fetch(`${url}/_admin/health`)).status).toBe(401)
    const asUser = await fetch(`${url}/_admin/journal`, { headers: { authorization: `Bearer ${userToken}` } })
    expect(asUser.status).toBe(401)
    expect(((await asUser.json()) as { error: { message: string } }).error.message).toMatch(/not the admin token/i)

    // The served OpenAPI document lists the control plane.
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { tags: string[] }>> }
    expect(doc.paths['/_admin/reset']!.post!.tags).toEqual(['Control plane (docs-content-api)'])
    expect(doc.paths['/v1/orgs']).toBeDefined()
  })

  it('a fault added over HTTP fails the next request; the journal shows it; serve\u2019s clock is the real one (409)', async () => {
    const { server } = await serve(['--admin-api-token', 'fixed-admin-token-for-tests', '--journal'])
    const admin = { authorization: 'Bearer fixed-admin-token-for-tests', 'content-type': 'application/json' }
    const fault = await fetch(`${server!.url}/_admin/faults`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ operationId: 'listOrganizationsForAuthenticatedUser', status: 500, times: 1 }),
    })
    expect(fault.status).toBe(201)
    const failed = await fetch(`${server!.url}/v1/orgs`)
    expect(failed.status).toBe(500)
    await failed.body?.cancel()
    const journal = (await (await fetch(`${server!.url}/_admin/journal?status=500`, { headers: admin })).json()) as {
      items: Array<{ fault: boolean; path: string }>
    }
    expect(journal.items).toEqual([expect.objectContaining({ fault: true, path: '/v1/orgs' })])
    const clock = await fetch(`${server!.url}/_admin/clock/advance`, { method: 'POST', headers: admin, body: JSON.stringify({ ms: 1000 }) })
    expect(clock.status).toBe(409)
    await clock.body?.cancel()
  })

  it('without --journal the journal keeps nothing: /_admin/journal is a 409 saying how to turn it on; health says limit 0', async () => {
    const { server } = await serve(['--admin-api-token', 'fixed-admin-token-for-tests'])
    const admin = { authorization: 'Bearer fixed-admin-token-for-tests' }
    const orgs = await fetch(`${server!.url}/v1/orgs`)
    expect(orgs.status).toBe(401)
    await orgs.body?.cancel()
    expect(server!.api.journal.limit).toBe(0)
    expect(server!.api.journal.entries).toEqual([])
    const journal = await fetch(`${server!.url}/_admin/journal`, { headers: admin })
    expect(journal.status).toBe(409)
    expect(((await journal.json()) as { error: { message: string } }).error.message).toContain('--journal')
    const health = (await (await fetch(`${server!.url}/_admin/health`, { headers: admin })).json()) as { journal: { entries: number; limit: number } }
    expect(health.journal).toEqual({ entries: 0, limit: 0 })
    // Clearing a journal that keeps nothing is no conflict: a suite's cleanup works either way.
    const cleared = await fetch(`${server!.url}/_admin/journal`, { method: 'DELETE', headers: admin })
    expect(cleared.status).toBe(204)
  })

  it('takes the token from DOCS_CONTENT_API_ADMIN_TOKEN; --no-admin serves none; a short token is a usage error', async () => {
    const { server, banner } = await serve([], { DOCS_CONTENT_API_ADMIN_TOKEN: 'token-from-the-environment' })
    expect(banner).toContain('(Authorization: Bearer token-from-the-environment)')
    expect((await fetch(`${server!.url}/_admin/health`, { headers: { authorization: 'Bearer token-from-the-environment' } })).status).toBe(200)

    const off = await serve(['--no-admin'])
    expect(off.banner).not.toContain('Admin API')
    expect(off.server!.adminApiToken).toBeUndefined()
    const res = await fetch(`${off.server!.url}/_admin/health`)
    expect(res.status).toBe(404)
    await res.body?.cancel()
    const doc = (await (await fetch(`${off.server!.url}/openapi.json`)).json()) as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/_admin'))).toBe(false)

    const short = await serve(['--admin-api-token', 'short'])
    expect(short.code).toBe(2)
    expect(short.err).toContain('--admin-api-token: must be at least 16 characters')
  })

  it('--clock: the API\u2019s time stands at that date-time until /_admin/clock advances it; a bad date is a usage error', async () => {
    const { server, banner } = await serve(['--clock', '2030-05-01T10:00:00Z', '--admin-api-token', 'an-admin-token-of-the-test'])
    expect(banner).toContain('the clock stands at 2030-05-01T10:00:00.000Z')
    const admin = { authorization: 'Bearer an-admin-token-of-the-test', 'content-type': 'application/json' }
    const userToken = /token {2}(gb_api_\S+) {3}\(Ada Lovelace, admin\)/.exec(banner!)![1]!
    const orgId = server!.api.store.read((tx) => tx.all('organizations'))[0]!.id
    const create = async () => {
      const res = await fetch(`${server!.url}/v1/orgs/${orgId}/spaces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Clocked' }),
      })
      expect(res.status).toBe(201)
      return ((await res.json()) as { createdAt: string }).createdAt
    }
    expect(await create()).toBe('2030-05-01T10:00:00.000Z')
    const advanced = await fetch(`${server!.url}/_admin/clock/advance`, { method: 'POST', headers: admin, body: JSON.stringify({ duration: '1d' }) })
    expect(advanced.status).toBe(200)
    await advanced.body?.cancel()
    expect(await create()).toBe('2030-05-02T10:00:00.000Z')

    const bad = await serve(['--clock', 'yesterday'])
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('--clock yesterday: must be now or an ISO 8601 date-time')
  })
})
