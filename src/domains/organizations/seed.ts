import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { InviteLinkRowSchema, OrganizationRowSchema } from './rows.js'

const organizationRow = OrganizationRowSchema.shape

/** Organizations, their members and invite links in a state document. */
export const organizationSeedRules = [
  seedRule({
    collection: 'organizations',
    row: (d) =>
      OrganizationRowSchema.extend({
        createdAt: SeedTimestampSchema.default(d.now),
        emailDomains: organizationRow.emailDomains.default([]),
        type: organizationRow.type.default('business'),
        defaultRole: organizationRow.defaultRole.default('read'),
        sso: organizationRow.sso.default(false),
        ai: organizationRow.ai.default(false),
        inviteLinks: organizationRow.inviteLinks.default(true),
        plan: organizationRow.plan.default('free_2024'),
        mergeRules: organizationRow.mergeRules.default({ type: 'none' }),
        agentInstructions: organizationRow.agentInstructions
          .unwrap()
          .extend({ updatedAt: SeedTimestampSchema.default(d.now) })
          .optional(),
      }),
    check: ({ ctx, fail }, row) => {
      const by = row.agentInstructions?.updatedBy
      if (by !== undefined && !ctx.tx.get('users', by)) fail('agentInstructions.updatedBy', `no user "${by}"`)
      // Hostnames are unique, as the organization operations keep them (published URLs name an organization by it).
      if (row.hostname !== undefined && ctx.tx.count('organizations', 'byHostname', row.hostname) > 1) {
        fail('hostname', `"${row.hostname}" is used by another organization`)
      }
    },
  }),
  seedRule({
    collection: 'inviteLinks',
    row: (d) => InviteLinkRowSchema.extend({ role: InviteLinkRowSchema.shape.role.default('read'), createdAt: SeedTimestampSchema.default(d.now) }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
    },
  }),
]
