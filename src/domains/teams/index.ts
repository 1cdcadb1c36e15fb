import { defineArea } from '../area.js'
import { teamsCollections } from './rows.js'
import { teamHandlers } from './handlers.js'
import { teamSeedRules } from './seed.js'

/** The teams area (see domains/area.ts). */
export const teamsArea = defineArea({
  name: 'teams',
  collections: teamsCollections,
  operations: teamHandlers,
  seed: teamSeedRules,
  owned: [
    { collections: ['teams'], owner: 'organizations', index: 'byOrganization' },
    { collections: ['teamMembers'], owner: 'teams', index: 'byTeam' },
  ],
})
