import { z } from 'zod'
import type { Role } from '../../core/roles.js'
import type { MergeRulesSchema, StandaloneMergeRulesSchema } from './schemas.js'
import { collection } from '../../storage/port.js'

/**
 * The rows the common area stores and its collections (indexes included); the storage schema
 * is assembled from every area's collections (domains/schema.ts). Rows hold state only: what can be
 * derived (urls, permissions, counts held by indexes) is computed when a resource is encoded.
 * Each row's schema is written once here; the seed rules (seed.ts) add the defaults a loaded row gets.
 */

/** Merge rules of a space (may inherit) and of an organization (standalone). */
export type MergeRules = z.output<typeof MergeRulesSchema>

export type StandaloneMergeRules = z.output<typeof StandaloneMergeRulesSchema>

/** A space's or collection's default level: a role, `null` (no default access) or `inherit` (from the parent). */
export type DefaultLevel = Role | null | 'inherit'

/**
 * `schema`, its output typed read-only (arrays shared between frozen rows, records): a type only,
 * nothing is frozen when it parses. The store freezes rows deeply as they are written
 * (storage/freeze.ts) and stops at whatever is frozen already, so zod's `.readonly()` (which
 * freezes the array, not what it holds) would leave the objects inside a loaded row unfrozen.
 */
export const readOnly = <T extends z.ZodType>(schema: T): z.ZodType<Readonly<z.output<T>>, z.input<T>> => schema as never

/** A named counter (see domains/common/sequence.ts). */
export const SequenceRowSchema = z.strictObject({ id: z.string().min(1), value: z.number().int().min(0) })
export type SequenceRow = z.output<typeof SequenceRowSchema>

/**
 * Root keys made so far, one string per organization id: indexing a row compares and hashes its
 * keys, and the same string object each time compares by identity and keeps its hash, where a
 * new concatenation per call would be built, flattened and hashed again on every write. Bounded:
 * cleared when it reaches 4,096 organizations (a cache, not a registry).
 */
const rootKeys = new Map<string, string>()

/** Sibling key for items at the root of an organization (no parent collection). */
export function rootKey(organization: string): string {
  let key = rootKeys.get(organization)
  if (key === undefined) {
    if (rootKeys.size >= 4096) rootKeys.clear()
    rootKeys.set(organization, (key = `org:${organization}`))
  }
  return key
}

/** How many organizations' root keys the cache holds now: for tests (test/perf/root-key.test.ts). */
export const rootKeyCacheSize = (): number => rootKeys.size

export const parentKey = (row: { organization: string; parent?: string }): string => row.parent ?? rootKey(row.organization)

/**
 * The one key of the `unfinished` indexes: rows whose background work has not reached a final
 * state, which the areas' resumers take up again after a fork, a restore or a load (core/resume.ts).
 */
export const UNFINISHED = 'unfinished'

/** The collections the common area stores, with their indexes. */
export const commonCollections = {
  sequences: collection<SequenceRow>(),
}
