import { certificateLibraries } from './certificate.js'
import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { SamlProviderRowSchema } from './rows.js'

/** SAML providers in a state document: the request's rules (a real certificate, a team of the organization). */
export const ssoSeedRules = [
  seedRule({
    collection: 'samlProviders',
    // A provider's certificate is checked with pkijs (certificate.ts).
    needs: [certificateLibraries],
    row: (d) =>
      SamlProviderRowSchema.extend({
        defaultRole: SamlProviderRowSchema.shape.defaultRole.default(null),
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
