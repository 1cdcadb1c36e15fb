import { defineArea } from '../area.js'
import { askHandlers } from './handlers.js'
import { extractiveAnswerer } from './extractive.js'

/** The ask area (see domains/area.ts). */
export const askArea = defineArea({
  name: 'ask',
  collections: {},
  operations: askHandlers,
  services: (options) => ({ ask: options.ask ?? extractiveAnswerer }),
})
