import type { Context } from '../context.js'
import type { Job } from '../context.js'
import type { IntegrationDelivery, IntegrationHandler } from './delivery-options.js'
import { noRuntime, targetFor } from './devmode-target.js'
import { attempt, dispatchRequest, type Dispatch } from './dispatch.js'
import { encodeInstallation, encodeIntegration, encodeSiteInstallation, encodeSpaceInstallation } from './encode.js'
import { updateEvent } from './events.js'
import type { IntegrationEventRow } from './rows.js'
import { deliveryToken } from './tokens-model.js'

/**
 * The background job delivering one event to its integration's in-process handler
 * (`createDocsApi({ integrations })`). Its state shows on the event (`delivery`) and each step in
 * its trace: pending → progress (an attempt) → done; a failed attempt that may be retried goes
 * back to pending with `nextAttemptAt` and waits `retryDelays[n]` ms on a timer; the last failed
 * attempt, or an answer that refuses the event, ends `failed` with the reason. Without a handler
 * the event ends `skipped`: recorded, not delivered.
 */
export function deliveryJob(eventId: string, from: ResumeFrom = { attempt: 1 }): Job {
  return {
    async run(env) {
      const { retryDelays, timeout } = env.services.integrations
      const attempts = retryDelays.length + 1
      // A resumed retry waits what is left of its delay first (by the API's clock, at most the delay).
      if (from.nextAttemptAt !== undefined) {
        const left = Math.min(from.waitMs ?? retryDelays[from.attempt - 2] ?? 0, Math.max(0, Date.parse(from.nextAttemptAt) - env.now().getTime()))
        if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
      }
      for (let n = Math.min(from.attempt, attempts); ; n++) {
        const dispatch = await env.transaction((ctx) => startAttempt(ctx, eventId, n, attempts, env.services.integrations))
        if (!dispatch) return
        const outcome = await attempt(dispatch.handler, await dispatchRequest(dispatch), timeout)
        const delay = !outcome.ok && outcome.retry ? retryDelays[n - 1] : undefined
        await env.transaction((ctx) =>
          updateEvent(ctx, eventId, (row) => {
            if (outcome.ok)
              return { delivery: { state: 'done', attempts: n }, logs: [{ level: 'info', message: `Delivered: the handler answered ${outcome.status}` }] }
            const failed = { level: 'error' as const, message: `Attempt ${n} of ${attempts} failed: ${outcome.reason}` }
            if (delay !== undefined) {
              const nextAttemptAt = new Date(ctx.now().getTime() + delay).toISOString()
              return { delivery: { state: 'pending', attempts: n, nextAttemptAt }, logs: [failed, { level: 'warn', message: `Retrying in ${delay} ms` }] }
            }
            const reason = outcome.retry ? `Every attempt failed (${n}); the last: ${outcome.reason}` : `The handler refused the event: ${outcome.reason}`
            return { delivery: { ...row.delivery, state: 'failed', attempts: n, reason }, logs: [failed, { level: 'error', message: reason }] }
          }),
        )
        if (delay === undefined) return
        await new Promise((resolve) => setTimeout(resolve, delay))
      }
    },
    // The job itself failed (not the handler, whose failures are attempts): the event says so.
    failed(ctx, error) {
      const reason = `The delivery could not run: ${error instanceof Error ? error.message : String(error)}`
      updateEvent(ctx, eventId, (row) => ({
        delivery: { state: 'failed', attempts: row.delivery.attempts, reason },
        logs: [{ level: 'error', message: reason }],
      }))
    },
  }
}

/** Where a delivery starts: attempt 1, or where a resumed one left off (resume.ts). */
export interface ResumeFrom {
  attempt: number
  /** When the retry that `attempt` is was due (it waits until then). */
  nextAttemptAt?: string
  /** The longest wait until `nextAttemptAt` (a scheduled task's delay; a retry's delay otherwise). */
  waitMs?: number
}

/**
 * Mark attempt `n` in progress and gather what the handler is sent; undefined when there is
 * nothing to deliver: the event is gone (its integration unpublished) or has no handler (skipped).
 */
function startAttempt(
  ctx: Context,
  eventId: string,
  n: number,
  attempts: number,
  delivery: IntegrationDelivery,
): (Dispatch & { handler: IntegrationHandler }) | undefined {
  const event = ctx.tx.get('integrationEvents', eventId)
  if (!event) return undefined
  // A development URL, the in-process handler or the published script (devmode-target.ts).
  const target = targetFor(ctx, delivery, event.integration, event.actor)
  if (!target) {
    const message = noRuntime(event.integration)
    updateEvent(ctx, eventId, (row) => ({ delivery: { state: 'skipped', attempts: row.delivery.attempts }, logs: [{ level: 'info', message }] }))
    return undefined
  }
  updateEvent(ctx, eventId, () => ({
    delivery: { state: 'progress', attempts: n },
    logs: [{ level: 'info', message: `Attempt ${n} of ${attempts}: delivering ${event.payload.type} to ${target.label}` }],
  }))
  return {
    handler: target.handler,
    url: new URL('/v1', ctx.urls.base).href,
    event: event.payload,
    environment: environmentOf(ctx, event),
    signingSecret: ctx.tx.get('integrations', event.integration)!.signingSecret,
  }
}

/**
 * The `environment` a script gets (official `IntegrationEnvironment`). `apiTokens.installation` is
 * a real installation token (deliveryToken: the installation's newest while it has half its hour left); `apiTokens.integration` is a placeholder (this
 * API has no integration tokens).
 */
function environmentOf(ctx: Context, event: IntegrationEventRow) {
  const integration = ctx.tx.get('integrations', event.integration)!
  const installation = event.installation === undefined ? undefined : ctx.tx.get('integrationInstallations', event.installation)
  const { payload } = event
  const space =
    payload.type === 'space_installation_setup' ? ctx.tx.get('integrationSpaceInstallations', `${event.installation}/${payload.spaceId}`) : undefined
  const site = payload.type === 'site_installation_setup' ? ctx.tx.get('integrationSiteInstallations', `${event.installation}/${payload.siteId}`) : undefined
  return {
    apiEndpoint: ctx.urls.base,
    // A real installation token (an hour, tokens-model.ts): the handler calls back with the integration's scopes.
    apiTokens: {
      integration: `gb_integration_placeholder_${integration.uid}`,
      installation: installation ? deliveryToken(ctx, installation).id : `gb_installation_placeholder_${event.installation}`,
    },
    integration: encodeIntegration(ctx, integration),
    ...(installation && { installation: encodeInstallation(ctx, installation) }),
    ...(space && { spaceInstallation: encodeSpaceInstallation(ctx, space, false) }),
    ...(site && { siteInstallation: encodeSiteInstallation(ctx, site, false) }),
    secrets: integration.secrets,
    signingSecrets: { integration: integration.signingSecret },
  }
}
