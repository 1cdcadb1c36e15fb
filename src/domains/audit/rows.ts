import { z } from 'zod'
import { collection } from '../../storage/port.js'
import { SeedIdSchema, SeedTimestampSchema } from '../../state/seed.js'

/**
 * The rows the audit area stores: one per recorded change of an organization (official
 * `AuditEventDetails`), written in the transaction of the change itself (model.ts `recordAudit`).
 */

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const PartySchema = z.strictObject({
  type: z.string().min(1).max(64),
  id: z.string().min(1).max(200),
  label: z.string().max(1000).optional(),
})

export const AuditEventRowSchema = z.strictObject({
  /** A UUID (the official `format: uuid`), made from the API's ids (model.ts). */
  id: z.string().regex(UUID_PATTERN, 'must be a UUID'),
  organization: SeedIdSchema,
  occurredAt: SeedTimestampSchema,
  /**
   * Events recorded in the same millisecond, numbered from 0: with `occurredAt` it makes the
   * index order (newest first), so that later events of one millisecond come first too.
   */
  tie: z.number().int().min(0).max(4095),
  action: z.string().min(1).max(100),
  actor: PartySchema.extend({ type: z.enum(['user', 'integration', 'installation', 'system', 'support']) }),
  source: z.enum(['ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support']),
  target: PartySchema,
  schemaVersion: z.number().int().min(1),
  payload: z.record(z.string(), z.unknown()),
  executionId: z.string().optional(),
  correlationId: z.string().optional(),
  causedByEventId: z.string().regex(UUID_PATTERN, 'must be a UUID').optional(),
})
export type AuditEventRow = z.output<typeof AuditEventRowSchema>

/** Milliseconds between the epoch and `occurredAt`, times 4096, plus the tie: the newest has the largest. */
export function auditRank(row: Pick<AuditEventRow, 'occurredAt' | 'tie'>): number {
  return Date.parse(row.occurredAt) * 4096 + row.tie
}

/** The index order of an event: the opposite of its rank, so that a scan reads newest first. */
const newestFirst = (row: AuditEventRow) => -auditRank(row)

/**
 * `byOrganization` (and the same by action, actor and target) in time order, newest first: a
 * page seeks past its cursor and reads `limit` entries. `byOrganizationInserted` in insertion
 * order: its first entry is the event dropped when an organization holds too many.
 */
export const auditCollections = {
  auditEvents: collection<AuditEventRow>({
    byOrganization: { key: (e) => e.organization, order: newestFirst },
    byOrganizationAction: { key: (e) => `${e.organization}/${e.action}`, order: newestFirst },
    byOrganizationActor: { key: (e) => `${e.organization}/${e.actor.id}`, order: newestFirst },
    byOrganizationTarget: { key: (e) => `${e.organization}/${e.target.id}`, order: newestFirst },
    byOrganizationInserted: { key: (e) => e.organization },
  }),
}
