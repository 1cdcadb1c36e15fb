import { seedRule } from '../../state/seed.js'
import { checkGrantRow, seedGrantDefaults } from '../access/grants.js'
import { SITE_GRANTS, SiteGrantRowSchema } from './rows.js'

/** Direct grants of a role on a site, to members (guests included) and teams of its organization (checked as every grant is: access/grants.ts). */
export const sitePermissionSeedRules = [
  seedRule({
    collection: 'siteGrants',
    row: (d) =>
      // The id and the site's organization are filled in when left out.
      SiteGrantRowSchema.partial({ id: true, organization: true }).transform(({ id, organization, ...g }) => {
        const defaults = seedGrantDefaults(d.tx, SITE_GRANTS, 'sites', g)
        return { id: id ?? defaults.id, organization: organization ?? defaults.organization, ...g }
      }),
    check: checkGrantRow(SITE_GRANTS, 'sites'),
  }),
]
