import { defineArea } from '../area.js'
import { spacesCollections } from './rows.js'
import { spaceHandlers } from './handlers.js'
import { spaceSeedRules } from './seed.js'
import { purgeSpace } from './lifecycle.js'

/** The spaces area (see domains/area.ts). */
export const spacesArea = defineArea({
  name: 'spaces',
  collections: spacesCollections,
  operations: spaceHandlers,
  seed: spaceSeedRules,
  owned: [
    {
      // Live and deleted spaces alike.
      collections: ['spaces'],
      owner: 'organizations',
      remove: (ctx, organization) => {
        for (const index of ['byOrganization', 'deleted'] as const) for (const { row } of ctx.tx.scan('spaces', index, organization)) purgeSpace(ctx, row.id)
      },
    },
  ],
})
