import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'

/**
 * The control plane (`/_admin/`) from another process: a test suite that talks to a served
 * `docs-content-api serve` with plain `fetch`, using only what the banner prints (the URL and the
 * admin token). It resets the API, seeds its own state, makes the next request fail, checks that
 * the code under test retried, and reads the journal to see what that code sent.
 *
 *   npx docs-content-api serve --admin-api-token my-admin-token-123456 --journal
 *   DOCS_URL=http://localhost:4000 DOCS_CONTENT_API_ADMIN_TOKEN=my-admin-token-123456 npx tsx examples/admin-over-http.ts
 */

/** The state the test starts from: one admin, her token, one organization (rows by collection, defaults filled in). */
const STATE = {
  users: [{ id: 'ada', displayName: 'Ada' }],
  tokens: [{ id: 'gb_api_example_ada_token', user: 'ada' }],
  organizations: [{ id: 'acme', title: 'Acme' }],
  members: [{ organization: 'acme', user: 'ada', role: 'admin' }],
}
const USER_TOKEN = 'gb_api_example_ada_token'

/** The code under test: lists the caller's organizations, trying again once on a 5xx. */
async function listOrganizationTitles(url: string): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${url}/v1/orgs`, { headers: { authorization: `Bearer ${USER_TOKEN}` } })
    if (res.status >= 500 && attempt < 2) {
      await res.body?.cancel()
      continue
    }
    if (!res.ok) throw new Error(`GET /v1/orgs: ${res.status}`)
    return ((await res.json()) as { items: Array<{ title: string }> }).items.map((o) => o.title)
  }
}

export async function runAdminOverHttpExample(url: string, adminToken: string, log: (line: string) => void = console.log) {
  /** A call to the control plane: JSON in, JSON out, the admin token as bearer. */
  const admin = async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/_admin${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} /_admin${path}: ${res.status} ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }

  // 1. A clean start: the state the server started with, no journal, no faults.
  await admin('POST', '/reset')
  // 2. The test's own state, replacing the whole state (a refused document changes nothing).
  const loaded = await admin<{ loaded: Record<string, number> }>('PUT', '/state', STATE)
  log(`seeded: ${JSON.stringify(loaded.loaded)}`)
  await admin('POST', '/snapshots', { name: 'seeded' })
  // 3. The next list of organizations fails once with a 503.
  const fault = await admin<{ id: string }>('POST', '/faults', { operationId: 'listOrganizationsForAuthenticatedUser', status: 503, times: 1 })
  log(`fault ${fault.id}: the next GET /v1/orgs answers 503`)
  // 4. The code under test, which should retry.
  const titles = await listOrganizationTitles(url)
  log(`listed: ${titles.join(', ')}`)
  // 5. What it sent, from the journal.
  const journal = await admin<{ items: Array<{ status: number; fault: boolean }> }>('GET', '/journal?operationId=listOrganizationsForAuthenticatedUser')
  const statuses = journal.items.map((e) => `${e.status}${e.fault ? ' (fault)' : ''}`)
  log(`journal: ${statuses.join(', ')}`)
  // 6. Back to the seeded state for the next test.
  await admin('POST', '/snapshots/seeded/restore')
  const health = await admin<{ faults: number }>('GET', '/health')
  return { loaded: loaded.loaded, titles, statuses, faultsLeft: health.faults }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const url = process.env.DOCS_URL ?? 'http://localhost:4000'
  const token = process.env.DOCS_CONTENT_API_ADMIN_TOKEN
  if (!token) throw new Error('Set DOCS_CONTENT_API_ADMIN_TOKEN to the admin token the server printed')
  await runAdminOverHttpExample(url, token)
}
