import type { Context } from './context.js'
import type { RowOf, Schema, SharedStore } from '../storage/port.js'

/**
 * Background work belongs to the job runner of one API, but the rows that show it travel: a fork
 * copies them, `restore()` / `reset()` bring back a state whose jobs are gone (or superseded, see
 * `JobRunner.supersede`), a state document carries them. A row left `pending` or in progress with
 * no job behind it would stay so for good. So each area that runs jobs declares a resumer (declared
 * by its area module, as seed rules are): its rows in a non-final state, and how to take each
 * one up again: a new run token (so a job of the old runner still in flight writes nothing) and
 * its job deferred again, or, when the work cannot be redone, a final state that says why.
 * Rows in a final state are never touched, so nothing done is done twice.
 */
export interface Resumer<S extends Schema = Schema, C extends keyof S & string = keyof S & string> {
  collection: C
  /** The collection's rows in a non-final state (read from an index of them: O(unfinished rows)). */
  unfinished(ctx: Context<S>): ReadonlyArray<RowOf<S, C>>
  /** Take one up again, in the caller's transaction (its jobs start once that commits). */
  resume(ctx: Context<S>, row: RowOf<S, C>): void
}

/**
 * Run the resumers in `ctx`'s transaction: every unfinished row, or only those `only` accepts
 * (the rows a state document just loaded into a running API, whose other rows have their jobs).
 */
export function resumeWork(ctx: Context, resumers: readonly Resumer[], only?: (collection: string, id: string) => boolean): void {
  for (const r of resumers) {
    for (const row of r.unfinished(ctx) as ReadonlyArray<{ id: string }>) {
      if (!only || only(r.collection, row.id)) r.resume(ctx, row as never)
    }
  }
}

/**
 * On a store several processes share: take up the work of a process that died. Each job holds a
 * lease named after it (`<kind>:<row id>#<uuid>`, core/jobs.ts); every `everyMs` this looks for
 * unfinished rows whose id no live lease names, and resumes those it found so twice in a row (a
 * job just deferred takes its lease a moment after its transaction commits). Resuming gives the
 * row a new run token, so a job of the dead process, were it somehow still running, writes nothing.
 * Returns a function that stops the watch.
 */
export function watchAbandonedWork(options: {
  shared: SharedStore
  resumers: readonly Resumer[]
  /** Run `fn` in a system transaction (inside `shared.exclusive`). */
  system: (fn: (ctx: Context) => void) => void
  /** Run `fn` in a read with a system context. */
  read: <T>(fn: (ctx: Context) => T) => T
  everyMs: number
  onError: (error: unknown) => void
}): () => void {
  const { shared, resumers, system, read, everyMs, onError } = options
  let seen = new Set<string>()
  let busy = false
  let stopped = false
  /** The unfinished rows, read from this process's replica (no query, no lock): `collection\0id` each. */
  const unfinished = (): string[] =>
    read((ctx) => resumers.flatMap((r) => (r.unfinished(ctx) as ReadonlyArray<{ id: string }>).map((row) => `${r.collection}\u0000${row.id}`)))
  const round = async () => {
    // Nothing unfinished (the common case): no lease query, no lock.
    const candidates = unfinished()
    if (candidates.length === 0) {
      seen = new Set()
      return
    }
    const ids = new Set<string>()
    for (const lease of await shared.leased()) {
      // `<kind>:<row id>#<uuid>` (core/jobs.ts): the row id.
      const name = lease.split('#')[0]!
      ids.add(name.slice(name.lastIndexOf(':') + 1))
    }
    const now = new Set(candidates.filter((key) => !ids.has(key.slice(key.indexOf('\u0000') + 1))))
    const due = [...now].filter((key) => seen.has(key))
    seen = now
    if (due.length === 0) return
    const take = new Set(due)
    await shared.exclusive(() => system((ctx) => resumeWork(ctx, resumers, (collection, id) => take.has(`${collection}\u0000${id}`))))
  }
  const timer = setInterval(() => {
    if (busy || stopped) return
    busy = true
    round()
      .catch((error: unknown) => {
        if (/closed/.test(String((error as Error)?.message))) stop()
        else onError(error)
      })
      .finally(() => (busy = false))
  }, everyMs)
  ;(timer as { unref?: () => void }).unref?.()
  const stop = () => {
    stopped = true
    clearInterval(timer)
  }
  return stop
}
