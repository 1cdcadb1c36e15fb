/**
 * The one in-process job runner for background work (processing, runs, deliveries): a request
 * answers at once and its job runs after, on the event loop. A job that throws is handed to
 * `onError` (and, in later areas, recorded on its resource); it never crashes the API.
 * `idle()` resolves once no job is pending, jobs started by jobs included.
 */
export interface JobRunner {
  /** Start `job` after the current request has answered. */
  run(name: string, job: () => unknown): void
  /** How many jobs are pending. */
  readonly pending: number
  /** Resolves when no job is pending. */
  idle(): Promise<void>
}

export function createJobRunner(onError: (error: unknown, job: string) => void): JobRunner {
  const running = new Set<Promise<void>>()
  return {
    run(name, job) {
      // A microtask later: the request that started the job answers first.
      const done: Promise<void> = Promise.resolve()
        .then(job)
        .then(
          () => undefined,
          (error: unknown) => onError(error, name),
        )
        .finally(() => running.delete(done))
      running.add(done)
    },
    get pending() {
      return running.size
    },
    async idle() {
      // A job may start others: wait until a pass finds nothing left.
      while (running.size > 0) await Promise.all([...running])
    },
  }
}
