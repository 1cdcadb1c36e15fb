import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { RoleOrGuestSchema, StandaloneMergeRulesSchema, UrlSchema } from '../common/schemas.js'
import { JsonDocumentSchema } from '../content/schemas.js'
import { EmailDomainSchema, OrganizationHostnameSchema, OrganizationTitleSchema } from './schemas.js'

/** Organizations, their members and invite links in a state document. */
export const organizationSeedRules = [
  seedRule({
    collection: 'organizations',
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        title: OrganizationTitleSchema,
        createdAt: SeedTimestampSchema.default(d.now),
        emailDomains: z.array(EmailDomainSchema.transform((s) => s.toLowerCase())).default([]),
        hostname: OrganizationHostnameSchema.optional(),
        type: z.enum(['business', 'community']).default('business'),
        useCase: z.string().optional(),
        communityType: z.string().optional(),
        defaultRole: RoleOrGuestSchema.default('read'),
        // Checked once sites are in (see the sites' seed rule).
        defaultContent: z.strictObject({ type: z.literal('site'), site: SeedIdSchema }).optional(),
        logo: UrlSchema.optional(),
        sso: z.boolean().default(false),
        ai: z.boolean().default(false),
        inviteLinks: z.boolean().default(true),
        plan: z.string().default('free_2024'),
        mergeRules: StandaloneMergeRulesSchema.default({ type: 'none' }),
        agentInstructions: z
          .strictObject({ instructions: JsonDocumentSchema, updatedAt: SeedTimestampSchema.default(d.now), updatedBy: SeedIdSchema })
          .optional(),
      }),
    check: ({ ctx, fail }, row) => {
      const by = row.agentInstructions?.updatedBy
      if (by !== undefined && !ctx.tx.get('users', by)) fail('agentInstructions.updatedBy', `no user "${by}"`)
    },
  }),
  seedRule({
    collection: 'inviteLinks',
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        organization: SeedIdSchema,
        role: RoleOrGuestSchema.default('read'),
        createdAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
    },
  }),
]
