import { defineArea } from '../area.js'
import { spacePermissionsCollections } from './rows.js'
import { spacePermissionHandlers } from './handlers.js'
import { spacePermissionSeedRules } from './seed.js'

/** The space-permissions area (see domains/area.ts). */
export const spacePermissionsArea = defineArea({
  name: 'space-permissions',
  collections: spacePermissionsCollections,
  operations: spacePermissionHandlers,
  seed: spacePermissionSeedRules,
  owned: [{ collections: ['spaceGrants'], owner: 'spaces', index: 'bySpace' }],
})
