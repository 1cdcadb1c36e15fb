import { defineArea } from '../area.js'
import { sitesCollections } from './rows.js'
import { siteHandlers } from './handlers.js'
import { siteSeedRules, siteSettingsSeedRules } from './seed.js'
import { deleteSite } from './lifecycle.js'

/** The sites area (see domains/area.ts). */
export const sitesArea = defineArea({
  name: 'sites',
  collections: sitesCollections,
  operations: siteHandlers,
  seed: [...siteSeedRules, ...siteSettingsSeedRules],
  owned: [
    {
      collections: ['sites'],
      owner: 'organizations',
      remove: (ctx, organization) => {
        for (const { row } of ctx.tx.scan('sites', 'byOrganization', organization)) deleteSite(ctx, row)
      },
    },
    { collections: ['siteCustomizations'], owner: 'sites', index: 'bySite' },
    { collections: ['sitePublishingAuth'], owner: 'sites', index: 'bySite' },
  ],
})
