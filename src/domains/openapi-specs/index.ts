import { defineArea } from '../area.js'
import { openapiSpecsCollections } from './rows.js'
import { openapiSpecHandlers } from './handlers.js'
import { openapiSpecSeedRules } from './seed.js'
import { openapiSpecResumer } from './resume.js'

/** The openapi-specs area (see domains/area.ts). */
export const openapiSpecsArea = defineArea({
  name: 'openapi-specs',
  collections: openapiSpecsCollections,
  operations: openapiSpecHandlers,
  seed: openapiSpecSeedRules,
  resumers: [openapiSpecResumer],
  services: (options) => (options.openapi ? { openapi: options.openapi } : {}),
  owned: [
    { collections: ['openapiSpecs'], owner: 'organizations', index: 'byOrganization' },
    { collections: ['openapiSpecVersions'], owner: 'openapiSpecs', index: 'bySpec' },
  ],
})
