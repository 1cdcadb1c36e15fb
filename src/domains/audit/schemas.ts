import { z } from 'zod'
import { TimestampSchema } from '../common/schemas.js'
import { AuditLimitSchema } from './model.js'
import { UUID_PATTERN } from './rows.js'

const DateTimeQuerySchema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time (e.g. 2026-01-01T00:00:00.000Z)' })

/** The query of `listOrganizationAuditEvents` (the official parameters). */
export const ListAuditEventsQuerySchema = z.object({
  page: z.string().min(1).optional().meta({ description: 'Cursor from `next.page` of the previous page.' }),
  limit: AuditLimitSchema.meta({ description: 'Number of events to return, up to 100 (default 20).' }),
  from: DateTimeQuerySchema.optional().meta({ description: 'Include events occurring at or after this time.' }),
  to: DateTimeQuerySchema.optional().meta({ description: 'Include events occurring at or before this time.' }),
  action: z.string().min(1).optional().meta({ description: 'Filter by an exact audit action name.' }),
  actor: z.string().min(1).optional().meta({ description: 'Filter by an exact stable actor identifier.' }),
  target: z.string().min(1).optional().meta({ description: 'Filter by an exact stable target identifier.' }),
})

export const AuditEventIdParamsSchema = z.object({
  organizationId: z.string().min(1),
  auditEventId: z.string().regex(UUID_PATTERN, 'must be a UUID'),
})

const PartySchema = z.object({ type: z.string(), id: z.string(), label: z.string().optional() })

export const AuditEventActionSchema = z.object({ object: z.literal('audit-event-action'), id: z.string(), label: z.string() }).meta({ id: 'AuditEventAction' })

export const AuditEventSchema = z
  .object({
    object: z.literal('audit-event'),
    id: z.string(),
    occurredAt: TimestampSchema,
    action: z.string(),
    actor: PartySchema.extend({ type: z.enum(['user', 'integration', 'installation', 'system', 'support']) }),
    source: z.enum(['ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support']),
    target: PartySchema,
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'AuditEvent' })

export const AuditEventDetailsSchema = AuditEventSchema.extend({
  executionId: z.string().optional(),
  correlationId: z.string().optional(),
  causedByEventId: z.string().optional(),
  schemaVersion: z.number().int(),
  payload: z.record(z.string(), z.unknown()),
}).meta({ id: 'AuditEventDetails' })

/** The list envelope: `count` only when it is exact at no cost (model.ts `listAuditEvents`). */
export const AuditEventListSchema = z.object({
  items: z.array(AuditEventSchema),
  count: z.number().optional(),
  next: z.object({ page: z.string() }).optional(),
})
