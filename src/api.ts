import type { Context } from './domains/context.js'
import type { Translator } from './domains/translations/translator.js'
import { createUrls } from './core/context.js'
import { logUnexpected } from './core/errors.js'
import { inSystemRead, inSystemTransaction, type Runtime } from './core/execute.js'
import { createJobRunner } from './core/jobs.js'
import { createTickets } from './core/tickets.js'
import { createInlineOffload, type Offload } from './core/offload.js'
import { TASKS } from './domains/tasks.js'
import { createOutgoing, type OutgoingOptions } from './core/outgoing-limits.js'
import { createMemoryBlobs, type BlobPort } from './storage/blobs.js'
import { API_CORE, type ApiCore } from './http/api-core.js'
import type { CorsOptions } from './http/cors.js'
import type { AdminOptions } from './http/admin.js'
import { createFaults, type Faults } from './http/faults.js'
import { createJournal, JOURNAL_BODY_LIMIT, JOURNAL_SIZE_LIMIT, type Journal } from './http/journal.js'
import type { OperationDef } from './core/operation.js'
import { newFlatId } from './core/ids.js'
import { boundOperations, createServices, levelResolvers, operations, restored, resumers, seedRules, ticketDropped, verifyBearer } from './domains/index.js'
import { resumeWork, watchAbandonedWork } from './core/resume.js'
import type { Answerer } from './domains/ask/answerer.js'
import type { EmbedResolver } from './domains/embeds/resolver.js'
import { dumpState } from './state/dump.js'
import { loadState, type StateDocument } from './state/seed.js'
import type { StateDocumentInput } from './domains/seed-input.js'
import { createFixtures, type Fixtures } from './fixtures.js'
import { createFetchHandler, type FetchFunction } from './http/fetch-handler.js'
import { createMemoryStore } from './storage/memory.js'
import type { StoreSnapshot } from './storage/port.js'
import { schema, type AppSchema } from './domains/schema.js'
import type { StoragePort } from './storage/port.js'
import type { IntegrationDeliveryOptions, IntegrationHandler, IntegrationScriptRunner } from './domains/integrations/delivery-options.js'
import type { GitSyncOptions } from './domains/git-sync/queue.js'
import { preloadFor } from './domains/preload.js'

export interface DocsApiOptions {
  /**
   * Base URL the API is served at, prefix included (`https://example.com/api` for an API mounted
   * under `/api`): `urls.location` of every resource (`${baseUrl}/v1/...`), a file's `downloadURL`
   * (`${baseUrl}/files/...`) and a change request's PDF URL (`${baseUrl}/pdf/...`) are built from it.
   * It does not change routing (`basePath` does).
   * @default 'http://localhost:4000'
   */
  baseUrl?: string
  /**
   * Base URL of the application, for `urls.app`.
   * @default `${baseUrl}/app`
   */
  appUrl?: string
  /**
   * Base URL of published sites without a custom hostname: a site's `urls.published` is
   * `${publishedUrl}/${organization hostname or id}/${basename or site id}`. The default has no
   * port, so that GitBook's renderer (which refuses a site URL with a port) can serve those URLs:
   * `*.localhost` names this machine in browsers, and the renderer is told the URL by its
   * `x-gitbook-url` header (docs/guides/renderer.md).
   * @default 'https://docs.localhost'
   */
  publishedUrl?: string
  /**
   * Base URL of site previews, as GitBook's renderer serves them (its `GITBOOK_PREVIEW_BASE_URL`):
   * `${previewUrl}/{site id}/...`, resolved for members who resolve it with their API token (the
   * renderer passes the `?token=` of the preview link), published or not (docs/behaviour/published.md).
   * @default 'https://sites.gitbook.com/preview'
   */
  previewUrl?: string
  /**
   * The secret that signs site API tokens (HS256: at least 32 bytes). Give one to keep the tokens
   * a served API issued valid across restarts, or shared by several processes; by default each API
   * makes a random one.
   */
  siteTokenSecret?: string
  /**
   * The clock, read on every operation: a test can freeze or move time (the 7-day restore
   * window of deleted spaces follows it).
   * @default () => new Date()
   * @example let t = new Date('2026-01-01'); createDocsApi({ now: () => t })
   */
  now?: () => Date
  /**
   * Makes new ids. Pass a deterministic generator for repeatable ids.
   * @default 20 symbols of nanoid's URL-safe alphabet from `crypto.getRandomValues` bytes, as `nanoid()` makes them
   * @example createDocsApi({ ids: sequentialIds() })
   */
  ids?: () => string
  /**
   * The storage adapter: in memory by default; on a SQLite file with `docs-content-api/sqlite`
   * (Node, with better-sqlite3), whose data survives a restart.
   * @default createMemoryStore(schema)
   * @example
   * const data = openDataDir('./docs-data') // from 'docs-content-api/sqlite'
   * createDocsApi({ store: data.store, blobs: data.blobs })
   */
  store?: StoragePort<AppSchema>
  /**
   * Prefix stripped before routing in `fetch`: every path the API serves (`/v1/...`, `/files/...`,
   * `/pdf/...`) is served under it. Put the same prefix at the end of `baseUrl` so the URLs the API
   * hands out point there.
   * @default ''
   */
  basePath?: string
  /** Called with unexpected errors (answered as 500) and with errors of background jobs. @default console.error */
  onError?: (error: unknown) => void
  /**
   * Answer cross-origin requests in `fetch`: `true` allows any origin, options narrow it; preflight
   * `OPTIONS` requests are answered. Off by default: an embedded API usually sits behind its host's.
   * @default false
   */
  cors?: boolean | CorsOptions
  /**
   * On a store several processes share (the PostgreSQL store): how often this API looks for
   * unfinished work whose process died (no live lease names it) and takes it up (core/resume.ts).
   * @default 5000
   */
  abandonedWorkMs?: number
  /**
   * The request journal (`api.journal`): how many requests it keeps (the oldest go first); 0 keeps none.
   * @default 1000
   */
  journalLimit?: number
  /**
   * The request journal: how many characters of each request and response body it keeps; a
   * longer body is cut there, and its entry says so (`truncated`) with the body's full length.
   * @default 65536 (64 Ki)
   */
  journalBodyLimit?: number
  /**
   * The request journal: how many characters its entries may hold in all (bodies, paths and
   * queries); past it the oldest entries go first (the newest always stays).
   * @default 16777216 (16 Mi)
   */
  journalSizeLimit?: number
  /**
   * A state document to start from (what `api.dump()` writes, or one written by hand: rows by
   * collection, with defaults for what is left out), loaded through the domain's rules. Work the
   * document shows unfinished (a spec `pending`, a translation `running`...) is started again.
   * Typed `StateDocumentInput`: fields the loader defaults may be left out.
   * @example createDocsApi({ seed: JSON.parse(readFileSync('state.json', 'utf8')) })
   */
  seed?: StateDocumentInput
  /**
   * Random numbers in [0, 1), for the `probability` of faults. Pass a seeded generator for repeatable runs.
   * @default Math.random
   */
  random?: () => number
  /**
   * The fetch every outgoing request of the library uses (a file inserted from a `url`, an OpenAPI
   * spec's URL, Git Sync's smart-HTTP requests to a repository). Pass a fake in tests: nothing
   * leaves the process then. On Node, pass `createGuardedFetch()` of `docs-content-api/node` to
   * have host names resolved and refused when an address is not public (see `allowPrivateNetwork`).
   * @default globalThis.fetch
   */
  fetch?: typeof fetch
  /**
   * Let outgoing requests reach private, loopback, link-local and other reserved addresses (and
   * `localhost`). Off by default: a URL in a request body must not make the API probe the
   * network it runs in. The one switch for every outgoing request of the library. Without DNS
   * (web standards have none) the guard checks the host as written: a name that resolves to a
   * private address passes it unless the `fetch` checks addresses (`createGuardedFetch` of
   * `docs-content-api/node`, given the same `allowPrivateNetwork`).
   * @default false
   */
  allowPrivateNetwork?: boolean
  /**
   * What the API's outgoing fetches may hold at once, and the limits of one content batch's
   * files: `batchBytes` (a batch's files in all, base64 decoded and fetched: a 413 past it),
   * `batchFetches` (files of one batch fetched at once), `bytesInFlight` and `fetchesInFlight`
   * (across every request and job: files by URL and OpenAPI spec URLs; a fetch reserves its cap,
   * or the Content-Length announced, and waits its turn while the budget is taken).
   * @default { batchBytes: 33554432, batchFetches: 4, bytesInFlight: 41943040, fetchesInFlight: 8 } (32 MiB, 40 MiB)
   * @example createDocsApi({ outgoing: { batchBytes: 100 * 1024 * 1024 } })
   */
  outgoing?: OutgoingOptions
  /**
   * Where file bytes live (rows keep their keys). A fork shares its parent's blobs: blobs are
   * never changed, and a key no row names is never served.
   * @default createMemoryBlobs()
   * @example createDocsApi({ blobs: createFileBlobs({ dir: './docs-data/blobs' }) }) // from 'docs-content-api/sqlite'
   */
  blobs?: BlobPort
  /**
   * How OpenAPI specs are processed. A spec's `url` source is fetched with the `fetch` option,
   * guarded as every outgoing request (`allowPrivateNetwork`), at most 10 MiB; `fetchTimeoutMs`
   * is how long that fetch may take before the spec ends with `lastProcessErrorCode: FETCH_TIMEOUT`.
   * @default { fetchTimeoutMs: 10000 }
   * @example createDocsApi({ fetch: fakeFetch, openapi: { fetchTimeoutMs: 50 } })
   */
  openapi?: { fetchTimeoutMs?: number }
  /**
   * Git Sync jobs: `maxConcurrentJobs`, how many imports and exports run at once across spaces
   * (each holds its repository in memory); the others wait their turn, and the 5-minute limit of
   * an operation counts from its turn. A space's own jobs always run one at a time, in order.
   * @default { maxConcurrentJobs: 2 }
   * @example createDocsApi({ gitSync: { maxConcurrentJobs: 4 } })
   */
  gitSync?: GitSyncOptions
  /**
   * In-process stand-ins for integrations' scripts, by integration name: each event of an
   * installation (`installation_setup`, `space_installation_setup`, `site_installation_setup`) is
   * delivered to its integration's handler in the background, as the platform's dispatcher calls a
   * script (a signed multipart `POST` to `/v1` with `event` and `environment`), retried on failure
   * (`integrationDelivery`); the outcome and its logs show in the event's trace
   * (`getIntegrationEvent`). An integration without a handler records its events without delivering them.
   * @default {}
   * @example
   * const api = createDocsApi({ integrations: { 'my-app': async (request) => {
   *   const event = JSON.parse(String((await request.formData()).get('event')))
   *   return new Response('OK')
   * } } })
   * // or the `fetch` of createIntegration({ events: { installation_setup: ... } }) from @gitbook/runtime
   */
  integrations?: Record<string, IntegrationHandler>
  /**
   * How deliveries to `integrations` handlers are retried: `retryDelays` (ms before each retry,
   * default `[100, 500, 2500]`: 4 attempts) and `timeout` (ms per attempt, default 10000).
   * `api.idle()` waits for retries too: pass `{ retryDelays: [0, 0, 0] }` in tests.
   * @default { retryDelays: [100, 500, 2500], timeout: 10000 }
   * @example createDocsApi({ integrations: { 'my-app': handler }, integrationDelivery: { retryDelays: [0, 0, 0] } })
   */
  integrationDelivery?: IntegrationDeliveryOptions
  /**
   * Runs published integrations' scripts (the `script` of a publish): called for each event and UI
   * render of an integration that has neither a development URL (`gitbook dev`) nor a handler in
   * `integrations`. The library bundles no JavaScript isolate: without this hook a published
   * script is stored, not run, and its events' traces say no runtime is configured. See
   * docs/guide/integrations.md for an implementation with Miniflare.
   * @default undefined
   * @example createDocsApi({ runScript: async ({ integration, script }, request) => myIsolates.run(integration, script, request) })
   */
  runScript?: IntegrationScriptRunner
  /**
   * The translator of translation runs: text in, text out, one call per page title, description,
   * text block and label a block holds in its data, such as a table's column title (async allowed). A block in several runs (bold, links...) comes with numbered
   * tags around each run (`<1>Click </1><2>here</2>`) to give back around their translations;
   * `context` says the languages, what the text is, and the translation's instructions. Without
   * one, a run copies the source's text as it is and counts no page and no word as translated.
   * @default undefined (the text is kept)
   * @example createDocsApi({ translate: async (text, { to }) => myService.translate(text, to) })
   */
  translate?: Translator
  /**
   * Answers the questions of Ask (`POST /v1/orgs/{id}/sites/{siteId}/ask`). It gets the question
   * and the passages the search index found for it in the content the site publishes (best
   * first; none when nothing matched), and gives an answer as markdown or a document, with the
   * pages it comes from (only pages among the passages are kept as sources): at once, as a
   * promise, or as an async iterable of answers so far, each streamed as one event.
   * @default the extractive answerer: the best passages quoted, with their pages as sources, or
   * an answer saying nothing was found
   * @example
   * createDocsApi({
   *   ask: async ({ question, passages }) => ({
   *     markdown: await myModel(question, passages.map((p) => p.section.text)),
   *     sources: passages.slice(0, 2).map((p) => ({ page: p.page, space: p.space })),
   *   }),
   * })
   */
  ask?: Answerer
  /**
   * Resolves the URLs of embeds (`getEmbedByUrl`, `getEmbedByUrlInSpace`: what the renderer shows
   * for an embed block) to an official `Embed`: a link card, an HTML snippet (`rich`) or an
   * integration's block, at once or as a promise. It gets the URL (http or https, at most 2048
   * characters) and a `fetch` that goes through the outgoing-fetch guard (`allowPrivateNetwork`,
   * size and time limits). If it throws or answers something else than an `Embed`, the link embed
   * is answered. `oembedResolver()` (from the main entry) asks oEmbed providers.
   * @default a link embed made from the URL alone (no request): titled by its path's last segment, or its host
   * @example
   * import { createDocsApi, oembedResolver } from 'docs-content-api'
   * createDocsApi({ embeds: oembedResolver({ providers: [{ match: /^https:\/\/(www\.)?youtube\.com\//, endpoint: 'https://www.youtube.com/oembed' }] }) })
   * createDocsApi({ embeds: (url) => ({ type: 'link', title: 'My link', site: new URL(url).host }) })
   */
  embeds?: EmbedResolver
  /**
   * Where CPU-heavy work runs (reading a large markdown document...): by default on the API's own
   * thread, each task in a turn of its own (web standards); in a Node server, pass
   * `createWorkerOffload()` from `docs-content-api/node` to run it on worker threads with a time
   * budget, so no request holds the event loop while it reads (`docs-content-api serve` does).
   * A fork shares its parent's offload; closing it is the owner's part.
   * @default an inline offload (no threads)
   * @example
   * import { createWorkerOffload } from 'docs-content-api/node'
   * const api = createDocsApi({ offload: createWorkerOffload({ workers: 2 }) })
   */
  offload?: Offload
  /**
   * The bytes of change-request PDFs the API keeps (`/pdf/<ticket>`): each is rendered once and
   * served again from memory while a ticket names it, the least recently served going first past
   * this budget. 0 keeps none (every GET renders; two at the same time still share one render).
   * @default 67108864 (64 MiB)
   */
  pdfCacheBytes?: number
  /**
   * The audit events each organization keeps (`listOrganizationAuditEvents`): past it, recording
   * an event drops the oldest recorded, in the same transaction.
   * @default 10000
   */
  auditEventsPerOrganization?: number
  /**
   * Serve the control plane under `/_admin/` in `fetch` (after `basePath`): reset, named
   * snapshots, the state document, the journal, faults, `idle` and a `createClock()` clock, over
   * HTTP, for tests in another process (docs/guide/control-plane.md). `{ token }` asks every
   * request for `Authorization: Bearer <token>` (a user API token is no admin token); `true`
   * opens it to anyone who can reach `fetch`: in process only. Off by default.
   * @default false
   * @example createDocsApi({ admin: { token: 'secret-admin-token' } })
   */
  admin?: boolean | AdminOptions
}

export interface DocsApi {
  /** The API as a fetch function: a `Request`, or a URL and init, to a `Response`. */
  fetch: FetchFunction
  /** Build state through the domain rules: users, tokens, organizations, spaces... */
  fixtures: Fixtures
  /** The store, to inspect what happened. Rows it hands out are frozen. */
  store: StoragePort<AppSchema>
  /** Every operation the API implements (the table the router is built from). */
  operations: readonly OperationDef[]
  /** Run `fn` in one transaction with a system context that can do anything. */
  system<T>(fn: (ctx: Context) => T): T
  /** The requests `fetch` answered, newest last (bounded by `journalLimit`, `journalBodyLimit` and `journalSizeLimit`). */
  journal: Journal
  /** Make the next matching requests fail or wait, to test retries and error handling. */
  faults: Faults
  /** Resolves when no background work is pending. */
  idle(): Promise<void>
  /** The whole state as a JSON document (rows by collection), to save, edit, or pass as `seed`. */
  dump(): StateDocument
  /**
   * The current state, to `restore` later: cheap with the in-memory store (O(number of
   * collections); the first write to a collection afterwards copies that collection's slots and
   * indexes, never the rows themselves); a copy of the file with the SQLite store (O(the data)).
   * Needs a store with snapshots (both have them).
   */
  snapshot(): StoreSnapshot
  /**
   * Go back to a state `snapshot()` took (as often as wanted). The journal and faults are left as
   * they are. Background jobs still running write nothing more (they ran on another state), and
   * the work the snapshot shows unfinished (a spec in `progress`, a translation `running`...) is
   * started again.
   */
  restore(snapshot: StoreSnapshot): void
  /**
   * Go back to the state right after `createDocsApi` (with its seed), as `restore` does. In-memory
   * store only: the API keeps no copy of a SQLite file when it is created (take `snapshot()` instead).
   */
  reset(): void
  /**
   * A new, independent API starting from the current state: same options (clock, ids, URLs)
   * unless overridden; its own journal, faults and background jobs (the work in progress it copied
   * is started again in the fork; the parent's jobs go on in the parent); `reset()` of the fork
   * goes back to where it started (in memory; a fork of a SQLite store is a store on a temporary
   * copy of the file; a fork of a PostgreSQL store is an in-memory copy of this process's replica,
   * which shares nothing with the database).
   */
  fork(overrides?: Omit<DocsApiOptions, 'store' | 'seed'>): DocsApi
  /** The runtime and bound operations, for `createFetchHandler`. */
  readonly [API_CORE]: ApiCore
}

/** Create the API over a store (in memory unless another adapter is given). */
export function createDocsApi(options: DocsApiOptions = {}): DocsApi {
  const store = options.store ?? createMemoryStore(schema)
  const now = options.now ?? (() => new Date())
  const newId = options.ids ?? newFlatId
  const urls = createUrls(options.baseUrl ?? 'http://localhost:4000', options.appUrl, options.publishedUrl, options.previewUrl)
  const onError = options.onError ?? logUnexpected
  const blobs = options.blobs ?? createMemoryBlobs()
  const services = createServices(options)
  const rt: Runtime = {
    store,
    now,
    newId,
    urls,
    resolvers: levelResolvers,
    jobs: createJobRunner(onError),
    blobs,
    // Called on globalThis when the request is made, so a fetch mocked after creation (msw) is the one used.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    offload: options.offload ?? createInlineOffload(TASKS),
    outgoing: createOutgoing(options.outgoing),
    tickets: createTickets({ onDrop: (data) => ticketDropped(services, data) }),
    // Each area's services, from the options (its area module's `services`).
    services,
    verifyBearer: (token, at) => verifyBearer(services, token, at, (fn) => rt.store.read(fn as never)),
  }

  const system = <T>(fn: (ctx: Context) => T): T => inSystemTransaction(rt, fn)

  // Rows left unfinished (a seed, a fork's copy, a store that already held rows) have no job in
  // this new API: each area takes them up again (core/resume.ts).
  const resume = () => system((ctx) => resumeWork(ctx, resumers))
  system((ctx) => {
    const loaded = options.seed !== undefined ? loadState(ctx, options.seed, seedRules, blobs) : undefined
    // A store other processes share: their unfinished rows have jobs there (the watch below takes up those of a
    // process that died); only the rows the seed brought have none anywhere.
    if (!store.shared) resumeWork(ctx, resumers)
    else if (loaded) resumeWork(ctx, resumers, (collection, id) => loaded.get(collection as never)?.has(id) ?? false)
  })
  if (store.shared)
    watchAbandonedWork({ shared: store.shared, resumers, system, read: (fn) => inSystemRead(rt, fn), everyMs: options.abandonedWorkMs ?? 5_000, onError })
  /** A store capability, or an error saying which store lacks it. */
  const capability = <K extends 'snapshot' | 'restore' | 'fork'>(name: K): NonNullable<StoragePort<AppSchema>[K]> => {
    const fn = store[name]
    if (!fn)
      throw new TypeError(
        `${name}() needs a store with snapshots (the in-memory and SQLite stores have them; this store has none: a PostgreSQL store shares its state with other processes)`,
      )
    return fn.bind(store) as NonNullable<StoragePort<AppSchema>[K]>
  }
  // The state after creation, for reset(). Taking it marks the tables shared: the first write to
  // each copies it once (empty, or the seed). Not of a store whose snapshots copy its data (a
  // SQLite file): opening a server on a large file must not copy it.
  const initial = store.snapshotCost === 'size' ? undefined : store.snapshot?.()
  /** Back to a snapshot: the jobs running now ran on another state (they write nothing more), and the snapshot's unfinished work is taken up again. */
  const goBack = (snapshot: StoreSnapshot) => {
    capability('restore')(snapshot)
    rt.jobs.supersede()
    restored(services)
    resume()
  }
  const core: ApiCore = {
    runtime: rt,
    operations: boundOperations,
    journal: createJournal({
      limit: options.journalLimit ?? 1000,
      bodyLimit: options.journalBodyLimit ?? JOURNAL_BODY_LIMIT,
      sizeLimit: options.journalSizeLimit ?? JOURNAL_SIZE_LIMIT,
    }),
    faults: createFaults(options.random ?? Math.random),
    http: { onError, cors: options.cors, admin: options.admin },
    basePath: options.basePath,
    control: {
      reset: () => reset(),
      snapshot: () => capability('snapshot')(),
      restore: (snapshot) => goBack(snapshot),
      dump: () => dump(),
      replace: async (doc) => {
        // SAML certificates and comment bodies are checked with libraries loaded on first use.
        await preloadFor(doc)
        // Every row goes, then the document's come in, in one transaction: a refused document changes nothing.
        system((ctx) => {
          for (const name of Object.keys(store.schema) as Array<keyof AppSchema & string>)
            for (const row of ctx.tx.all(name) as Array<{ id: string }>) ctx.tx.delete(name, row.id)
          loadState(ctx, doc, seedRules, blobs)
        })
        rt.jobs.supersede()
        restored(services)
        resume()
      },
      idle: () => rt.jobs.idle(),
      snapshots: new Map(),
    },
  }
  function dump(): StateDocument {
    return dumpState(
      store,
      seedRules.map((r) => r.collection),
      blobs,
    )
  }
  function reset(): void {
    capability('restore') // a store without snapshots says so first
    if (!initial)
      throw new TypeError(
        'reset() needs the state the API was created with, which is not kept for a store whose snapshots copy its data (SQLite): take api.snapshot() when you want a state to go back to, and api.restore() it',
      )
    goBack(initial)
  }
  // Kept on the core so toNodeHandler knows whether api.fetch is still this one (else it calls the replacement).
  core.fetch = createFetchHandler({ [API_CORE]: core }, { basePath: options.basePath })
  return {
    fetch: core.fetch,
    fixtures: createFixtures(system, blobs),
    store,
    operations,
    system,
    journal: core.journal,
    faults: core.faults,
    idle: () => rt.jobs.idle(),
    dump,
    snapshot: () => capability('snapshot')(),
    restore: (snapshot) => goBack(snapshot),
    reset,
    fork: (overrides = {}) => createDocsApi({ ...options, ...overrides, seed: undefined, store: capability('fork')(), blobs }),
    [API_CORE]: core,
  }
}
