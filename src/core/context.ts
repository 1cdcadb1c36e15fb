import type { ReadTx, Schema, WriteTx } from '../storage/port.js'
import type { Level } from './roles.js'
import type { Action, Resource } from './policy.js'
import type { Tickets } from './tickets.js'
import type { Job } from './jobs.js'
import type { Services } from './services.js'
import type { TaskInput, TaskName, TaskOutput } from './offload.js'
import type { Warm } from './warmup.js'

/**
 * A content token's grant (the official `SiteAPIToken`): read access to one site's published
 * content, for one visitor. Issued when a published URL is resolved; its bearer is no user.
 */
export interface ContentGrant {
  readonly kind: 'site'
  readonly organization: string
  readonly site: string
  readonly siteSpace: string
  readonly siteSection?: string | undefined
  /** The space the resolved URL renders. */
  readonly space: string
  /** Every space of the site the token reads (its published site-spaces). */
  readonly spaces: readonly string[]
  /** The visitor's claims (signed ones from a visitor token, unsigned ones as sent), for adaptive content. */
  readonly claims: Readonly<Record<string, unknown>>
  readonly visitorType: 'human' | 'agent'
  /** The share key a `share-link` site was opened with: the token works while that link does. */
  readonly shareKey?: string | undefined
  /** Whether a `visitor-auth` site was opened with a valid visitor token. */
  readonly authenticated?: boolean
  /**
   * The member who resolved the URL with his own token (a change request or revision preview,
   * GitBook's renderer passing the member's token): the token also reads what he may read of
   * change requests on the grant's spaces, checked at each use (domains/access/levels.ts).
   */
  readonly member?: string | undefined
  /**
   * A site preview (a URL under the `previewUrl` base, resolved by a member with his token): the
   * token holds while that member may still read the site, published or not, whatever its
   * visibility.
   */
  readonly preview?: boolean | undefined
}

/**
 * An installation token's grant (`createIntegrationInstallationToken`): its integration's declared
 * scopes over the installation's targets (the installing organization, the spaces and sites the
 * installation is enabled on), worked out when the bearer is authenticated. Its bearer is no user.
 */
export interface InstallationGrant {
  readonly kind: 'installation'
  /** The user its bearer acts as: its integration's own (no member of anything), named by what it writes. */
  readonly user: string
  /** The integration's name. */
  readonly integration: string
  readonly installation: string
  readonly organization: string
  /** The integration's declared scopes (core/scopes.ts). */
  readonly scopes: readonly string[]
  /** The spaces and sites the installation is enabled on. */
  readonly spaces: readonly string[]
  readonly sites: readonly string[]
  /** When the token stops working (ISO). */
  readonly expiresAt: string
}

/** What a bearer that is not one of the API's opaque user tokens grants. */
export type BearerGrant = ContentGrant | InstallationGrant

/** Who is calling: the user behind the bearer token, or (`user` empty) the visitor of a site token or an installation. */
export interface Actor {
  readonly user: string
  /** Set for a site token: what it grants. */
  readonly content?: ContentGrant | undefined
  /** Set for an installation token: what it grants (core/scopes.ts). */
  readonly installation?: InstallationGrant | undefined
}

/** Builds the `urls` of resources from the configured base URL. */
export interface Urls {
  /** Base of the API, e.g. `http://localhost:4000`. */
  readonly base: string
  /** `${base}/v1${path}` */
  api(path: string): string
  /** URL in the application, `${appBase}${path}` */
  app(path: string): string
  /** URL of published content, `${publishedBase}${path}` */
  published(path: string): string
  /** URL of a site's preview, `${previewBase}${path}` (`/{site id}/...`, as GitBook's renderer builds them). */
  preview(path: string): string
}

export function createUrls(baseUrl: string, appUrl?: string, publishedUrl?: string, previewUrl?: string): Urls {
  const base = baseUrl.replace(/\/+$/, '')
  const appBase = (appUrl ?? `${base}/app`).replace(/\/+$/, '')
  const publishedBase = (publishedUrl ?? 'https://docs.localhost').replace(/\/+$/, '')
  const previewBase = (previewUrl ?? 'https://sites.gitbook.com/preview').replace(/\/+$/, '')
  return {
    base,
    api: (path) => `${base}/v1${path}`,
    app: (path) => `${appBase}${path}`,
    published: (path) => `${publishedBase}${path}`,
    preview: (path) => `${previewBase}${path}`,
  }
}

/** `nowIso` of a context: one shared function (a context's own `now`, as an ISO string), not a closure per request. */
export function nowIso(this: { now(): Date }): string {
  return this.now().toISOString()
}

/** Access checks bound to the current caller. */
export interface AccessChecker {
  /** The caller's level on a resource: undefined when it does not exist, null when the caller has no access. */
  level(resource: Resource, id: string): Level | null | undefined
  /** The caller's level, or a 404 (missing or not visible) / 403 (visible, below the action's role). */
  require(resource: Resource, id: string, action: Action): Level
  /** Whether a level allows an action (from the policy table). */
  allows(resource: Resource, level: Level | null | undefined, action: Action): boolean
  /** Whether the caller may do `action` on a resource (false when it is missing or hidden). */
  can(resource: Resource, id: string, action: Action): boolean
}

/**
 * What a domain handler gets: never a `Request`. Generic over the storage schema, which the core
 * does not know: the areas bind it to theirs (domains/context.ts), so `tx` is typed there.
 * A read operation's handler gets a `ReadContext`, whose transaction cannot write.
 */
export interface ReadContext<S extends Schema = Schema> {
  readonly actor: Actor
  /** The current time, read from the `now` option (a test can move it). */
  now(): Date
  /** `now()` as an ISO string. */
  nowIso(): string
  /** A new id from the `ids` option. */
  newId(): string
  /** The request's transaction: reads only. */
  readonly tx: ReadTx<S>
  readonly urls: Urls
  readonly access: AccessChecker
  /** Short-lived capabilities behind unguessable URLs (core/tickets.ts). */
  readonly tickets: Tickets
  /** The pluggable services and per-API state the areas registered (core/services.ts). */
  readonly services: Services
  /** Share key of a share-link site, when the request carries one. */
  readonly shareKey?: string | undefined
  /**
   * Run `job` in the background once this transaction has committed (never when it fails): the
   * request answers first, `api.idle()` waits for the job (core/jobs.ts).
   */
  defer(name: string, job: Job<S>): void
  /**
   * Finish part of the answer after the transaction, with a task of the offload (core/offload.ts):
   * `apply` gets the task's output and puts it in the answer being built. For CPU-heavy encoding
   * (a large document written as markdown) that needs nothing from the store but its input, which
   * the transaction hands over (documents are immutable: they stay as read). Requests only.
   */
  later<K extends TaskName>(task: K, input: TaskInput<K>, apply: (output: TaskOutput<K>) => void): void
  /**
   * Have `warm` done first, outside the transaction and in slices, then the operation run again
   * (core/warmup.ts): throws when it can (a request's first runs), returns when it cannot (a
   * system transaction, or a request run again too often): the caller then does the work inline.
   */
  beforehand(warm: Warm<S>): void
}

/** The context of an operation that may write (every method but GET), and of system transactions and jobs. */
export interface Context<S extends Schema = Schema> extends ReadContext<S> {
  /** The request's transaction. */
  readonly tx: WriteTx<S>
}
