import { defineArea } from '../area.js'
import { shareLinksCollections } from './rows.js'
import { shareLinkHandlers } from './handlers.js'
import { shareLinkSeedRules } from './seed.js'

/** The share-links area (see domains/area.ts). */
export const shareLinksArea = defineArea({
  name: 'share-links',
  collections: shareLinksCollections,
  operations: shareLinkHandlers,
  seed: shareLinkSeedRules,
  owned: [{ collections: ['shareLinks'], owner: 'sites', index: 'bySite' }],
})
