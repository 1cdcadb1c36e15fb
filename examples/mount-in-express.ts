import express from 'express'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createDocsApi, createOpenApiDocument, type DocsApi } from '../src/index.js'
import { jsonErrors, toNodeHandler } from '../src/node.js'
import { seedDemo } from './demo-data.js'

/**
 * The API mounted in an Express app under `/api`, beside the app's own routes and after its
 * `express.json()`. `toNodeHandler` routes what follows the mount path (Express strips `/api` from
 * `req.url`; the API still sees the full URL), and takes the body express.json() already parsed.
 * `baseUrl` carries the prefix so that the URLs the API hands out point back under `/api`: the
 * `urls.location` of resources (`/api/v1/...`), a file's `downloadURL` (`/api/files/...`), a
 * change request's PDF URL (`/api/pdf/...`); `app.use('/api', ...)` hands the API all of them.
 * (`createDocsApi({ basePath: '/api', ... })` works the same here.)
 * `jsonErrors()` answers what express.json() refuses under /api (malformed JSON: 400, past its
 * limit: 413) with the API's JSON error body instead of Express's HTML page.
 * Run it with `npx tsx examples/mount-in-express.ts` (PORT, default 4000).
 */
export function createExpressApp(api: DocsApi, baseUrl: string) {
  const app = express()
  // The app parses JSON for its own routes; the API reads req.body instead of the spent stream.
  app.use(express.json())
  app.get('/health', (_req, res) => {
    res.json({ ok: true })
  })
  app.post('/echo', (req, res) => {
    res.json({ received: req.body })
  })
  app.get('/api/openapi.json', (_req, res) => {
    res.json(createOpenApiDocument(api.operations, { baseUrl }))
  })
  // Everything under /api: /api/v1/..., /api/files/..., /api/pdf/...
  app.use('/api', toNodeHandler(api))
  // express.json() failed before the API ran (malformed JSON, too large): the API's error shape.
  app.use('/api', jsonErrors())
  return app
}

/** An API and an Express app around it, seeded with the demo data. */
export async function createExpressDemo(origin = 'http://localhost:4000') {
  const baseUrl = `${origin}/api`
  const api = createDocsApi({ baseUrl })
  const demo = await seedDemo(api)
  return { app: createExpressApp(api, baseUrl), api, demo }
}

/** The demo app listening on `port` (0 picks a free one), with its real URL in `urls.location`. */
export async function startExpressDemo(options: { port?: number; host?: string } = {}) {
  const host = options.host ?? '127.0.0.1'
  // Listen first: the base URL (in every `urls.location`) needs the real port.
  const server = createServer()
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(options.port ?? 4000, host, () => done())
  })
  const url = `http://localhost:${(server.address() as AddressInfo).port}`
  const { app, api, demo } = await createExpressDemo(url)
  server.on('request', app)
  return {
    url,
    api,
    demo,
    close: () =>
      new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()))
        server.closeAllConnections()
      }),
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
if (isMain) {
  const running = await startExpressDemo({ port: Number(process.env.PORT ?? 4000) })
  console.log(`Express app on ${running.url}; the API is under /api`)
  console.log(`  curl -H "Authorization: Bearer ${running.demo.adminToken}" ${running.url}/api/v1/orgs`)
  const stop = () => void running.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
