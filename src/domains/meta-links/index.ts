import { defineArea } from '../area.js'
import { metaLinksHandlers } from './handlers.js'

/** The meta-links area (see domains/area.ts): a page's canonical and alternate URLs, from the content and the site structure. It stores nothing. */
export const metaLinksArea = defineArea({
  name: 'meta-links',
  collections: {},
  operations: metaLinksHandlers,
})
