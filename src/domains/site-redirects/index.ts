import { defineArea } from '../area.js'
import { siteRedirectsCollections } from './rows.js'
import { siteRedirectHandlers } from './handlers.js'
import { siteRedirectSeedRules } from './seed.js'

/**
 * The site-redirects area (see domains/area.ts): a site's redirects, and resolving a path of the
 * site to one (`findSiteRedirect` in resolve.ts, for URL resolution). A site's redirects go with
 * it; those naming a section, site-space or page that is removed stay, leading nowhere (a 404)
 * until changed or deleted.
 */
export const siteRedirectsArea = defineArea({
  name: 'site-redirects',
  collections: siteRedirectsCollections,
  operations: siteRedirectHandlers,
  seed: siteRedirectSeedRules,
  owned: [{ collections: ['siteRedirects'], owner: 'sites', index: 'bySite' }],
})
