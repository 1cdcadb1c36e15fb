import { SeedTimestampSchema, seedRule } from '../../state/seed.js'
import { TeamMemberRowSchema, TeamRowSchema } from './rows.js'

/** Teams and their members in a state document. */
export const teamSeedRules = [
  seedRule({
    collection: 'teams',
    row: (d) => TeamRowSchema.extend({ createdAt: SeedTimestampSchema.default(d.now) }),
    check: ({ ctx, fail }, row) => {
      if (!ctx.tx.get('organizations', row.organization)) fail('organization', `no organization "${row.organization}"`)
    },
  }),
  seedRule({
    collection: 'teamMembers',
    row: (d) =>
      // The id and the team's organization are filled in when left out.
      TeamMemberRowSchema.partial({ id: true, organization: true })
        .extend({ role: TeamMemberRowSchema.shape.role.default('member') })
        .transform(({ id, organization, ...m }) => ({
          id: id ?? `${m.team}/${m.user}`,
          organization: organization ?? d.tx.get('teams', m.team)?.organization ?? '',
          ...m,
        })),
    check: ({ ctx, fail }, row) => {
      if (row.id !== `${row.team}/${row.user}`) fail('id', `must be "${row.team}/${row.user}" (team/user), or left out`)
      const team = ctx.tx.get('teams', row.team)
      if (!team) return fail('team', `no team "${row.team}"`)
      if (row.organization !== team.organization) fail('organization', `must be the team's organization "${team.organization}"`)
      // Members of a team belong to its organization (guests may).
      if (!ctx.tx.get('members', `${team.organization}/${row.user}`)) fail('user', `"${row.user}" is not a member of the team's organization`)
    },
  }),
]
