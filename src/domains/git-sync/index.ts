import { defineArea } from '../area.js'
import { gitSyncCollections } from './rows.js'
import { gitSyncHandlers } from './handlers.js'
import { gitSyncSeedRules } from './seed.js'
import { gitSyncResumer } from './resume.js'
import { createGitSyncQueue } from './queue.js'
import { createRepoCache } from './repo-cache.js'

/** The git-sync area (see domains/area.ts). */
export const gitSyncArea = defineArea({
  name: 'git-sync',
  collections: gitSyncCollections,
  operations: gitSyncHandlers,
  seed: gitSyncSeedRules,
  resumers: [gitSyncResumer],
  services: (options) => ({ gitSync: createGitSyncQueue(options.gitSync), gitSyncRepos: createRepoCache() }),
  owned: [
    {
      // A space's Git Sync row has the space's id.
      collections: ['gitSyncs'],
      owner: 'spaces',
      remove: (ctx, space) => void (ctx.tx.get('gitSyncs', space) && ctx.tx.delete('gitSyncs', space)),
    },
  ],
})
