import { z } from 'zod'
import { SeedIdSchema, SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { RoleOrGuestSchema } from '../common/schemas.js'
import { SamlCertificateSchema, SamlEntityIdSchema, SamlLabelSchema, SamlSsoUrlSchema } from './schemas.js'

/** SAML providers in a state document: the request's rules (a real certificate, a team of the organization). */
export const ssoSeedRules = [
  seedRule({
    collection: 'samlProviders',
    row: (d) =>
      z.strictObject({
        id: SeedIdSchema,
        organization: SeedIdSchema,
        label: SamlLabelSchema,
        entityID: SamlEntityIdSchema.optional(),
        ssoURL: SamlSsoUrlSchema.optional(),
        certificate: SamlCertificateSchema.optional(),
        defaultTeam: SeedIdSchema.optional(),
        defaultRole: RoleOrGuestSchema.default(null),
        createdAt: SeedTimestampSchema.default(d.now),
      }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) return fail('organization', `no organization "${row.organization}"`)
      if (row.defaultTeam !== undefined && ctx.tx.get('teams', row.defaultTeam)?.organization !== row.organization) {
        fail('defaultTeam', `no team "${row.defaultTeam}" in organization "${row.organization}"`)
      }
    },
  }),
]
