import { resumer } from '../context.js'
import { UNFINISHED } from '../common/rows.js'
import { runJob } from './run.js'

/**
 * A translation left `pending` or `running` (a fork, a restore, a state document): its run is
 * asked for again, as `runTranslation` does: a new run token (a run of the old runner still in
 * flight after a restore then writes nothing), `pending`, and the job, which plans from the
 * source as it is then.
 */
export const translationResumer = resumer({
  collection: 'translations',
  unfinished: (ctx) => ctx.tx.scan('translations', 'unfinished', UNFINISHED).map((e) => e.row),
  resume(ctx, row) {
    const { runStartedAt: _gone, ...rest } = row
    // `updatedAt` stays: nothing about the translation changed, its run is taken up again.
    const next = ctx.tx.update('translations', { ...rest, runToken: ctx.newId(), status: 'pending' })
    ctx.defer(`translation-run:${row.id}`, runJob(next.id, next.runToken))
  },
})
