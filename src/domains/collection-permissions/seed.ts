import { seedRule } from '../../state/seed.js'
import { checkGrantRow, seedGrantDefaults } from '../access/grants.js'
import { COLLECTION_GRANTS, CollectionGrantRowSchema } from './rows.js'

/** Direct grants of a role on a collection, to members (guests included) and teams of its organization (checked as every grant is: access/grants.ts). */
export const collectionPermissionSeedRules = [
  seedRule({
    collection: 'collectionGrants',
    row: (d) =>
      // The id and the collection's organization are filled in when left out.
      CollectionGrantRowSchema.partial({ id: true, organization: true }).transform(({ id, organization, ...g }) => {
        const defaults = seedGrantDefaults(d.tx, COLLECTION_GRANTS, 'collections', g)
        return { id: id ?? defaults.id, organization: organization ?? defaults.organization, ...g }
      }),
    check: checkGrantRow(COLLECTION_GRANTS, 'collections'),
  }),
]
