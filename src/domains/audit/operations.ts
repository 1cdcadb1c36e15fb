import { z } from 'zod'
import { defineOperation } from '../../core/operation.js'
import { pathParams } from '../common/schemas.js'
import { AuditEventActionSchema, AuditEventDetailsSchema, AuditEventIdParamsSchema, AuditEventListSchema, ListAuditEventsQuerySchema } from './schemas.js'

const tag = 'organizations'
// The audit trail is the organization admins' (others with a role: 403; outsiders: 404).
const permission = { resource: 'organization', action: 'admin' } as const

/** The audit trail of an organization: what was changed, by whom, when (model.ts). */
export const auditOperations = {
  listOrganizationAuditEventActions: defineOperation({
    id: 'listOrganizationAuditEventActions',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/audit-event-actions',
    tag,
    summary: 'List the audit event actions this API records, with their labels',
    params: pathParams('organizationId'),
    response: z.object({ items: z.array(AuditEventActionSchema) }),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission,
  }),
  listOrganizationAuditEvents: defineOperation({
    id: 'listOrganizationAuditEvents',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/audit-events',
    tag,
    summary: 'List the recorded changes of an organization, newest first (filter by time, action, actor, target)',
    params: pathParams('organizationId'),
    query: ListAuditEventsQuerySchema,
    response: AuditEventListSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission,
  }),
  getOrganizationAuditEvent: defineOperation({
    id: 'getOrganizationAuditEvent',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/audit-events/{auditEventId}',
    tag,
    summary: 'Get a recorded change of an organization with its payload',
    params: AuditEventIdParamsSchema,
    response: AuditEventDetailsSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission,
  }),
}
