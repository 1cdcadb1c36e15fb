import { resumer } from '../context.js'
import { UNFINISHED } from '../common/rows.js'
import { deliveryJob } from './delivery.js'
import { updateEvent } from './events.js'

/**
 * An event whose delivery was under way (a fork, a restore, a state document): delivered again
 * from where it stood. An attempt caught in `progress` is made again under its number (the
 * handler may or may not have had it: deliveries are at least once, as the platform's are); a
 * retry that was waiting waits what is left of its delay, then goes on; an event never attempted
 * starts at attempt 1. Events that were delivered, failed or skipped are final and never resumed.
 * A job of the old runner still in flight after a restore writes nothing (core/jobs.ts
 * `supersede`), so only the resumed delivery records its outcome.
 */
export const integrationEventResumer = resumer({
  collection: 'integrationEvents',
  unfinished: (ctx) => ctx.tx.scan('integrationEvents', 'unfinished', UNFINISHED).map((e) => e.row),
  resume(ctx, row) {
    const { state, attempts, nextAttemptAt } = row.delivery
    const interrupted = state === 'progress'
    updateEvent(ctx, row.id, () => ({
      delivery: { state: 'pending', attempts, ...(nextAttemptAt !== undefined && !interrupted && { nextAttemptAt }) },
      logs: [
        {
          level: 'warn',
          message: interrupted
            ? `Attempt ${attempts} was interrupted (the API was forked, restored or loaded while it ran): it is made again`
            : 'The delivery is taken up again (the API was forked, restored or loaded)',
        },
      ],
    }))
    const from = interrupted
      ? { attempt: Math.max(1, attempts) }
      : { attempt: attempts + 1, ...(attempts > 0 && nextAttemptAt !== undefined && { nextAttemptAt }) }
    ctx.defer(`integration-event:${row.id}`, deliveryJob(row.id, from))
  },
})
