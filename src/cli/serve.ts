import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createDocsApi, type DocsApi } from '../api.js'
import { createDemoState } from '../demo.js'
import { API_CORE } from '../http/api-core.js'
import type { ReadContext } from '../domains/context.js'
import { siteBaseUrl } from '../domains/sites/urls.js'
import { createGuardedFetch, type GuardedFetchOptions } from '../node/guarded-fetch.js'
import { toNodeHandler } from '../node/to-node-handler.js'
import { createWorkerOffload } from '../node/worker-offload.js'
import { compileSchemaChecks } from '../domains/openapi-specs/schema-check.js'
import { createOpenApiDocument } from '../openapi.js'
import { openDataDir } from '../sqlite/data-dir.js'
import type { StateDocument } from '../state/seed.js'

export interface ServeOptions {
  /** 0 picks a free port. @default 4000 */
  port?: number
  /** Interface to listen on; loopback by default, as tokens are printed. @default '127.0.0.1' */
  host?: string
  /** The state to serve; the demo data when left out. */
  seed?: StateDocument
  /** Answer cross-origin requests (browsers on other origins). @default false */
  cors?: boolean
  /** Base URL in resources' URLs. @default `http://localhost:<port>` */
  baseUrl?: string
  /** The demo admin's token (only with the demo data). */
  adminToken?: string
  /**
   * A data directory: the state is kept there (a SQLite file and the files' bytes, see
   * `openDataDir`) and found there again after a restart. The seed (or the demo data) goes in
   * only when the directory holds nothing yet. In memory when left out.
   */
  data?: string
  /**
   * Let the API's outgoing requests (files by URL, OpenAPI spec URLs, Git Sync) reach private,
   * loopback and link-local addresses: a file server or Git remote on your own machine or network.
   * Off, every host is resolved and refused when any of its addresses is not public.
   * @default false
   */
  allowPrivateNetwork?: boolean
  /** How host names are resolved for that check (a stub in tests). @default the system's resolver (dns.lookup) */
  lookup?: GuardedFetchOptions['lookup']
}

export interface RunningServer {
  /** Where it listens, e.g. http://localhost:4000 */
  url: string
  api: DocsApi
  /** The data directory, absolute (with `data`). */
  dataDir?: string
  /** What to print: ids, tokens with whose they are, curl lines. */
  banner(): string
  close(): Promise<void>
}

/** Thrown when a data directory already holds a state and a seed was given too. */
export class SeedOverDataError extends Error {}

/**
 * Serve the API over Node's http with `toNodeHandler`, plus `GET /openapi.json`. The state is the
 * seed (a state document), else the demo data; with `data`, what the data directory holds, or
 * the seed (the demo data) put in an empty one.
 */
export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  // Opened before listening: a directory another server holds is refused with the port untouched.
  const data = options.data === undefined ? undefined : openDataDir(options.data)
  if (data && !data.empty && options.seed) {
    data.close()
    throw new SeedOverDataError(`--seed: ${data.dir} already holds data (a seed goes into an empty data directory only)`)
  }
  let listener: Parameters<typeof createServer>[1] = (_req, res) => res.writeHead(503).end()
  const server: Server = createServer((req, res) => listener!(req, res))
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail)
      server.listen(options.port ?? 4000, host, () => done())
    })
  } catch (error) {
    data?.close()
    throw error
  }
  // Resource URLs carry the real port, known only once listening.
  const url = options.baseUrl?.replace(/\/+$/, '') ?? `http://localhost:${(server.address() as AddressInfo).port}`
  let api: DocsApi
  const demo = !options.seed && (!data || data.empty)
  /** The demo's visitor tokens, by visitor-auth site, for the banner. */
  const visitorTokens: Record<string, string> = {}
  // CPU-heavy work (large markdown documents...) on worker threads: no request holds the loop.
  const offload = createWorkerOffload()
  try {
    const demoState = data && !data.empty ? undefined : options.seed ? undefined : await createDemoState({ adminToken: options.adminToken })
    if (demoState) visitorTokens[demoState.demo.visitorAuthSite.id] = demoState.demo.visitorAuthSite.visitorToken
    const seed = data && !data.empty ? undefined : (options.seed ?? demoState!.state)
    // Outgoing requests go through the fetch that resolves names and checks every address (node/guarded-fetch.ts).
    const allowPrivateNetwork = options.allowPrivateNetwork ?? false
    const fetch = createGuardedFetch({ allowPrivateNetwork, ...(options.lookup && { lookup: options.lookup }) })
    api = createDocsApi({
      baseUrl: url,
      seed,
      cors: options.cors ?? false,
      fetch,
      allowPrivateNetwork,
      offload,
      ...(data && { store: data.store, blobs: data.blobs }),
    })
  } catch (error) {
    // A seed the API refuses: nothing is served, and the port is free again (and the directory empty).
    await new Promise((done) => server.close(done))
    await offload.close()
    data?.close()
    throw error
  }
  const handler = toNodeHandler(api)
  // Once per process, before the first request: no caller's spec waits on it (see schema-check.ts).
  await compileSchemaChecks()
  let openapi: string | undefined
  listener = (req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/openapi.json') {
      openapi ??= JSON.stringify(createOpenApiDocument(api.operations, { baseUrl: url }), null, 2)
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...(options.cors && { 'access-control-allow-origin': '*' }) }).end(openapi)
      return
    }
    handler(req, res)
  }
  return {
    url,
    api,
    ...(data && { dataDir: data.dir }),
    banner: () =>
      bannerOf(api, url, { demo, cors: options.cors ?? false, data: data?.dir, allowPrivateNetwork: options.allowPrivateNetwork ?? false, visitorTokens }),
    close: async () => {
      await new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()))
        // Keep-alive connections would hold close() open until they time out.
        server.closeAllConnections()
      })
      // Background work first (it writes through the store), then the workers and the file.
      await api.idle()
      await offload.close()
      data?.close()
    },
  }
}

/** Where the state lives, as the banner's first line says it. */
function whereData(how: { demo: boolean; data?: string }): string {
  if (how.data === undefined) return `${how.demo ? 'demo data, ' : ''}in memory: data is lost on exit`
  return `${how.demo ? 'demo data, ' : ''}data in ${how.data}: SQLite, kept across restarts`
}

/** What a person starting the server needs: what is there, the tokens to call it with, lines to try. */
export function bannerOf(
  api: DocsApi,
  url: string,
  how: { demo: boolean; cors: boolean; data?: string; allowPrivateNetwork?: boolean; visitorTokens?: Record<string, string> },
): string {
  const { urls } = api[API_CORE].runtime
  return api.store.read((tx) => {
    const orgs = tx.all('organizations')
    const lines = [
      `docs-content-api on ${url} (${whereData(how)}${how.cors ? '; CORS on' : ''}${how.allowPrivateNetwork ? '; outgoing requests may reach private addresses' : ''})`,
      '',
    ]
    for (const org of orgs) {
      lines.push(`  organization  ${org.title}  ${org.id}`)
      for (const { row: site } of tx.scan('sites', 'byOrganization', org.id)) {
        if (!site.published) continue
        const siteUrl = siteBaseUrl({ tx, urls } as unknown as ReadContext, site)
        lines.push(`  site          ${site.title} (published, ${site.visibility})  ${site.id}  ${siteUrl}`)
        // A share-link site opens at its links' URLs; a visitor-auth one with a visitor token (GitBook's renderer reads `jwt_token`).
        const link = site.visibility === 'share-link' ? tx.scan('shareLinks', 'bySite', site.id).find((e) => e.row.active)?.row : undefined
        if (link) lines.push(`                opens at ${siteUrl}/${encodeURIComponent(link.key)}`)
        const visitorToken = site.visibility === 'visitor-auth' ? how.visitorTokens?.[site.id] : undefined
        if (visitorToken) lines.push(`                opens at ${siteUrl}?jwt_token=${visitorToken}`)
      }
    }
    const tokens = tx.all('tokens').map((t) => {
      const user = tx.get('users', t.user)
      const roles = tx.scan('members', 'byUser', t.user).map((m) => m.row.role ?? 'guest')
      return { token: t.id, who: `${user?.displayName ?? t.user}${roles.length ? `, ${[...new Set(roles)].join('/')}` : ''}`, admin: roles.includes('admin') }
    })
    if (tokens.length) lines.push('')
    for (const t of tokens) lines.push(`  token  ${t.token}   (${t.who})`)
    const token = (tokens.find((t) => t.admin) ?? tokens[0])?.token
    const org = orgs[0]
    const site = org && tx.scan('sites', 'byOrganization', org.id).find((e) => e.row.published)?.row
    lines.push('', 'Try:')
    if (token) lines.push(`  curl -H "Authorization: Bearer ${token}" ${url}/v1/orgs`)
    if (token && org) lines.push(`  curl -H "Authorization: Bearer ${token}" ${url}/v1/orgs/${org.id}/spaces`)
    if (token && org) lines.push(`  curl -H "Authorization: Bearer ${token}" "${url}/v1/orgs/${org.id}/search?query=install"`)
    // What GitBook's renderer calls first for a page of the site: the answer's apiToken reads it.
    if (site) {
      const body = JSON.stringify({ url: siteBaseUrl({ tx, urls } as unknown as ReadContext, site) })
      lines.push(`  curl -X POST -H "Content-Type: application/json" -d '${body}' ${url}/v1/urls/published`)
    }
    lines.push(`  curl ${url}/openapi.json`, '', 'Ctrl+C to stop.')
    return lines.join('\n')
  })
}
