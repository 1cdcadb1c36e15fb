import { defineArea } from '../area.js'
import { sitePermissionsCollections } from './rows.js'
import { sitePermissionHandlers } from './handlers.js'
import { sitePermissionSeedRules } from './seed.js'

/** The site-permissions area (see domains/area.ts). */
export const sitePermissionsArea = defineArea({
  name: 'site-permissions',
  collections: sitePermissionsCollections,
  operations: sitePermissionHandlers,
  seed: sitePermissionSeedRules,
  owned: [{ collections: ['siteGrants'], owner: 'sites', index: 'bySite' }],
})
