import { defineArea } from '../area.js'
import { embedHandlers } from './handlers.js'
import { defaultEmbedResolver } from './resolver.js'

/**
 * The embeds area (see domains/area.ts): URLs resolved to embeds by the API's resolver
 * (`createDocsApi({ embeds })`). It stores nothing.
 */
export const embedsArea = defineArea({
  name: 'embeds',
  collections: {},
  operations: embedHandlers,
  services: (options) => ({ embeds: options.embeds ?? defaultEmbedResolver }),
})
