/**
 * The in-process stand-ins for integrations' scripts, and how deliveries to them are retried
 * (`createDocsApi({ integrations, integrationDelivery })`). They reach the delivery job through
 * the API's services (core/services.ts).
 */

/** What a handler gets as its third argument, as a Workers-style `fetch` does (`waitUntil` is awaited before the delivery ends). */
export interface IntegrationExecutionContext {
  waitUntil(promise: Promise<unknown>): void
  passThroughOnException(): void
}

/**
 * An integration's script, in process: a fetch function. It receives each event as the platform's
 * dispatcher sends it to a script: a `POST` to `/v1` with a multipart form holding `event` (the
 * event payload as JSON) and `environment` (the integration, the installation, secrets, signing
 * secrets, the API endpoint, as JSON), signed in `x-gitbook-integration-signature`. The `fetch` of
 * `createIntegration(...)` from `@gitbook/runtime` is such a function. A 2xx answer is a delivery.
 */
export type IntegrationHandler = (request: Request, env: Record<string, unknown>, ctx: IntegrationExecutionContext) => Response | Promise<Response>

export interface IntegrationDeliveryOptions {
  /**
   * Milliseconds to wait before each retry of a failed delivery, in order: one attempt, then one
   * more per entry. A thrown error, a timeout, a 5xx, 408 or 429 is retried; any other non-2xx
   * answer refuses the event for good. Waited on a timer (`setTimeout`), so `api.idle()` waits for
   * them too: pass zeros in tests.
   * @default [100, 500, 2500]
   * @example createDocsApi({ integrations, integrationDelivery: { retryDelays: [0, 0, 0] } })
   */
  retryDelays?: readonly number[]
  /**
   * Milliseconds an attempt may take (the handler's answer and what it hands to `waitUntil`)
   * before it counts as failed (and is retried).
   * @default 10000
   */
  timeout?: number
}

/** A published integration's script, as `runScript` gets it. */
export interface PublishedScript {
  /** The integration's name. */
  integration: string
  /** The version the script was published with. */
  version: number
  /** The script's source, as the publish body sent it (a bundled Workers module). */
  script: string
}

/**
 * Runs published scripts (`createDocsApi({ runScript })`): called for each event and UI render of
 * an integration that has no development URL and no in-process handler, with the request a script
 * receives (as `IntegrationHandler`). The library bundles no JavaScript isolate; implement it with
 * Miniflare, say (docs/guide/integrations.md).
 */
export type IntegrationScriptRunner = (script: PublishedScript, request: Request, ctx: IntegrationExecutionContext) => Response | Promise<Response>

/** What the delivery job reads from the API's services. */
export interface IntegrationDelivery {
  handlers: Readonly<Record<string, IntegrationHandler>>
  retryDelays: readonly number[]
  timeout: number
  /** Published scripts' runner (`runScript`), when given. */
  runScript?: IntegrationScriptRunner
  /** The API's outgoing fetch and its guard, for development URLs (devmode-target.ts). */
  fetch: typeof fetch
  allowPrivateNetwork: boolean
}

declare module '../../core/services.js' {
  interface Services {
    integrations: IntegrationDelivery
  }
}

export const DEFAULT_RETRY_DELAYS: readonly number[] = [100, 500, 2500]
export const DEFAULT_DELIVERY_TIMEOUT = 10_000

/** The delivery service from the options, checked once at creation (a bad delay would make a job wait forever or never). */
export function integrationDeliveryService(
  handlers: Record<string, IntegrationHandler> = {},
  options: IntegrationDeliveryOptions = {},
  api: { runScript?: IntegrationScriptRunner | undefined; fetch?: typeof fetch | undefined; allowPrivateNetwork?: boolean | undefined } = {},
): IntegrationDelivery {
  const retryDelays = options.retryDelays ?? DEFAULT_RETRY_DELAYS
  const timeout = options.timeout ?? DEFAULT_DELIVERY_TIMEOUT
  if (!retryDelays.every((d) => Number.isFinite(d) && d >= 0))
    throw new TypeError('integrationDelivery.retryDelays must be finite numbers of milliseconds, 0 or more')
  if (!(Number.isFinite(timeout) && timeout > 0)) throw new TypeError('integrationDelivery.timeout must be a positive number of milliseconds')
  for (const [name, handler] of Object.entries(handlers)) {
    if (typeof handler !== 'function') throw new TypeError(`integrations["${name}"] must be a fetch function (request) => Response`)
  }
  if (api.runScript !== undefined && typeof api.runScript !== 'function') throw new TypeError('runScript must be a function (script, request, ctx) => Response')
  // Late-bound: a test may replace globalThis.fetch after the API was made.
  const fetchFn = api.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  return {
    handlers: { ...handlers },
    retryDelays: [...retryDelays],
    timeout,
    ...(api.runScript && { runScript: api.runScript }),
    fetch: fetchFn,
    allowPrivateNetwork: api.allowPrivateNetwork ?? false,
  }
}
