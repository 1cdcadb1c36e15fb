import { defineArea } from '../area.js'
import { conversationsCollections } from './rows.js'
import { conversationHandlers } from './handlers.js'
import { conversationSeedRules } from './seed.js'
import { conversationResumer } from './resume.js'

/** The conversations area (see domains/area.ts). */
export const conversationsArea = defineArea({
  name: 'conversations',
  collections: conversationsCollections,
  operations: conversationHandlers,
  seed: conversationSeedRules,
  resumers: [conversationResumer],
  owned: [
    { collections: ['conversations'], owner: 'organizations', index: 'byOrganization' },
    { collections: ['conversationIssues'], owner: 'organizations', index: 'byOrganization' },
    { collections: ['issueClusters'], owner: 'organizations', index: 'byOrganization' },
  ],
})
