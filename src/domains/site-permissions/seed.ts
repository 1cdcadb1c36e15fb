import { seedRule } from '../../state/seed.js'
import { SiteGrantRowSchema } from './rows.js'

const principalKey = (p: { type: 'user'; user: string } | { type: 'team'; team: string }) => (p.type === 'user' ? `user:${p.user}` : `team:${p.team}`)

/** Direct grants of a role on a site, to members (guests included) and teams of its organization. */
export const sitePermissionSeedRules = [
  seedRule({
    collection: 'siteGrants',
    row: (d) =>
      // The id and the site's organization are filled in when left out.
      SiteGrantRowSchema.partial({ id: true, organization: true }).transform(({ id, organization, ...g }) => ({
        id: id ?? `${g.site}/${principalKey(g.principal)}`,
        organization: organization ?? d.tx.get('sites', g.site)?.organization ?? '',
        ...g,
      })),
    check: ({ ctx, fail }, row) => {
      const expected = `${row.site}/${principalKey(row.principal)}`
      if (row.id !== expected) fail('id', `must be "${expected}" (site/principal), or left out`)
      const site = ctx.tx.get('sites', row.site)
      if (!site) return fail('site', `no site "${row.site}"`)
      if (row.organization !== site.organization) fail('organization', `must be the site's organization "${site.organization}"`)
      const { principal } = row
      if (principal.type === 'user' && !ctx.tx.get('members', `${site.organization}/${principal.user}`)) {
        fail('principal.user', `"${principal.user}" is not a member of the site's organization (invite them as a guest first)`)
      }
      if (principal.type === 'team' && ctx.tx.get('teams', principal.team)?.organization !== site.organization) {
        fail('principal.team', `no team "${principal.team}" in the site's organization`)
      }
    },
  }),
]
