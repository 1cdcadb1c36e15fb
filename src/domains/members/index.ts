import { defineArea } from '../area.js'
import { membersCollections } from './rows.js'
import { memberHandlers } from './handlers.js'
import { memberSeedRules } from './seed.js'

/** The members area (see domains/area.ts). */
export const membersArea = defineArea({
  name: 'members',
  collections: membersCollections,
  operations: memberHandlers,
  seed: memberSeedRules,
  owned: [{ collections: ['members'], owner: 'organizations', index: 'byOrganization' }],
})
