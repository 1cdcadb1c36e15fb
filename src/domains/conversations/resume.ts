import { resumer } from '../context.js'
import { UNFINISHED } from '../common/rows.js'
import { removeIssues } from './model.js'
import { processJob } from './process.js'

/**
 * A conversation left `pending` or `processing` (a fork, a restore, a state document): processed
 * again under a new run token (a job of the old runner still in flight after a restore then
 * writes nothing). A conversation gets its issues in the one transaction that ends processing,
 * so one caught mid-run has none; a state document may still give it some: they go, as on a
 * re-ingest, so processing does not add them twice.
 */
export const conversationResumer = resumer({
  collection: 'conversations',
  unfinished: (ctx) => ctx.tx.scan('conversations', 'unfinished', UNFINISHED).map((e) => e.row),
  resume(ctx, row) {
    removeIssues(ctx, row.id)
    const next = ctx.tx.update('conversations', { ...row, status: 'pending', runToken: ctx.newId() })
    ctx.defer(`conversation-processing:${row.id}`, processJob(next.id, next.runToken))
  },
})
