/**
 * One Git Sync operation at a time per space: each job waits for the space's jobs requested
 * before it, then runs. A space's imports and exports all touch the same branch and the same
 * record of the last synced commit: run side by side, a newer export read the commit the older
 * one was about to replace and pushed over a branch that moved under it. In line, a job whose
 * operation a newer request replaced while it waited finds it is no longer current and ends
 * without touching the remote, so a burst of requests costs one operation. Kept per API instance
 * (core/services.ts), outside the store: a queue holds promises, not state.
 */
export interface GitSyncQueue {
  /** Run `work` once the space's earlier jobs ended (whether they succeeded or not). */
  enqueue<T>(space: string, work: () => Promise<T>): Promise<T>
}

declare module '../../core/services.js' {
  interface Services {
    /** The per-space queue of Git Sync jobs (domains/git-sync). */
    gitSync: GitSyncQueue
  }
}

export function createGitSyncQueue(): GitSyncQueue {
  const tails = new Map<string, Promise<unknown>>()
  return {
    enqueue(space, work) {
      const before = tails.get(space) ?? Promise.resolve()
      const run = before.then(work)
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
