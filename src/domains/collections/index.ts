import { defineArea } from '../area.js'
import { collectionsCollections } from './rows.js'
import { collectionHandlers } from './handlers.js'
import { collectionSeedRules } from './seed.js'

/** The collections area (see domains/area.ts). */
export const collectionsArea = defineArea({
  name: 'collections',
  collections: collectionsCollections,
  operations: collectionHandlers,
  seed: collectionSeedRules,
  owned: [{ collections: ['collections'], owner: 'organizations', index: 'byOrganization' }],
})
