import type { Runtime } from '../core/execute.js'
import type { BoundOperation } from '../core/operation.js'
import type { FaultAction, Faults, FaultTarget } from './faults.js'
import type { FetchHandlerOptions } from './fetch-handler.js'
import type { RecordingJournal } from './journal.js'
import type { StoreSnapshot } from '../storage/port.js'
import type { StateDocument } from '../state/seed.js'

/** What the control plane (`/_admin/`, http/admin.ts) does to an API: the in-process toolkit's state operations. */
export interface ApiControl {
  /** `api.reset()`: throws a TypeError where the store keeps no initial state (SQLite). */
  reset(): void
  snapshot(): StoreSnapshot
  restore(snapshot: StoreSnapshot): void
  dump(): StateDocument
  /**
   * Replace every row with those of a state document (one transaction: a refused document changes
   * nothing), once the libraries its checks use (loaded on first use) are loaded.
   */
  replace(doc: unknown): Promise<void>
  idle(): Promise<void>
  /** The named snapshots the control plane took (per API, shared by every handler over it). */
  readonly snapshots: Map<string, { snapshot: StoreSnapshot; createdAt: string }>
}

/** What the HTTP layer needs of an API: its runtime, its bound operations, its journal and faults. */
export interface ApiCore {
  runtime: Runtime
  operations: readonly BoundOperation[]
  journal: RecordingJournal
  faults: Faults & { readonly active: number; take(target: FaultTarget): FaultAction | undefined }
  /** The API's own HTTP options (`cors`, `onError`): every handler built over it starts from them. */
  http: FetchHandlerOptions
  /** The state operations of the control plane. */
  control: ApiControl
  /** The API's own `basePath` (createDocsApi's option), which `api.fetch` strips. */
  basePath?: string
  /**
   * The `fetch` createDocsApi gave the API: while `api.fetch` is still it, `toNodeHandler` runs the
   * same core without it (its Node fast path); a replaced `api.fetch` is called as it is.
   */
  fetch?: (input: Request | string | URL, init?: RequestInit) => Promise<Response>
}

/** Key under which an API object carries its core (kept off the documented surface). */
export const API_CORE = Symbol.for('docs-content-api.core')
