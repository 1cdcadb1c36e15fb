import { defineArea } from '../area.js'
import { adaptiveContentHandlers } from './handlers.js'

/** The adaptive-content area (see domains/area.ts). */
export const adaptiveContentArea = defineArea({
  name: 'adaptive-content',
  collections: {},
  operations: adaptiveContentHandlers,
})
