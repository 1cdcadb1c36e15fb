import { checkOutgoingUrl, refusalIn } from '../../core/outgoing.js'
import type { ReadContext } from '../context.js'
import type { IntegrationDelivery, IntegrationHandler } from './delivery-options.js'
import type { IntegrationDevModeRow } from './rows.js'

/**
 * Where an integration's events and UI renders go, first match wins:
 * 1. the development URL of the developer who caused them (`setIntegrationDevelopmentMode`), or
 *    the latest one set with `all` (every event and render of the integration, whoever caused it);
 * 2. the in-process handler (`createDocsApi({ integrations })`);
 * 3. the published script, through `createDocsApi({ runScript })`;
 * otherwise nowhere: no runtime is configured.
 */
export interface Target {
  handler: IntegrationHandler
  /** Where it goes, as the event's trace says it. */
  label: string
}

/** The development mode that takes what `user` causes for `integration`: theirs, else the latest `all` one. */
export function devModeFor(ctx: ReadContext, integration: string, user: string | undefined): IntegrationDevModeRow | undefined {
  const own = user ? ctx.tx.get('integrationDevModes', `${integration}/${user}`) : undefined
  if (own) return own
  const all = ctx.tx
    .scan('integrationDevModes', 'byIntegration', integration)
    .map((e) => e.row)
    .filter((row) => row.all)
  return all.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)).at(-1)
}

/**
 * A handler forwarding the dispatcher's request (method, signed headers, multipart body) to a
 * development URL, through the API's outgoing fetch and its guard: http(s) only, a public address
 * unless `allowPrivateNetwork` (the `fetch` option may check resolved addresses too:
 * `createGuardedFetch`). Redirects are not followed (a 3xx refuses the event). It gives up after
 * `timeout` ms, as an in-process handler's attempt does.
 */
export function tunnelHandler(tunnelUrl: string, delivery: IntegrationDelivery): IntegrationHandler {
  return async (request) => {
    let target: URL
    try {
      target = checkOutgoingUrl(tunnelUrl, { field: 'tunnelUrl', allowPrivateNetwork: delivery.allowPrivateNetwork })
    } catch (error) {
      throw new Error(`the development URL ${tunnelUrl} is refused: ${error instanceof Error ? error.message : String(error)}`)
    }
    const body = await request.arrayBuffer()
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${delivery.timeout} ms`, 'TimeoutError')), delivery.timeout)
    try {
      return await delivery.fetch(target.href, { method: 'POST', headers: request.headers, body, redirect: 'manual', signal: controller.signal })
    } catch (error) {
      const refused = refusalIn(error)
      if (refused) throw new Error(`the development URL ${tunnelUrl} is refused: ${refused}`)
      throw new Error(`the development URL ${tunnelUrl} could not be reached: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      clearTimeout(timer)
    }
  }
}

/** Where what `user` causes for `integration` goes now, or undefined when no runtime is configured. */
export function targetFor(ctx: ReadContext, delivery: IntegrationDelivery, integration: string, user: string | undefined): Target | undefined {
  const dev = devModeFor(ctx, integration, user)
  if (dev) return { handler: tunnelHandler(dev.tunnelUrl, delivery), label: `the development URL ${dev.tunnelUrl} (development mode of user ${dev.user})` }
  const handler = delivery.handlers[integration]
  if (handler) return { handler, label: `the handler of "${integration}"` }
  const { runScript } = delivery
  const row = ctx.tx.get('integrations', integration)
  if (runScript && row) {
    const script = { integration, version: row.version, script: row.script }
    return {
      handler: (request, _env, execution) => runScript(script, request, execution),
      label: `the published script of "${integration}" (version ${row.version}, runScript)`,
    }
  }
  return undefined
}

/** The trace's line for an event with nowhere to go. */
export const noRuntime = (integration: string) =>
  `No in-process handler for integration "${integration}" (createDocsApi({ integrations: { "${integration}": handler } })), no development URL and no runScript: no runtime is configured to run its published script; the event is recorded, not delivered`
