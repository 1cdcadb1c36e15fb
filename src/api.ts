import type { Context } from './core/context.js'
import { createUrls } from './core/context.js'
import { API_CORE, type ApiCore, type Runtime } from './core/execute.js'
import type { OperationDef } from './core/operation.js'
import { allows } from './core/access.js'
import { newFlatId } from './core/ids.js'
import { boundOperations, levelResolvers, operations } from './domains/index.js'
import { createFixtures, type Fixtures } from './fixtures.js'
import { createFetchHandler, type FetchFunction } from './http/fetch-handler.js'
import { createMemoryStore } from './storage/memory.js'
import { schema, type AppSchema, type StoragePort, type WriteTx } from './storage/schema.js'

export interface DocsApiOptions {
  /**
   * Base URL the API is served at; `urls.location` of every resource is built from it.
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
   * `${publishedUrl}/${organization hostname or id}/${basename or site id}`.
   * @default `${baseUrl}/published`
   */
  publishedUrl?: string
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
   * The storage adapter.
   * @default createMemoryStore(schema)
   */
  store?: StoragePort<AppSchema>
  /**
   * Prefix the `/v1` paths are mounted under in `fetch`.
   * @default ''
   */
  basePath?: string
  /** Called with unexpected errors (answered as 500). @default console.error */
  onError?: (error: unknown) => void
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
  /** The runtime and bound operations, for `createFetchHandler`. */
  readonly [API_CORE]: ApiCore
}

/** Create the API over a store (in memory unless another adapter is given). */
export function createDocsApi(options: DocsApiOptions = {}): DocsApi {
  const store = options.store ?? createMemoryStore(schema)
  const now = options.now ?? (() => new Date())
  const newId = options.ids ?? newFlatId
  const urls = createUrls(options.baseUrl ?? 'http://localhost:4000', options.appUrl, options.publishedUrl)
  const rt: Runtime = { store, now, newId, urls, resolvers: levelResolvers }

  const system = <T>(fn: (ctx: Context) => T): T =>
    store.transaction((tx: WriteTx<AppSchema>) => {
      const ctx: Context = {
        actor: { user: '' },
        now,
        nowIso: () => now().toISOString(),
        newId,
        tx,
        urls,
        access: {
          level: () => 'admin',
          allows,
          can: () => true,
          require: () => 'admin',
        },
      }
      return fn(ctx)
    })

  const core: ApiCore = { runtime: rt, operations: boundOperations }
  return {
    fetch: createFetchHandler({ [API_CORE]: core }, { basePath: options.basePath, onError: options.onError }),
    fixtures: createFixtures(system),
    store,
    operations,
    system,
    [API_CORE]: core,
  }
}
