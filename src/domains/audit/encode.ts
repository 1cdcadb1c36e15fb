import type { ReadContext } from '../context.js'
import type { AuditEventRow } from './rows.js'

/** The official `AuditEvent` of a row. */
export function encodeAuditEvent(ctx: ReadContext, row: AuditEventRow) {
  return {
    object: 'audit-event' as const,
    id: row.id,
    occurredAt: row.occurredAt,
    action: row.action,
    actor: { ...row.actor },
    source: row.source,
    target: { ...row.target },
    urls: { location: ctx.urls.api(`/orgs/${row.organization}/audit-events/${row.id}`) },
  }
}

/** The official `AuditEventDetails` of a row: the event with its payload and identifiers. */
export function encodeAuditEventDetails(ctx: ReadContext, row: AuditEventRow) {
  return {
    ...encodeAuditEvent(ctx, row),
    ...(row.executionId !== undefined ? { executionId: row.executionId } : {}),
    ...(row.correlationId !== undefined ? { correlationId: row.correlationId } : {}),
    ...(row.causedByEventId !== undefined ? { causedByEventId: row.causedByEventId } : {}),
    schemaVersion: row.schemaVersion,
    payload: row.payload,
  }
}
