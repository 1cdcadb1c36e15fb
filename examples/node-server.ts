import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createDocsApi, createOpenApiDocument, type DocsApi } from '../src/index.js'
import { toNodeHandler } from '../src/node.js'
import { seedDemo, type DemoData } from './demo-data.js'

/**
 * The API in a plain Node `http` server, beside a route of the app's own (`GET /openapi.json`),
 * seeded with the demo data: `toNodeHandler` (from `docs-content-api/node`) turns the API into a
 * request listener. `npm start` runs the `docs-content-api serve` command, which does the same.
 * Run it with `npx tsx examples/node-server.ts` (PORT, HOST).
 */

export interface StartOptions {
  /** 0 picks a free port. @default 4000 */
  port?: number
  /** Interface to listen on; loopback by default, as the demo tokens are printed. @default '127.0.0.1' */
  host?: string
  /** Use this string as the admin's token instead of a random one. */
  adminToken?: string
}

export interface RunningServer {
  /** Base URL, e.g. http://localhost:4000 */
  url: string
  /** Token of the demo admin, for `Authorization: Bearer <token>`. */
  token: string
  demo: DemoData
  api: DocsApi
  close(): Promise<void>
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  let handle: Parameters<typeof createServer>[1] = (_req, res) => res.writeHead(503).end('starting')
  const server = createServer((req, res) => handle!(req, res))
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(options.port ?? 4000, host, () => done())
  })
  // The base URL (in every `urls.location`) needs the real port, known only once listening.
  const url = `http://localhost:${(server.address() as AddressInfo).port}`
  const api = createDocsApi({ baseUrl: url })
  const demo = await seedDemo(api, { adminToken: options.adminToken })
  const listener = toNodeHandler(api)
  let openapi: string | undefined
  handle = (req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/openapi.json') {
      openapi ??= JSON.stringify(createOpenApiDocument(api.operations, { baseUrl: url }), null, 2)
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(openapi)
      return
    }
    listener(req, res)
  }
  return {
    url,
    token: demo.adminToken,
    demo,
    api,
    close: () =>
      new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()))
        // Keep-alive connections would hold close() open until they time out.
        server.closeAllConnections()
      }),
  }
}

function printBanner(running: RunningServer): void {
  const { url, token, demo } = running
  const lines = [
    `docs-content-api demo server on ${url} (in-memory; data is lost on exit)`,
    '',
    `  organization  ${demo.organization.title}  ${demo.organization.id}`,
    `  collection    ${demo.collection.title}  ${demo.collection.id}`,
    ...demo.spaces.map((s) => `  space         ${s.title} (${s.visibility})  ${s.id}`),
    `  site          ${demo.site.title} (published)  ${demo.site.id}`,
    '',
    `  admin token   ${token}   (Ada Lovelace, admin)`,
    `  reader token  ${demo.readerToken}   (Rita Reader, role read)`,
    '',
    'Try:',
    `  curl -H "Authorization: Bearer ${token}" ${url}/v1/orgs`,
    `  curl -H "Authorization: Bearer ${token}" ${url}/v1/orgs/${demo.organization.id}/spaces`,
    `  curl ${url}/v1/orgs/${demo.organization.id}/sites/${demo.site.id}/published`,
    `  curl ${url}/openapi.json`,
    '',
    'Ctrl+C to stop.',
  ]
  console.log(lines.join('\n'))
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href
if (isMain) {
  const running = await startServer({
    port: process.env.PORT ? Number(process.env.PORT) : 4000,
    host: process.env.HOST,
    adminToken: process.env.DEMO_TOKEN,
  })
  printBanner(running)
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: closing the server`)
    running.close().then(
      () => process.exit(0),
      (error) => {
        console.error(error)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}
