import { defineArea } from '../area.js'
import { commentsCollections } from './rows.js'
import { commentHandlers } from './handlers.js'
import { commentSeedRules } from './seed.js'
import { removeSpaceComments } from './model.js'

/** The comments area (see domains/area.ts). */
export const commentsArea = defineArea({
  name: 'comments',
  collections: commentsCollections,
  operations: commentHandlers,
  seed: commentSeedRules,
  owned: [{ collections: ['comments', 'commentReplies'], owner: 'spaces', remove: removeSpaceComments }],
})
