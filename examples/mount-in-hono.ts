import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createDocsApi, createOpenApiDocument, type DocsApi } from '../src/index.js'
import { seedDemo } from './demo-data.js'

/**
 * The API mounted in a Hono app under `/api`, beside the app's own routes. `basePath: '/api'`
 * makes `api.fetch` strip the prefix before routing; `baseUrl` carries it so that the URLs the
 * API hands out point back under `/api`: the `urls.location` of resources (`/api/v1/...`), and
 * also a file's `downloadURL` (`/api/files/...`) and a change request's PDF URL (`/api/pdf/...`).
 * So the whole prefix goes to the API, not only `/api/v1/*`.
 * Run it with `npx tsx examples/mount-in-hono.ts` (PORT, default 4000).
 */
export function createHonoApp(api: DocsApi, baseUrl: string) {
  const app = new Hono()
  app.get('/health', (c) => c.json({ ok: true }))
  app.get('/api/openapi.json', (c) => c.json(createOpenApiDocument(api.operations, { baseUrl })))
  // The whole prefix (/api/v1/..., /api/files/..., /api/pdf/...), after the app's own /api routes.
  // c.req.raw is the standard Request: the API takes it as it is.
  app.all('/api/*', (c) => api.fetch(c.req.raw))
  return app
}

/** An API and a Hono app around it, seeded with the demo data. */
export async function createHonoDemo(origin = 'http://localhost:4000') {
  const baseUrl = `${origin}/api`
  const api = createDocsApi({ basePath: '/api', baseUrl })
  const demo = await seedDemo(api)
  return { app: createHonoApp(api, baseUrl), api, demo }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
if (isMain) {
  const port = Number(process.env.PORT ?? 4000)
  const { app, demo } = await createHonoDemo(`http://localhost:${port}`)
  const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1', overrideGlobalObjects: false })
  console.log(`Hono app on http://localhost:${port}; the API is under /api`)
  console.log(`  curl -H "Authorization: Bearer ${demo.adminToken}" http://localhost:${port}/api/v1/orgs`)
  const stop = () => server.close(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
