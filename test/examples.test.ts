import { describe, expect, it } from 'vitest'
import { runAdminOverHttpExample } from '../examples/admin-over-http.js'
import { serve } from '../src/cli/serve.js'
import { startExpressDemo } from '../examples/mount-in-express.js'
import { createHonoDemo } from '../examples/mount-in-hono.js'
import { API_ORIGIN, mockDocsApi, runMswExample } from '../examples/msw.js'
import { startServer } from '../examples/node-server.js'
import { runOfficialClientExample } from '../examples/with-official-client.js'
import { rawRequest } from './node/helpers.js'

// The examples run here so that they cannot rot: each exports its logic as a function.

describe('examples', () => {
  it('with-official-client: @gitbook/api over api.fetch reads, renames, and gets the API errors', async () => {
    const lines: string[] = []
    const out = await runOfficialClientExample((line) => lines.push(line))
    expect(out.me.displayName).toBe('Ada Lovelace')
    expect(out.organizations).toEqual(['Acme Docs'])
    expect(out.spaces).toEqual({ titles: ['Getting started', 'API reference'], count: 3, hasNext: true })
    expect(out.space).toMatchObject({ title: 'Getting started', visibility: 'in-collection', permissions: { edit: true } })
    expect(out.renamed).toBe('Acme Documentation')
    expect(out.storedTitle).toBe('Acme Documentation')
    expect(out.notFound).toEqual({ code: 404, message: 'Organization not found' })
    expect(lines).toHaveLength(6)
    expect(lines[0]).toMatch(/^signed in as Ada Lovelace/)
  })

  it('msw: the global fetch reaches the API through msw, and is restored after', async () => {
    const realFetch = globalThis.fetch
    const out = await runMswExample(() => {})
    expect(out.orgs.count).toBe(1)
    expect(out.orgs.items[0]!.title).toBe('Acme Docs')
    expect(out.patchStatus).toBe(200)
    expect(out.patched.title).toBe('Acme (mocked)')
    expect(out.anonymousStatus).toBe(401)
    expect(out.anonymousBody).toEqual({ error: { code: 401, message: expect.stringContaining('Bearer') } })
    expect(globalThis.fetch).toBe(realFetch)
  })

  it('node-server: serves the seeded API and /openapi.json over real HTTP, then closes', async () => {
    const server = await startServer({ port: 0 })
    try {
      expect(server.url).toMatch(/^http:\/\/localhost:\d+$/)
      const auth = { authorization: `Bearer ${server.token}` }
      const orgs = await fetch(`${server.url}/v1/orgs`, { headers: auth })
      expect(orgs.status).toBe(200)
      const body = (await orgs.json()) as { items: Array<{ id: string; urls: { location: string } }>; count: number }
      expect(body.count).toBe(1)
      expect(body.items[0]!.id).toBe(server.demo.organization.id)
      // Resource URLs carry the real (random) port.
      expect(body.items[0]!.urls.location).toBe(`${server.url}/v1/orgs/${server.demo.organization.id}`)

      const patched = await fetch(`${server.url}/v1/orgs/${server.demo.organization.id}`, {
        method: 'PATCH',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Renamed over HTTP' }),
      })
      expect(patched.status).toBe(200)
      expect(server.api.store.read((tx) => tx.get('organizations', server.demo.organization.id))?.title).toBe('Renamed over HTTP')

      const reader = await fetch(`${server.url}/v1/orgs/${server.demo.organization.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${server.demo.readerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Nope' }),
      })
      expect(reader.status).toBe(403)
      expect(((await reader.json()) as { error: { code: number } }).error.code).toBe(403)

      const anonymous = await fetch(`${server.url}/v1/orgs`)
      expect(anonymous.status).toBe(401)
      await anonymous.body?.cancel()

      const openapi = await fetch(`${server.url}/openapi.json`)
      expect(openapi.status).toBe(200)
      const doc = (await openapi.json()) as { openapi: string; servers: Array<{ url: string }>; paths: Record<string, unknown> }
      expect(doc.openapi).toBe('3.1.0')
      expect(doc.servers[0]!.url).toBe(server.url)
      expect(Object.keys(doc.paths)).toContain('/v1/orgs')
      // The seeded spaces, through the list the banner's second curl line shows.
      const spaces = await fetch(`${server.url}/v1/orgs/${server.demo.organization.id}/spaces`, { headers: auth })
      const list = (await spaces.json()) as { items: Array<{ title: string; visibility: string }>; count: number }
      expect(list.count).toBe(3)
      expect(list.items.map((s) => `${s.title}:${s.visibility}`)).toEqual([
        'Getting started:in-collection',
        'API reference:public',
        'Internal handbook:private',
      ])
    } finally {
      await server.close()
    }
    await expect(fetch(`${server.url}/v1/orgs`)).rejects.toThrow()
  })

  it('node-server: a fixed admin token can be given (DEMO_TOKEN)', async () => {
    const server = await startServer({ port: 0, adminToken: 'gb_api_fixed_for_test' })
    try {
      expect(server.token).toBe('gb_api_fixed_for_test')
      const me = await fetch(`${server.url}/v1/user`, { headers: { authorization: 'Bearer gb_api_fixed_for_test' } })
      expect(((await me.json()) as { displayName: string }).displayName).toBe('Ada Lovelace')
    } finally {
      await server.close()
    }
  })

  it('admin-over-http: another client resets, seeds, faults and reads the journal of a served API', async () => {
    const server = await serve({ port: 0, adminApiToken: 'example-admin-token-0123', journal: true })
    try {
      const lines: string[] = []
      const out = await runAdminOverHttpExample(server.url, 'example-admin-token-0123', (line) => lines.push(line))
      expect(out.loaded).toMatchObject({ users: 1, tokens: 1, organizations: 1, members: 1 })
      expect(out.titles).toEqual(['Acme'])
      expect(out.statuses).toEqual(['503 (fault)', '200'])
      expect(out.faultsLeft).toBe(0)
      expect(lines).toHaveLength(4)
      // The demo data the server started with is gone: the example's state replaced it.
      expect(server.api.store.read((tx) => tx.all('organizations').map((o) => o.title))).toEqual(['Acme'])
    } finally {
      await server.close()
    }
  })

  it('mount-in-hono: the API under /api beside the app routes, with URLs under /api', async () => {
    const { app, demo } = await createHonoDemo('http://localhost:4000')
    const auth = { authorization: `Bearer ${demo.adminToken}` }
    const orgs = await app.request('/api/v1/orgs', { headers: auth })
    expect(orgs.status).toBe(200)
    const body = (await orgs.json()) as { items: Array<{ urls: { location: string } }> }
    expect(body.items[0]!.urls.location).toBe(`http://localhost:4000/api/v1/orgs/${demo.organization.id}`)
    expect(await (await app.request('/health')).json()).toEqual({ ok: true })
    expect((await app.request('/v1/orgs', { headers: auth })).status).toBe(404)
    const doc = (await (await app.request('/api/openapi.json')).json()) as { servers: Array<{ url: string }> }
    expect(doc.servers[0]!.url).toBe('http://localhost:4000/api')
  })

  it('mount-in-express: the API under /api after express.json(), over real HTTP, with the POST body honoured', async () => {
    const running = await startExpressDemo({ port: 0 })
    try {
      const auth = { authorization: `Bearer ${running.demo.adminToken}` }
      const orgId = running.demo.organization.id
      const orgs = await rawRequest(`${running.url}/api/v1/orgs`, { headers: auth })
      expect(orgs.status).toBe(200)
      expect(JSON.parse(orgs.body).items[0].urls.location).toBe(`${running.url}/api/v1/orgs/${orgId}`)

      // express.json() has read the stream already: the API takes the parsed body.
      const created = await rawRequest(`${running.url}/api/v1/orgs/${orgId}/spaces`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Made through Express' }),
      })
      expect(created.status).toBe(201)
      const space = JSON.parse(created.body)
      expect(space.title).toBe('Made through Express')
      expect(created.headers.location).toBe(`${running.url}/api/v1/spaces/${space.id}`)
      expect(running.api.store.read((tx) => tx.get('spaces', space.id))?.title).toBe('Made through Express')

      // The app's own routes and parser still work beside it.
      expect(JSON.parse((await rawRequest(`${running.url}/health`)).body)).toEqual({ ok: true })
      const echo = await rawRequest(`${running.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })
      expect(JSON.parse(echo.body)).toEqual({ received: { a: 1 } })
      const doc = JSON.parse((await rawRequest(`${running.url}/api/openapi.json`)).body) as { servers: Array<{ url: string }> }
      expect(doc.servers[0]!.url).toBe(`${running.url}/api`)
      // Outside /api, Express answers (its own 404), not the API.
      const outside = await rawRequest(`${running.url}/v1/orgs`, { headers: auth })
      expect(outside.status).toBe(404)
      expect(outside.headers['content-type']).toMatch(/^text\/html/)
    } finally {
      await running.close()
    }
  })
})

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

/**
 * Through `send` (the framework's own way in), as a client would: a change request in the first
 * demo space with a file and a page, then the file's `downloadURL` and the change request's PDF
 * URL as the API hands them out, then both URLs requested with no token (they are capabilities).
 */
async function downloadsThrough(send: (url: string, init?: RequestInit) => Promise<Response>, v1: string, token: string, space: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const json = async (res: Response) => {
    if (!res.ok) throw new Error(`${res.url || 'request'} answered ${res.status}: ${await res.text()}`)
    return res.json() as Promise<Record<string, any>>
  }
  const cr = await json(await send(`${v1}/spaces/${space}/change-requests`, { method: 'POST', headers, body: JSON.stringify({ subject: 'Downloads' }) }))
  const edited = await json(
    await send(`${v1}/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        changes: [
          { operation: 'insert_files', files: [{ name: 'dot.png', contentType: 'image/png', base64: PNG }] },
          { operation: 'insert_page', title: 'Printed', document: { markdown: 'Hello PDF' } },
        ],
      }),
    }),
  )
  const fileUrl: string = edited.insertedFiles[0].downloadURL
  const pdfUrl: string = (await json(await send(`${v1}/spaces/${space}/change-requests/${cr.id}/pdf`, { headers }))).url
  const file = await send(fileUrl)
  const pdf = await send(pdfUrl)
  return {
    fileUrl,
    pdfUrl,
    file: { status: file.status, type: file.headers.get('content-type'), bytes: new Uint8Array(await file.arrayBuffer()) },
    pdf: { status: pdf.status, type: pdf.headers.get('content-type'), start: new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5)) },
  }
}

const PNG_BYTES = Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0))

// The recipes route the API's whole prefix, not only /v1: a file's download and a PDF are served
// at the URLs the API hands out (under the app's prefix, by baseUrl), through the framework itself.
describe('examples: the URLs the API hands out (downloads, PDFs) are served through the recipe', () => {
  it("mount-in-hono: /api/files/... and /api/pdf/... through the Hono app's fetch", async () => {
    const origin = 'http://localhost:4000'
    const { app, demo } = await createHonoDemo(origin)
    const send = async (url: string, init?: RequestInit) => app.fetch(new Request(url, init))
    const out = await downloadsThrough(send, `${origin}/api/v1`, demo.adminToken, demo.spaces[0]!.id)
    expect(out.fileUrl).toMatch(new RegExp(`^${origin}/api/files/[^/]+/dot\\.png$`))
    expect(out.pdfUrl).toMatch(new RegExp(`^${origin}/api/pdf/[^/]+$`))
    expect(out.file).toEqual({ status: 200, type: 'image/png', bytes: PNG_BYTES })
    expect(out.pdf).toEqual({ status: 200, type: 'application/pdf', start: '%PDF-' })
  })

  it('msw: the global fetch reaches /files/... and /pdf/... through msw', async () => {
    const { demo, close } = await mockDocsApi()
    try {
      const out = await downloadsThrough((url, init) => fetch(url, init), `${API_ORIGIN}/v1`, demo.adminToken, demo.spaces[0]!.id)
      expect(out.fileUrl).toMatch(new RegExp(`^${API_ORIGIN}/files/[^/]+/dot\\.png$`))
      expect(out.pdfUrl).toMatch(new RegExp(`^${API_ORIGIN}/pdf/[^/]+$`))
      expect(out.file).toEqual({ status: 200, type: 'image/png', bytes: PNG_BYTES })
      expect(out.pdf).toEqual({ status: 200, type: 'application/pdf', start: '%PDF-' })
    } finally {
      close()
    }
  })

  it('mount-in-express: /api/files/... and /api/pdf/... over real HTTP', async () => {
    const running = await startExpressDemo({ port: 0 })
    try {
      const send = (url: string, init?: RequestInit) => fetch(url, init)
      const out = await downloadsThrough(send, `${running.url}/api/v1`, running.demo.adminToken, running.demo.spaces[0]!.id)
      expect(out.fileUrl).toMatch(new RegExp(`^${running.url}/api/files/[^/]+/dot\\.png$`))
      expect(out.pdfUrl).toMatch(new RegExp(`^${running.url}/api/pdf/[^/]+$`))
      expect(out.file).toEqual({ status: 200, type: 'image/png', bytes: PNG_BYTES })
      expect(out.pdf).toEqual({ status: 200, type: 'application/pdf', start: '%PDF-' })
    } finally {
      await running.close()
    }
  })

  it("mount-in-express: what express.json() refuses under /api gets the API's JSON error (jsonErrors), the app's routes keep Express's", async () => {
    const running = await startExpressDemo({ port: 0 })
    try {
      const auth = { authorization: `Bearer ${running.demo.adminToken}`, 'content-type': 'application/json' }
      const spaces = `${running.url}/api/v1/orgs/${running.demo.organization.id}/spaces`
      const malformed = await rawRequest(spaces, { method: 'POST', headers: auth, body: '{"title": "Broken' })
      expect(malformed.status).toBe(400)
      expect(malformed.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(JSON.parse(malformed.body)).toEqual({
        error: { code: 400, message: expect.stringMatching(/^Invalid request: body is not valid JSON \(.+\)$/) },
      })
      // express.json()'s default limit is 100 kB.
      const large = await rawRequest(spaces, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'x'.repeat(200_000) }) })
      expect(large.status).toBe(413)
      expect(large.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(JSON.parse(large.body)).toEqual({ error: { code: 413, message: 'Request body is larger than 102400 bytes (200012 bytes sent)' } })
      // The app's own routes keep Express's error page.
      const echo = await rawRequest(`${running.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' })
      expect(echo.status).toBe(400)
      expect(echo.headers['content-type']).toMatch(/^text\/html/)
    } finally {
      await running.close()
    }
  })
})
