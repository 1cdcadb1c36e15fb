/**
 * Heavy jobs (rendering a PDF...) run at most `concurrency` at a time, so the memory they hold
 * while they run stays bounded however many are asked for at once. Waiting jobs start by owner in
 * turn (the owner whose last job started longest ago first), so one owner queueing many jobs
 * delays another owner's by at most one of theirs, never by all of them.
 */
export interface FairQueue {
  run<T>(owner: string, job: () => Promise<T>): Promise<T>
  /** Jobs running now. */
  readonly running: number
}

interface Owner {
  /** Starts of the owner's waiting jobs, oldest first. */
  waiting: Array<() => void>
  running: number
  /** When the owner's last job started (a count of starts; 0: none yet). */
  lastStart: number
}

export function createFairQueue(concurrency: number): FairQueue {
  let running = 0
  let starts = 0
  /** Owners with jobs running or waiting. */
  const owners = new Map<string, Owner>()

  const next = () => {
    while (running < concurrency) {
      let turn: Owner | undefined
      for (const owner of owners.values()) if (owner.waiting.length > 0 && (!turn || owner.lastStart < turn.lastStart)) turn = owner
      if (!turn) return
      turn.lastStart = ++starts
      turn.waiting.shift()!()
    }
  }

  return {
    run(name, job) {
      let owner = owners.get(name)
      if (!owner) owners.set(name, (owner = { waiting: [], running: 0, lastStart: 0 }))
      const self = owner
      return new Promise((resolve, reject) => {
        // The slot is free again before the caller hears of the outcome.
        const done = () => {
          running--
          self.running--
          if (self.running === 0 && self.waiting.length === 0) owners.delete(name)
          next()
        }
        self.waiting.push(() => {
          running++
          self.running++
          Promise.resolve()
            .then(job)
            .then(
              (value) => (done(), resolve(value)),
              (error: unknown) => (done(), reject(error)),
            )
        })
        next()
      })
    },
    get running() {
      return running
    },
  }
}
