import { defineArea } from '../area.js'
import { usersCollections } from './rows.js'
import { userHandlers } from './handlers.js'
import { userSeedRules } from './seed.js'
import { apiInformation } from './model.js'

/** The users area (see domains/area.ts). */
export const usersArea = defineArea({
  name: 'users',
  collections: usersCollections,
  operations: userHandlers,
  seed: userSeedRules,
  owned: [{ collections: ['tokens', 'notificationTokens'], owner: 'users', index: 'byUser' }],
  services: (options) => ({ apiInformation: apiInformation(options.now?.() ?? new Date()) }),
})
