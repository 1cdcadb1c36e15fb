import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { deliveryJob } from './delivery.js'
import type { IntegrationEventLog, IntegrationEventPayload, IntegrationEventRow, IntegrationRow } from './rows.js'

/** What distinguishes one kind of setup event from another (the rest of the payload is common). */
export type EventKind =
  { type: 'installation_setup' } | { type: 'space_installation_setup'; spaceId: string } | { type: 'site_installation_setup'; siteId: string }

/**
 * Record an event of an installation and defer its delivery (a background job, started once the
 * request's transaction commits: a failed request records and delivers nothing). A new
 * installation is `active`; what it was before it existed is `pending` with no configuration.
 */
export function recordEvent(ctx: Context, integration: IntegrationRow, installation: string, kind: EventKind): IntegrationEventRow {
  return recordPayload(ctx, integration, installation, { ...kind, status: 'active', previous: { status: 'pending', configuration: {} } })
}

/** Any event of an installation (a setup after an update, a deletion): its payload but the ids. */
export type EventBody = IntegrationEventPayload extends infer P ? (P extends unknown ? Omit<P, 'eventId' | 'installationId'> : never) : never

/** Record an event with its payload (`eventId` and `installationId` filled in) and defer its delivery, as recordEvent does. */
export function recordPayload(ctx: Context, integration: IntegrationRow, installation: string, body: EventBody): IntegrationEventRow {
  const id = ctx.newId()
  const payload = { eventId: id, ...body, installationId: installation } as IntegrationEventPayload
  const row = ctx.tx.insert('integrationEvents', {
    id,
    integration: integration.id,
    integrationUid: integration.uid,
    installation,
    ...(ctx.actor.user && { actor: ctx.actor.user }),
    createdAt: ctx.nowIso(),
    payload,
    delivery: { state: 'pending', attempts: 0 },
    logs: [{ message: `Recorded ${payload.type} for installation ${installation}`, timestamp: ctx.nowIso(), level: 'debug' }],
  })
  ctx.defer(`integration-event:${id}`, deliveryJob(id))
  return row
}

/** An event of this integration. */
export function getEvent(ctx: ReadContext, name: string, id: string): IntegrationEventRow {
  const row = ctx.tx.get('integrationEvents', id)
  if (!row || row.integration !== name) throw new ApiError('NOT_FOUND', 'Event not found')
  return row
}

/**
 * Change an event in a job's transaction: `change` gets the row (undefined when the event is gone,
 * its integration unpublished) and returns the new fields; `logs` are appended to its trace.
 */
export function updateEvent(
  ctx: Context,
  id: string,
  change: (row: IntegrationEventRow) => { delivery: IntegrationEventRow['delivery']; logs?: Array<Omit<IntegrationEventLog, 'timestamp'>> },
): IntegrationEventRow | undefined {
  const row = ctx.tx.get('integrationEvents', id)
  if (!row) return undefined
  const { delivery, logs = [] } = change(row)
  const timestamp = ctx.nowIso()
  return ctx.tx.update('integrationEvents', { ...row, delivery, logs: [...row.logs, ...logs.map((l) => ({ ...l, timestamp }))] })
}
