import { seedRule } from '../../state/seed.js'
import { checkGrantRow, seedGrantDefaults } from '../access/grants.js'
import { SPACE_GRANTS, SpaceGrantRowSchema } from './rows.js'

/** Direct grants of a role on a space, to members (guests included) and teams of its organization (checked as every grant is: access/grants.ts). */
export const spacePermissionSeedRules = [
  seedRule({
    collection: 'spaceGrants',
    row: (d) =>
      // The id and the space's organization are filled in when left out.
      SpaceGrantRowSchema.partial({ id: true, organization: true }).transform(({ id, organization, ...g }) => {
        const defaults = seedGrantDefaults(d.tx, SPACE_GRANTS, 'spaces', g)
        return { id: id ?? defaults.id, organization: organization ?? defaults.organization, ...g }
      }),
    check: checkGrantRow(SPACE_GRANTS, 'spaces'),
  }),
]
