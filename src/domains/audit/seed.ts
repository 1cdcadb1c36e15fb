import { seedRule } from '../../state/seed.js'
import { AuditEventRowSchema } from './rows.js'

/** The audit trail in a state document: events of organizations it holds. */
export const auditSeedRules = [
  seedRule({
    collection: 'auditEvents',
    row: () => AuditEventRowSchema,
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
    },
  }),
]
