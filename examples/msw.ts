import { http } from 'msw'
import { setupServer } from 'msw/node'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createDocsApi } from '../src/index.js'
import { seedDemo } from './demo-data.js'

/** Where the code under test believes the API is: `baseUrl`, and the origin msw answers for. */
export const API_ORIGIN = 'http://localhost:4000'

/**
 * The seeded API answering every request to `API_ORIGIN` through msw, until `close()`.
 * 'error': a request no handler covers fails loudly instead of reaching the network.
 */
export async function mockDocsApi() {
  const api = createDocsApi({ baseUrl: API_ORIGIN })
  const demo = await seedDemo(api)
  const server = setupServer(http.all(`${API_ORIGIN}/*`, ({ request }) => api.fetch(request)))
  server.listen({ onUnhandledRequest: 'error' })
  return { api, demo, close: () => server.close() }
}

/**
 * The API behind Mock Service Worker: code under test calls `fetch('http://localhost:4000/v1/...')`
 * as it would call the real service, and msw hands each request to `api.fetch`. Useful when the
 * code under test builds its own requests instead of taking a client or a fetch function.
 * The handler covers the whole origin of `baseUrl`, not only `/v1/*`: the API also serves the
 * URLs it hands out (a file's `downloadURL`, `/files/...`; a change request's PDF, `/pdf/...`).
 * Run it with `npx tsx examples/msw.ts`.
 */
export async function runMswExample(log: (line: string) => void = console.log) {
  const { demo, close } = await mockDocsApi()
  try {
    const headers = { authorization: `Bearer ${demo.adminToken}`, 'content-type': 'application/json' }
    const list = await fetch('http://localhost:4000/v1/orgs', { headers })
    const orgs = (await list.json()) as { items: Array<{ id: string; title: string }>; count: number }
    log(`GET /v1/orgs -> ${list.status}: ${orgs.items.map((o) => o.title).join(', ')}`)

    const patch = await fetch(`http://localhost:4000/v1/orgs/${demo.organization.id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ title: 'Acme (mocked)' }),
    })
    const patched = (await patch.json()) as { title: string }
    log(`PATCH /v1/orgs/{id} -> ${patch.status}: title "${patched.title}"`)

    const anonymous = await fetch('http://localhost:4000/v1/orgs')
    log(`GET /v1/orgs without a token -> ${anonymous.status}`)
    return { orgs, patchStatus: patch.status, patched, anonymousStatus: anonymous.status, anonymousBody: await anonymous.json() }
  } finally {
    close()
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
if (isMain) await runMswExample()
