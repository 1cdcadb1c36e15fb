import { defineArea } from '../area.js'
import { insightsHandlers } from './handlers.js'
import { insightsCollections } from './rows.js'
import { insightsSeedRules } from './seed.js'

/**
 * The insights area (see domains/area.ts): events tracked on a site by its visitors, their
 * aggregations and visitor segments, and feedback agents send about the site. Both kinds of rows
 * are bounded (the oldest go first) and go with their site.
 */
export const insightsArea = defineArea({
  name: 'insights',
  collections: insightsCollections,
  operations: insightsHandlers,
  seed: insightsSeedRules,
  owned: [
    { collections: ['siteInsightEvents'], owner: 'sites', index: 'bySite' },
    { collections: ['siteAgentFeedback'], owner: 'sites', index: 'bySite' },
  ],
})
