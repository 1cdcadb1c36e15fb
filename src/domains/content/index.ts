import { defineArea } from '../area.js'
import { contentCollections } from './rows.js'
import { contentHandlers } from './handlers.js'
import { contentSeedRules } from './seed.js'
import { copyMainContent } from './copy.js'
import { removeSpaceContent } from './purge.js'

/** The content area (see domains/area.ts). */
export const contentArea = defineArea({
  name: 'content',
  collections: contentCollections,
  operations: contentHandlers,
  seed: contentSeedRules,
  owned: [{ collections: ['revisions', 'contentBuckets', 'pageVersions', 'reusableContentVersions', 'files'], owner: 'spaces', remove: removeSpaceContent }],
  hooks: {
    // A duplicated space gets a copy of the main content (pages and files).
    spaceDuplicated: (ctx, source, copy) => {
      const revision = copyMainContent(ctx, source, copy)
      return revision && { revision: revision.id }
    },
  },
})
