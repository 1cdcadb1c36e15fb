import type { BearerGrant } from '../core/context.js'
import type { BoundOperation } from '../core/operation.js'
import type { Services } from '../core/services.js'
import type { ReadTx, Schema } from '../storage/port.js'
import type { AppSchema } from './schema.js'
import type { DocsApiOptions } from '../api.js'
import type { SeedRule } from '../state/seed.js'
import type { Resumer } from './context.js'
import type { Hooks } from './hooks.js'
import type { Owned } from './ownership.js'

/**
 * One area of the API as one object, listed once in domains/index.ts (better-auth's plugins and
 * oRPC's routers are the models): everything the API is built from (the operation table, the
 * storage schema, the seed rules, the resumers, the services, what removing a row removes, the
 * hooks) is derived from that list. An area imports only areas below it (no cycle:
 * test/package/area-cycles.test.ts). See docs/contributing.md.
 */
export interface Area<C extends Schema = Schema> {
  /** The area's folder name under src/domains. */
  name: string
  /** The collections the area stores (its rows.ts), indexes included; `{}` when it stores none. */
  collections: C
  /** Its operations, bound to their handlers (`implement(table, handlers)`). */
  operations?: readonly BoundOperation[]
  /** How its collections are loaded from a state document, dependencies first (state/seed.ts). */
  // `any`: each rule keeps its own collection's row type (as the storage schema's `Schema` does).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  seed?: ReadonlyArray<SeedRule<any>>
  /** How it takes up unfinished background work (core/resume.ts). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  resumers?: ReadonlyArray<Resumer<any>>
  /** The services it takes from the API's options, and its per-API state (core/services.ts). */
  services?(options: DocsApiOptions): Partial<Services>
  /** A short-lived ticket (core/tickets.ts) was dropped: release what the area kept for it. */
  ticketDropped?(services: Services, data: unknown): void
  /** The API went back to a snapshot: forget what the area derived from the state it left. */
  restored?(services: Services): void
  /** Rows of its collections that hang off rows of other collections (domains/ownership.ts). */
  owned?: readonly Owned[]
  /** What it does when something happens to rows of areas below it, which import none of it (domains/hooks.ts). */
  hooks?: Hooks
  /**
   * A bearer that is not one of the API's opaque tokens: the grant of a token the area issued
   * (undefined when it is not one of its own, or no longer valid). `read` reads the store (an
   * installation token is a row).
   */
  bearer?(services: Services, token: string, now: Date, read: ReadStore): Promise<BearerGrant | undefined> | undefined
}

/** A read of the store, for `bearer`. */
export type ReadStore = <T>(fn: (tx: ReadTx<AppSchema>) => T) => T

/** Declare an area (an identity function that keeps its collections' types). */
export function defineArea<const C extends Schema>(area: Area<C>): Area<C> {
  return area
}
