import { defineArea } from '../area.js'
import { siteStructureCollections } from './rows.js'
import { siteStructureHandlers } from './handlers.js'
import { siteStructureSeedRules } from './seed.js'
import { removeSpaceFromSites } from './defaults.js'

/** The site-structure area (see domains/area.ts). */
export const siteStructureArea = defineArea({
  name: 'site-structure',
  collections: siteStructureCollections,
  operations: siteStructureHandlers,
  seed: siteStructureSeedRules,
  owned: [
    // A space purged leaves the sites it was published in (their defaults move on).
    { collections: ['siteSpaces'], owner: 'spaces', remove: removeSpaceFromSites },
    { collections: ['siteSpaces'], owner: 'sites', index: 'bySite' },
    { collections: ['siteSections'], owner: 'sites', index: 'bySite' },
    { collections: ['siteSectionGroups'], owner: 'sites', index: 'bySite' },
    // A site-space's customization goes with it (removed with its site, its section, its space).
    { collections: ['siteSpaceCustomizations'], owner: 'siteSpaces', index: 'bySiteSpace' },
  ],
  // Sites publish only spaces of their own organization: a space leaving it leaves them.
  hooks: { spaceTransferred: (ctx, space) => removeSpaceFromSites(ctx, space) },
})
