import { defineArea } from '../area.js'
import { searchHandlers } from './handlers.js'
import { createSearchIndexes } from './indexes.js'

/** The search area (see domains/area.ts). */
export const searchArea = defineArea({
  name: 'search',
  collections: {},
  operations: searchHandlers,
  services: () => ({ search: createSearchIndexes() }),
})
