// Helpers for tests that use the API as a test double.
import { createControllableClock } from './core/clock.js'

/**
 * Repeatable ids: `${prefix}1`, `${prefix}2`, ... (pass as the `ids` option).
 * @example createDocsApi({ ids: sequentialIds('id') })
 */
export function sequentialIds(prefix = 'id'): () => string {
  let n = 0
  return () => `${prefix}${++n}`
}

/**
 * A clock a test can set and advance (pass `clock.now` as the `now` option). An API given it is
 * known to have a controllable clock: its control plane (`/_admin/clock`) can set and advance it.
 */
export function createClock(start: Date | string = '2026-01-01T00:00:00.000Z') {
  return createControllableClock(start)
}

export { runStorageSuite, suiteSchema } from './storage/suite.js'
export type { SuiteRunner, SuiteOptions, SuiteSchema } from './storage/suite.js'

/** The demo data (an organization with users, a collection, spaces and a published site) as a state document. */
export { createDemoState, seedDemo, type DemoData } from './demo.js'
