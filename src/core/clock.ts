/**
 * A clock a test (or the control plane, `/_admin/clock`) can set and advance. `createClock` of
 * `docs-content-api/testing` makes one; its `now` carries the clock under a global symbol, so an
 * API given `now: clock.now` is known to have a controllable clock (across bundles of the package).
 */
export interface ControllableClock {
  now(): Date
  set(date: Date | string): void
  advance(ms: number): void
}

const CLOCK = Symbol.for('docs-content-api.clock')

/** Mark `clock.now` as belonging to `clock`, and return the clock. */
export function markClock<C extends ControllableClock>(clock: C): C {
  Object.defineProperty(clock.now, CLOCK, { value: clock })
  return clock
}

/** The controllable clock whose `now` this is; undefined for any other clock (the real time). */
export function clockOf(now: () => Date): ControllableClock | undefined {
  return (now as { [CLOCK]?: ControllableClock })[CLOCK]
}

/** A controllable clock that starts at `start` and moves only when set or advanced (`createClock` of `docs-content-api/testing`). */
export function createControllableClock(start: Date | string): ControllableClock {
  let t = new Date(start).getTime()
  if (Number.isNaN(t)) throw new TypeError(`not a date: ${String(start)}`)
  return markClock({
    now: (): Date => new Date(t),
    set: (date: Date | string): void => {
      t = new Date(date).getTime()
    },
    advance: (ms: number): void => {
      t += ms
    },
  })
}
