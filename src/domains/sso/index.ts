import { defineArea } from '../area.js'
import { ssoCollections } from './rows.js'
import { ssoHandlers } from './handlers.js'
import { ssoSeedRules } from './seed.js'

/** The sso area (see domains/area.ts). */
export const ssoArea = defineArea({
  name: 'sso',
  collections: ssoCollections,
  operations: ssoHandlers,
  seed: ssoSeedRules,
  owned: [{ collections: ['samlProviders'], owner: 'organizations', index: 'byOrganization' }],
})
