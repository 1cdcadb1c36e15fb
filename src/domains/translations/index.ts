import { defineArea } from '../area.js'
import { translationsCollections } from './rows.js'
import { translationHandlers } from './handlers.js'
import { translationSeedRules } from './seed.js'
import { translationResumer } from './resume.js'
import { removeSpaceTranslations } from './model.js'

/** The translations area (see domains/area.ts). */
export const translationsArea = defineArea({
  name: 'translations',
  collections: translationsCollections,
  operations: translationHandlers,
  seed: translationSeedRules,
  resumers: [translationResumer],
  services: (options) => (options.translate ? { translate: options.translate } : {}),
  owned: [{ collections: ['translations'], owner: 'spaces', remove: removeSpaceTranslations }],
})
