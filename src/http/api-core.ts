import type { Runtime } from '../core/execute.js'
import type { BoundOperation } from '../core/operation.js'
import type { FaultAction, Faults, FaultTarget } from './faults.js'
import type { FetchHandlerOptions } from './fetch-handler.js'
import type { RecordingJournal } from './journal.js'

/** What the HTTP layer needs of an API: its runtime, its bound operations, its journal and faults. */
export interface ApiCore {
  runtime: Runtime
  operations: readonly BoundOperation[]
  journal: RecordingJournal
  faults: Faults & { readonly active: number; take(target: FaultTarget): FaultAction | undefined }
  /** The API's own HTTP options (`cors`, `onError`): every handler built over it starts from them. */
  http: FetchHandlerOptions
  /** The API's own `basePath` (createDocsApi's option), which `api.fetch` strips. */
  basePath?: string
}

/** Key under which an API object carries its core (kept off the documented surface). */
export const API_CORE = Symbol.for('docs-content-api.core')
