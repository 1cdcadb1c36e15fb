import { implement } from '../context.js'
import { encodeAuditEvent, encodeAuditEventDetails } from './encode.js'
import { AUDIT_ACTIONS, getAuditEvent, listAuditEvents } from './model.js'
import { auditOperations } from './operations.js'

export const auditHandlers = implement(auditOperations, {
  listOrganizationAuditEventActions: () => ({
    items: Object.entries(AUDIT_ACTIONS).map(([id, label]) => ({ object: 'audit-event-action' as const, id, label })),
  }),
  listOrganizationAuditEvents: (ctx, { params, query }) => {
    const page = listAuditEvents(ctx, params.organizationId, query)
    return { ...page, items: page.items.map((row) => encodeAuditEvent(ctx, row)) }
  },
  getOrganizationAuditEvent: (ctx, { params }) => encodeAuditEventDetails(ctx, getAuditEvent(ctx, params.organizationId, params.auditEventId)),
})
