import { defineArea } from '../area.js'
import { commonCollections } from './rows.js'
import { sequenceSeedRules } from './seed.js'

/** The common area (see domains/area.ts). */
export const commonArea = defineArea({
  name: 'common',
  collections: commonCollections,
  seed: sequenceSeedRules,
})
