/**
 * One Git Sync operation at a time per space: each job waits for the space's jobs requested
 * before it, then runs. A space's imports and exports all touch the same branch and the same
 * record of the last synced commit: run side by side, a newer export read the commit the older
 * one was about to replace and pushed over a branch that moved under it. In line, a job whose
 * operation a newer request replaced while it waited finds it is no longer current and ends
 * without touching the remote, so a burst of requests costs one operation.
 *
 * And at most `maxConcurrentJobs` at once across spaces (the `gitSync` option): a job holds a
 * whole repository in memory (up to the 200 MiB a remote may send, and what reading it costs), so
 * many spaces syncing at once must not add up without bound. A job whose space's turn came waits
 * for a free slot, first come first served. Kept per API instance (core/services.ts), outside
 * the store: a queue holds promises, not state.
 */
export interface GitSyncQueue {
  /** Run `work` once the space's earlier jobs ended (whether they succeeded or not) and a slot is free. */
  enqueue<T>(space: string, work: () => Promise<T>): Promise<T>
}

export interface GitSyncOptions {
  /**
   * How many Git Sync jobs (imports and exports) may run at once across spaces; the others wait
   * their turn (a space's own jobs always run one at a time, in order).
   * @default 2
   */
  maxConcurrentJobs?: number
}

/** Jobs running at once by default: each may hold a repository of up to 200 MiB in memory. */
export const DEFAULT_MAX_CONCURRENT_JOBS = 2

declare module '../../core/services.js' {
  interface Services {
    /** The per-space queue of Git Sync jobs (domains/git-sync). */
    gitSync: GitSyncQueue
  }
}

/** At most `limit` holders at once; the others wait in the order they asked. */
function slots(limit: number) {
  let free = limit
  const waiting: Array<() => void> = []
  return {
    async take(): Promise<void> {
      if (free > 0) {
        free--
        return
      }
      await new Promise<void>((resolve) => waiting.push(resolve))
    },
    give(): void {
      // The slot goes straight to the next waiter, so no job taking one later overtakes it.
      const next = waiting.shift()
      if (next) next()
      else free++
    },
  }
}

export function createGitSyncQueue(options: GitSyncOptions = {}): GitSyncQueue {
  const limit = options.maxConcurrentJobs ?? DEFAULT_MAX_CONCURRENT_JOBS
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError(`gitSync.maxConcurrentJobs must be a whole number, 1 or more (got ${limit})`)
  const running = slots(limit)
  const tails = new Map<string, Promise<unknown>>()
  const inSlot = async <T>(work: () => Promise<T>): Promise<T> => {
    await running.take()
    try {
      return await work()
    } finally {
      running.give()
    }
  }
  return {
    enqueue(space, work) {
      const before = tails.get(space) ?? Promise.resolve()
      const run = before.then(() => inSlot(work))
      const tail = run.then(
        () => undefined,
        () => undefined,
      )
      tails.set(space, tail)
      // The last job of a burst leaves no entry behind.
      void tail.then(() => {
        if (tails.get(space) === tail) tails.delete(space)
      })
      return run
    },
  }
}
