import { resumer } from '../context.js'
import { UNFINISHED } from '../common/rows.js'
import { deferProcessing } from './processing.js'

/**
 * A spec left `pending` or in `progress` (a fork, a restore, a state document): processed again
 * from its `pendingSource`, under the next `run`, so a job of the old runner still in flight
 * (after a restore) writes nothing.
 */
export const openapiSpecResumer = resumer({
  collection: 'openapiSpecs',
  unfinished: (ctx) => ctx.tx.scan('openapiSpecs', 'unfinished', UNFINISHED).map((e) => e.row),
  resume(ctx, row) {
    if (!row.pendingSource) return
    deferProcessing(ctx, ctx.tx.update('openapiSpecs', { ...row, processingState: 'pending', run: row.run + 1 }))
  },
})
