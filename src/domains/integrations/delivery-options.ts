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

/** What the delivery job reads from the API's services. */
export interface IntegrationDelivery {
  handlers: Readonly<Record<string, IntegrationHandler>>
  retryDelays: readonly number[]
  timeout: number
}

declare module '../../core/services.js' {
  interface Services {
    integrations: IntegrationDelivery
  }
}

export const DEFAULT_RETRY_DELAYS: readonly number[] = [100, 500, 2500]
export const DEFAULT_DELIVERY_TIMEOUT = 10_000

/** The delivery service from the options, checked once at creation (a bad delay would make a job wait forever or never). */
export function integrationDeliveryService(handlers: Record<string, IntegrationHandler> = {}, options: IntegrationDeliveryOptions = {}): IntegrationDelivery {
  const retryDelays = options.retryDelays ?? DEFAULT_RETRY_DELAYS
  const timeout = options.timeout ?? DEFAULT_DELIVERY_TIMEOUT
  if (!retryDelays.every((d) => Number.isFinite(d) && d >= 0))
    throw new TypeError('integrationDelivery.retryDelays must be finite numbers of milliseconds, 0 or more')
  if (!(Number.isFinite(timeout) && timeout > 0)) throw new TypeError('integrationDelivery.timeout must be a positive number of milliseconds')
  for (const [name, handler] of Object.entries(handlers)) {
    if (typeof handler !== 'function') throw new TypeError(`integrations["${name}"] must be a fetch function (request) => Response`)
  }
  return { handlers: { ...handlers }, retryDelays: [...retryDelays], timeout }
}
