import { defineArea } from '../area.js'
import { collectionPermissionsCollections } from './rows.js'
import { collectionPermissionHandlers } from './handlers.js'
import { collectionPermissionSeedRules } from './seed.js'

/** The collection-permissions area (see domains/area.ts). */
export const collectionPermissionsArea = defineArea({
  name: 'collection-permissions',
  collections: collectionPermissionsCollections,
  operations: collectionPermissionHandlers,
  seed: collectionPermissionSeedRules,
  owned: [{ collections: ['collectionGrants'], owner: 'collections', index: 'byCollection' }],
})
