import { resumer } from '../context.js'
import { UNFINISHED } from '../common/rows.js'

/**
 * A Git Sync operation left `running` (a fork, a restore, a state document) cannot be run again:
 * what it needs never reaches the store (the remote's credentials, and an export's commit
 * message, author and revision, live only in its job). It ends as a `failure` saying so, under a
 * new operation id, so a job of the old runner still in flight (after a restore) writes nothing;
 * the space's content is as it was before the operation (an import writes content only in the
 * transaction that ends it). Request the import or export again to redo it.
 */
export const INTERRUPTED =
  'the operation was interrupted (the API was forked, restored or loaded from a state document while it ran) and nothing will finish it: request it again'

export const gitSyncResumer = resumer({
  collection: 'gitSyncs',
  unfinished: (ctx) => ctx.tx.scan('gitSyncs', 'unfinished', UNFINISHED).map((e) => e.row),
  resume(ctx, row) {
    const now = ctx.nowIso()
    ctx.tx.update('gitSyncs', { ...row, operation: { ...row.operation, id: ctx.newId(), state: 'failure', error: INTERRUPTED, updatedAt: now, endedAt: now } })
  },
})
