import { randomBytes } from 'node:crypto'
import { existsSync, rmSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { dirname, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { AddressInfo } from 'node:net'
import { createDocsApi, type DocsApi } from '../api.js'
import { createControllableClock } from '../core/clock.js'
import { createDemoState, seedDemo } from '../demo.js'
import { createHomeHandler } from './home.js'
import { API_CORE } from '../http/api-core.js'
import type { ReadContext } from '../domains/context.js'
import { siteBaseUrl } from '../domains/sites/urls.js'
import { createGuardedFetch, type GuardedFetchOptions } from '../node/guarded-fetch.js'
import { toNodeHandler } from '../node/to-node-handler.js'
import { createWorkerOffload } from '../node/worker-offload.js'
import { createOpenApiDocument } from '../openapi.js'
import { openDataDir } from '../sqlite/data-dir.js'
import type { openPostgresData } from '../postgres.js'
import { preloadFor } from '../domains/preload.js'
import { StorageError } from '../storage/errors.js'
import type { StateDocumentInput } from '../domains/seed-input.js'

export interface ServeOptions {
  /** 0 picks a free port. @default 4000 */
  port?: number
  /** Interface to listen on; loopback by default, as tokens are printed. @default '127.0.0.1' */
  host?: string
  /** The state to serve; the demo data when left out. */
  seed?: StateDocumentInput
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
   * A PostgreSQL database (`postgres://user:password@host:port/db`), instead of `data`: the state
   * is kept there and shared by every process started on the same database (each holds a replica
   * in memory, caught up from the database's change log). The seed (or the demo data) goes in only
   * when the database holds nothing yet, decided under the database's lock: two processes started
   * at once on an empty database seed it once. Needs the optional peer dependency `pg`.
   */
  database?: string
  /**
   * With `database`: the directory that holds the files' bytes, shared by every process on the
   * database (a shared volume when they run on several machines). @default `./docs-content-api-blobs`
   */
  blobs?: string
  /**
   * Let the API's outgoing requests (files by URL, OpenAPI spec URLs, Git Sync) reach private,
   * loopback and link-local addresses: a file server or Git remote on your own machine or network.
   * Off, every host is resolved and refused when any of its addresses is not public.
   * @default false
   */
  allowPrivateNetwork?: boolean
  /** How host names are resolved for that check (a stub in tests). @default the system's resolver (dns.lookup) */
  lookup?: GuardedFetchOptions['lookup']
  /**
   * Serve the control plane under `/_admin/` (reset, snapshots, state, journal, faults, idle:
   * docs/guide/control-plane.md), behind the admin token, and list it in `/openapi.json`.
   * @default true
   */
  admin?: boolean
  /** The control plane's admin token (at least 16 characters). @default a random one, printed in the banner */
  adminApiToken?: string
  /**
   * A controllable clock starting at this date-time (or `'now'`): the API's time stands still
   * until the control plane sets or advances it (`/_admin/clock`). @default the real time
   */
  clock?: Date | string
  /**
   * A line per request (method, path, status, operationId, duration): `'text'` or `'json'` (JSON
   * lines `{time, method, path, status, operationId, ms}`), written to `logTo`; false for none.
   * Secrets in the query (`token`, `jwt_token`...) are written as `***`.
   * @default false
   */
  log?: 'text' | 'json' | false
  /** Where log lines go (each ends with a newline). @default process.stdout */
  logTo?: (line: string) => void
  /**
   * Keep the request journal (`api.journal`, `GET /_admin/journal`): the newest 1000 requests
   * with their bodies (the library's default bounds). Off by default when served: under load, a
   * journal that holds the bodies of the last requests keeps each of them alive long enough to
   * reach V8's old generation, which then grows by hundreds of megabytes between collections
   * (bench/README.md, served memory). A test suite driving a served API turns it on.
   * @default false
   */
  journal?: boolean
}

export interface RunningServer {
  /** Where it listens, e.g. http://localhost:4000 */
  url: string
  api: DocsApi
  /** The data directory, absolute (with `data`). */
  dataDir?: string
  /** The blob directory, absolute (with `database`). */
  blobsDir?: string
  /** What to print: ids, tokens with whose they are, curl lines. */
  banner(): string
  /** The control plane's admin token (undefined when `admin` is off). */
  adminApiToken?: string
  close(): Promise<void>
}

/** Thrown when a data directory already holds a state and a seed was given too. */
export class SeedOverDataError extends Error {}

/** A start the options make impossible (the port taken, `data` a file...): its message says what to do. */
export class ServeError extends Error {}

/** The blob directory of `serve --database` when `--blobs` is left out (resolved from the working directory). */
export const DEFAULT_BLOBS_DIR = './docs-content-api-blobs'

/** A PostgreSQL URL as the banner says it: host:port/database, without user or password. */
export function databaseLabel(url: string): string {
  try {
    const parsed = new URL(url)
    const db = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default database)'
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}/${db}`
  } catch {
    return '(unparsable URL)'
  }
}

/** Query parameters whose values are never logged. */
const SECRET_PARAM = /token|secret|password|signature|^key$|^code$/i

/** The request's path, its query's secret values written `***` (a visitor's `jwt_token`...). */
export function loggedPath(url: string): string {
  const q = url.indexOf('?')
  if (q === -1) return url
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      if (eq === -1) return pair
      let name = pair.slice(0, eq)
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '))
      } catch {
        // left as it is
      }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=***` : pair
    })
    .join('&')
  return `${url.slice(0, q)}?${query}`
}

/** Where the log lines for each request go, once the response is sent (or the connection lost). */
function requestLogger(format: 'text' | 'json', write: (line: string) => void) {
  const operationIds = new WeakMap<IncomingMessage, string>()
  return {
    answered: (req: IncomingMessage, operationId: string | undefined) => {
      if (operationId) operationIds.set(req, operationId)
    },
    start: (req: IncomingMessage, res: ServerResponse) => {
      const started = performance.now()
      let done = false
      const end = () => {
        if (done) return
        done = true
        const ms = Math.round((performance.now() - started) * 10) / 10
        const method = req.method ?? 'GET'
        const path = loggedPath(req.url ?? '/')
        // A connection closed before the answer went out: 499, as nginx logs it.
        const status = res.writableFinished ? res.statusCode : 499
        const operationId = operationIds.get(req)
        if (format === 'json') write(`${JSON.stringify({ time: new Date().toISOString(), method, path, status, operationId: operationId ?? null, ms })}\n`)
        else write(`${method} ${path} ${status}${operationId ? ` ${operationId}` : ''} ${ms}ms\n`)
      }
      res.once('finish', end)
      res.once('close', end)
    },
  }
}

/** A listen failure, said for a person: the port taken or not allowed. */
function listenError(error: unknown, port: number, host: string): unknown {
  const code = (error as { code?: string }).code
  if (code === 'EADDRINUSE')
    return new ServeError(`port ${port} is in use (on ${host}): stop what listens there, or pick another with --port <n> (--port 0: a free one)`)
  if (code === 'EACCES')
    return new ServeError(`port ${port} may not be listened on by this user (on ${host}): pick another with --port <n> (--port 0: a free one)`)
  if (code === 'EADDRNOTAVAIL') return new ServeError(`--host ${host}: no interface of this machine has that address`)
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ServeError(`--host ${host}: no such host name`)
  return error
}

/**
 * Serve the API over Node's http with `toNodeHandler`, plus `GET /openapi.json`, `/` and `/reference` (home.ts). The state is the
 * seed (a state document), else the demo data; with `data`, what the data directory holds, or
 * the seed (the demo data) put in an empty one.
 */
export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? 4000
  // Checked before anything opens or listens.
  const clock = options.clock === undefined ? undefined : createControllableClock(options.clock === 'now' ? new Date() : options.clock)
  if (options.data !== undefined && options.database !== undefined)
    throw new ServeError(
      '--data and --database: one or the other (--data keeps the state in a SQLite file for one process; --database in PostgreSQL, shared by several)',
    )
  if (options.blobs !== undefined && options.database === undefined)
    throw new ServeError('--blobs: only with --database (a data directory keeps its files in <dir>/blobs)')
  /** A directory this start creates: removed again when the start fails. */
  let created: string | undefined
  if (options.data !== undefined) {
    const dir = resolve(options.data)
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ServeError(`--data ${options.data}: ${dir} is a file, not a directory`)
    // The outermost folder of the path that does not exist yet: what this start would create.
    for (let at = dir; !existsSync(at); at = dirname(at)) created = at
  }
  const removeCreated = () => {
    try {
      if (created) rmSync(created, { recursive: true, force: true })
    } catch {
      // The failure that brought us here is what to report.
    }
  }
  // Opened before listening: a directory another server holds is refused with the port untouched.
  let data: ReturnType<typeof openDataDir> | undefined
  try {
    data = options.data === undefined ? undefined : openDataDir(options.data)
  } catch (error) {
    removeCreated()
    throw error
  }
  // PostgreSQL: opened before listening too; whether it is empty is read under its lock.
  let pg: PostgresData | undefined
  let blobsDir: string | undefined
  let pgEmpty = false
  let pgHasToken = false
  if (options.database !== undefined) {
    blobsDir = resolve(options.blobs ?? DEFAULT_BLOBS_DIR)
    if (existsSync(blobsDir) && !statSync(blobsDir).isDirectory())
      throw new ServeError(`--blobs ${options.blobs ?? DEFAULT_BLOBS_DIR}: ${blobsDir} is a file, not a directory`)
    pg = await openPostgres(options.database, blobsDir)
    const opened = pg
    try {
      ;[pgEmpty, pgHasToken] = await opened.store.shared!.exclusive(
        () => [opened.isEmpty(), options.adminToken !== undefined && !!opened.store.read((tx) => tx.get('tokens', options.adminToken!))] as const,
      )
    } catch (error) {
      await opened.close()
      throw error
    }
    if (!pgEmpty && options.seed) {
      await opened.close()
      throw new SeedOverDataError(`--seed: the database ${databaseLabel(options.database)} already holds data (a seed goes into an empty database only)`)
    }
    if (!pgEmpty && options.adminToken !== undefined && !pgHasToken) {
      await opened.close()
      throw new SeedOverDataError(
        `the admin token: the database ${databaseLabel(options.database)} already holds data, with its own tokens (the demo admin's token is set only when the demo data goes into an empty database)`,
      )
    }
  }
  if (data && !data.empty && options.seed) {
    data.close()
    throw new SeedOverDataError(`--seed: ${data.dir} already holds data (a seed goes into an empty data directory only)`)
  }
  // A token the directory already holds (the same DEMO_TOKEN as at the first start) is what was asked for.
  if (data && !data.empty && options.adminToken !== undefined && !data.store.read((tx) => tx.get('tokens', options.adminToken!))) {
    data.close()
    throw new SeedOverDataError(
      `the admin token: ${data.dir} already holds data, with its own tokens (the demo admin's token is set only when the demo data goes into an empty directory)`,
    )
  }
  if (options.seed && options.adminToken !== undefined) {
    data?.close()
    await pg?.close()
    removeCreated()
    throw new SeedOverDataError(`the admin token is the demo admin's: a seed brings its own tokens (put the token in the seed's \`tokens\`)`)
  }
  let listener: Parameters<typeof createServer>[1] = (_req, res) => res.writeHead(503).end()
  const server: Server = createServer((req, res) => listener!(req, res))
  try {
    await new Promise<void>((done, fail) => {
      server.once('error', fail)
      server.listen(port, host, () => done())
    })
  } catch (error) {
    data?.close()
    await pg?.close()
    removeCreated()
    throw listenError(error, port, host)
  }
  // Resource URLs carry the real port, known only once listening.
  const url = options.baseUrl?.replace(/\/+$/, '') ?? `http://localhost:${(server.address() as AddressInfo).port}`
  let api: DocsApi
  let demo = !options.seed && (pg ? pgEmpty : !data || data.empty)
  /** The demo's visitor tokens, by visitor-auth site, for the banner. */
  const visitorTokens: Record<string, string> = {}
  // CPU-heavy work (large markdown documents...) on worker threads: no request holds the loop.
  const offload = createWorkerOffload()
  // The control plane's token: given, or random (printed in the banner).
  const adminApiToken = options.admin === false ? undefined : (options.adminApiToken ?? `gb_admin_${randomBytes(24).toString('base64url')}`)
  try {
    // Outgoing requests go through the fetch that resolves names and checks every address (node/guarded-fetch.ts).
    const allowPrivateNetwork = options.allowPrivateNetwork ?? false
    const fetch = createGuardedFetch({ allowPrivateNetwork, ...(options.lookup && { lookup: options.lookup }) })
    const served = {
      ...(clock && { now: clock.now }),
      baseUrl: url,
      cors: options.cors ?? false,
      fetch,
      allowPrivateNetwork,
      offload,
      ...(!options.journal && { journalLimit: 0 }),
      ...(adminApiToken !== undefined && { admin: { token: adminApiToken } }),
    }
    if (pg) {
      const opened = pg
      const demoState = demo ? await createDemoState({ adminToken: options.adminToken }) : undefined
      const seed = options.seed ?? demoState?.state
      if (seed) await preloadFor(seed)
      // Seeded only when the database is still empty under its lock: of two processes started at
      // once on an empty database, the second finds the first one's data and serves it.
      let seeded = false
      api = await opened.store.shared!.exclusive(() => {
        const empty = opened.isEmpty()
        if (!empty && options.seed)
          throw new SeedOverDataError(
            `--seed: the database ${databaseLabel(options.database!)} already holds data (another process seeded it while this one started)`,
          )
        if (!empty && options.adminToken !== undefined && !opened.store.read((tx) => tx.get('tokens', options.adminToken!)))
          throw new SeedOverDataError(
            `the admin token: the database ${databaseLabel(options.database!)} already holds data, with its own tokens (another process seeded it while this one started)`,
          )
        seeded = empty
        // Site tokens signed with the secret every process on the database shares: the renderer's token is valid on each.
        return createDocsApi({ ...served, seed: empty ? seed : undefined, store: opened.store, blobs: opened.blobs, siteTokenSecret: opened.siteTokenSecret })
      })
      if (seeded && demoState) visitorTokens[demoState.demo.visitorAuthSite.id] = demoState.demo.visitorAuthSite.visitorToken
      if (!seeded) demo = false
    } else if (demo && !data) {
      // The demo in memory: made in an API of its own, then forked with serve's options. A fork
      // starts from its parent's state without copying or loading it again (a state document
      // would be checked and loaded a second time), and its reset() goes back to the demo.
      const made = createDocsApi()
      const demoData = await seedDemo(made, { adminToken: options.adminToken })
      await made.idle()
      visitorTokens[demoData.visitorAuthSite.id] = demoData.visitorAuthSite.visitorToken
      api = made.fork(served)
    } else {
      const demoState = demo ? await createDemoState({ adminToken: options.adminToken }) : undefined
      if (demoState) visitorTokens[demoState.demo.visitorAuthSite.id] = demoState.demo.visitorAuthSite.visitorToken
      const seed = data && !data.empty ? undefined : (options.seed ?? demoState!.state)
      // A seed's SAML certificates and comment bodies are checked with libraries loaded on first use (only those it needs).
      if (seed) await preloadFor(seed)
      api = createDocsApi({ ...served, seed, ...(data && { store: data.store, blobs: data.blobs }) })
    }
  } catch (error) {
    // A seed the API refuses: nothing is served, and the port is free again (and the directory empty).
    await new Promise((done) => server.close(done))
    await offload.close()
    data?.close()
    await pg?.close()
    removeCreated()
    throw error
  }
  const logger = options.log ? requestLogger(options.log, options.logTo ?? ((line) => void process.stdout.write(line))) : undefined
  const handler = toNodeHandler(api, logger && { onAnswered: (req, answer) => logger.answered(req, answer.operationId) })
  let openapi: string | undefined
  // `/` (an index of what is served) and `/reference` (Swagger UI): home.ts.
  const home = createHomeHandler({ api, url, host, visitorTokens })
  listener = (req, res) => {
    logger?.start(req, res)
    if (home(req, res)) return
    if (req.method === 'GET' && req.url?.split('?')[0] === '/openapi.json') {
      openapi ??= JSON.stringify(createOpenApiDocument(api.operations, { baseUrl: url, admin: adminApiToken !== undefined }), null, 2)
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...(options.cors && { 'access-control-allow-origin': '*' }) }).end(openapi)
      return
    }
    handler(req, res)
  }
  return {
    url,
    api,
    ...(data && { dataDir: data.dir }),
    ...(blobsDir !== undefined && { blobsDir }),
    ...(adminApiToken !== undefined && { adminApiToken }),
    banner: () =>
      bannerOf(api, url, {
        demo,
        cors: options.cors ?? false,
        data: data?.dir,
        ...(options.database !== undefined && { database: databaseLabel(options.database), blobsDir }),
        allowPrivateNetwork: options.allowPrivateNetwork ?? false,
        visitorTokens,
        adminApiToken,
        controllableClock: clock !== undefined,
      }),
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
      await pg?.close()
    },
  }
}

type PostgresData = Awaited<ReturnType<typeof openPostgresData>>

/**
 * Open the database (the `docs-content-api/postgres` entry, loaded only here: `pg` is an optional
 * peer dependency). A database that cannot be reached or opened is said in one line, without the
 * password.
 */
async function openPostgres(url: string, blobsDir: string): Promise<PostgresData> {
  const label = databaseLabel(url)
  let open: typeof openPostgresData
  try {
    ;({ openPostgresData: open } = await import('../postgres.js'))
  } catch (error) {
    throw new ServeError(`--database ${label}: the PostgreSQL store could not be loaded (${(error as Error).message}); install pg: npm install pg`)
  }
  try {
    return await open(url, { blobsDir })
  } catch (error) {
    // The blob directory not writable (or the disk full): said as StorageError says it, the directory named.
    if (error instanceof ServeError || StorageError.isStorageError(error)) throw error
    const code = (error as { code?: string }).code
    const message = ((error as Error).message || String(error)).split(url).join(label)
    throw new ServeError(`--database ${label}: ${message}${code && !message.includes(code) ? ` (${code})` : ''}`)
  }
}

/** Where the state lives, as the banner's first line says it. */
function whereData(how: { demo: boolean; data?: string; database?: string; blobsDir?: string }): string {
  if (how.database !== undefined)
    return `${how.demo ? 'demo data, ' : ''}PostgreSQL ${how.database}, shared by every process started on it; files in ${how.blobsDir}`
  if (how.data === undefined) return `${how.demo ? 'demo data, ' : ''}in memory: data is lost on exit`
  return `${how.demo ? 'demo data, ' : ''}data in ${how.data}: SQLite, kept across restarts`
}

/** What a person starting the server needs: what is there, the tokens to call it with, lines to try. */
export function bannerOf(
  api: DocsApi,
  url: string,
  how: {
    demo: boolean
    cors: boolean
    data?: string
    /** With `--database`: host:port/database, and the blob directory. */
    database?: string
    blobsDir?: string
    allowPrivateNetwork?: boolean
    visitorTokens?: Record<string, string>
    adminApiToken?: string
    controllableClock?: boolean
  },
): string {
  const { urls } = api[API_CORE].runtime
  return api.store.read((tx) => {
    const orgs = tx.all('organizations')
    const lines = [
      `docs-content-api on ${url} (${whereData(how)}${how.cors ? '; CORS on' : ''}${how.allowPrivateNetwork ? '; outgoing requests may reach private addresses' : ''}${how.controllableClock ? `; the clock stands at ${api[API_CORE].runtime.now().toISOString()} until /_admin/clock moves it` : ''})`,
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
    lines.push(`  curl ${url}/openapi.json`, '')
    lines.push(`Home page:      ${url}/`, `API reference:  ${url}/reference`)
    // The control plane (docs/guide/control-plane.md): its own token, no user's.
    if (how.adminApiToken !== undefined) {
      lines.push(`Admin API:      ${url}/_admin (Authorization: Bearer ${how.adminApiToken})`)
      lines.push(`  curl -X POST -H "Authorization: Bearer ${how.adminApiToken}" ${url}/_admin/reset`)
    }
    lines.push('', 'Ctrl+C to stop.')
    return lines.join('\n')
  })
}
