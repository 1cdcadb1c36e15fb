import fc from 'fast-check'

/**
 * Runs and seed of every property in test/fuzz. CI runs the defaults (a fixed seed, so a red run
 * is repeatable); a long local run sets `FUZZ_RUNS` (runs per property, replacing each default)
 * and `FUZZ_SEED`, e.g. `FUZZ_RUNS=2000 FUZZ_SEED=$RANDOM npx vitest run test/fuzz`.
 * A failure prints the seed and path to replay it, the shrunk request and the answer.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20260301)
const runsOverride = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : undefined

/** Default runs per property, chosen so the whole directory stays well under a minute on 2 cores. */
export const RUNS = {
  /** Valid inputs, per operation. */
  valid: 16,
  /** Hostile inputs, per operation. */
  hostile: 16,
  /** A hidden or unknown parent in the path, per operation that has one. */
  parent: 12,
  /** Random interleavings of concurrent writes (each run sends a whole batch). */
  concurrency: 3,
} as const

/** A concurrency run sends a whole batch of 1,000 requests, so `FUZZ_RUNS` counts for it in hundreds. */
export function runs(kind: keyof typeof RUNS): number {
  if (runsOverride === undefined) return RUNS[kind]
  return kind === 'concurrency' ? Math.max(1, Math.ceil(runsOverride / 100)) : runsOverride
}

/**
 * fast-check parameters for a property of `kind`. `salt` (an operation id, say) varies the seed
 * per test, so every operation does not draw the same sequence of callers and choices.
 */
export function params(kind: keyof typeof RUNS, salt = ''): fc.Parameters<unknown> {
  let seed = FUZZ_SEED
  for (const ch of salt) seed = (Math.imul(seed, 31) + ch.charCodeAt(0)) | 0
  // A failing batch of 1,000 concurrent writes is not shrunk: each try replays the whole batch,
  // and a smaller, sequential-looking batch would not show a race anyway.
  return { numRuns: runs(kind), seed, verbose: fc.VerbosityLevel.None, endOnFailure: kind === 'concurrency' }
}

/** A larger per-test timeout for long local runs. */
export const timeout = (kind: keyof typeof RUNS) => Math.max(20_000, runs(kind) * 400)
