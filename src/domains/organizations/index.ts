import { defineArea } from '../area.js'
import { organizationsCollections } from './rows.js'
import { organizationHandlers } from './handlers.js'
import { organizationSeedRules } from './seed.js'

/** The organizations area (see domains/area.ts). */
export const organizationsArea = defineArea({
  name: 'organizations',
  collections: organizationsCollections,
  operations: organizationHandlers,
  seed: organizationSeedRules,
  owned: [{ collections: ['inviteLinks'], owner: 'organizations', index: 'byOrganization' }],
})
