import { defineArea } from '../area.js'
import { auditCollections } from './rows.js'
import { auditHandlers } from './handlers.js'
import { auditServices } from './model.js'
import { auditSeedRules } from './seed.js'

/** The audit area (see domains/area.ts): the trail of changes of each organization. */
export const auditArea = defineArea({
  name: 'audit',
  collections: auditCollections,
  operations: auditHandlers,
  seed: auditSeedRules,
  services: (options) => auditServices(options.auditEventsPerOrganization),
  owned: [{ collections: ['auditEvents'], owner: 'organizations', index: 'byOrganizationInserted' }],
})
