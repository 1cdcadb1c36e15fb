import { seedRule } from '../../state/seed.js'
import { SpaceGrantRowSchema } from './rows.js'

const principalKey = (p: { type: 'user'; user: string } | { type: 'team'; team: string }) => (p.type === 'user' ? `user:${p.user}` : `team:${p.team}`)

/** Direct grants of a role on a space, to members (guests included) and teams of its organization. */
export const spacePermissionSeedRules = [
  seedRule({
    collection: 'spaceGrants',
    row: (d) =>
      // The id and the space's organization are filled in when left out.
      SpaceGrantRowSchema.partial({ id: true, organization: true }).transform(({ id, organization, ...g }) => ({
        id: id ?? `${g.space}/${principalKey(g.principal)}`,
        organization: organization ?? d.tx.get('spaces', g.space)?.organization ?? '',
        ...g,
      })),
    check: ({ ctx, fail }, row) => {
      const expected = `${row.space}/${principalKey(row.principal)}`
      if (row.id !== expected) fail('id', `must be "${expected}" (space/principal), or left out`)
      const space = ctx.tx.get('spaces', row.space)
      if (!space) return fail('space', `no space "${row.space}"`)
      if (row.organization !== space.organization) fail('organization', `must be the space's organization "${space.organization}"`)
      const { principal } = row
      if (principal.type === 'user' && !ctx.tx.get('members', `${space.organization}/${principal.user}`)) {
        fail('principal.user', `"${principal.user}" is not a member of the space's organization (invite them as a guest first)`)
      }
      if (principal.type === 'team' && ctx.tx.get('teams', principal.team)?.organization !== space.organization) {
        fail('principal.team', `no team "${principal.team}" in the space's organization`)
      }
    },
  }),
]
