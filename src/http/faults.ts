/**
 * Fault injection for tests of retries and error handling: the next requests matching a fault
 * answer its status with the API's usual error body, or are delayed first. Faults act before
 * anything else (authentication, validation, the store), as a failing network or server would:
 * a faulted request changes nothing.
 */
export interface FaultSpec {
  /** Requests reaching this operation (official operationIds the API answers 501 for match too). */
  operationId?: string
  /**
   * Requests to this path: an exact path (`/v1/orgs/abc`), a template of the table
   * (`/v1/spaces/{spaceId}`), or a RegExp tested on the path. Paths are after `basePath`.
   */
  path?: string | RegExp
  /** Only requests with this method. */
  method?: string
  /** Answer this status (4xx or 5xx) with `{"error":{"code","message"}}` instead of handling the request. */
  status?: number
  /** The error message. @default 'Injected fault' with the status */
  message?: string
  /** Wait this long first (then answer `status`, or handle the request normally when no status is given). */
  delayMs?: number
  /** How many matching requests the fault affects, then it is spent. @default Infinity */
  times?: number
  /** Chance (0..1) that a matching request is affected, drawn from the API's `random` option. @default 1 */
  probability?: number
  /** `Retry-After` seconds on a 429 or 503. @default 1 */
  retryAfter?: number
}

export interface Fault {
  readonly spec: Readonly<FaultSpec>
  /** Matching requests affected so far. */
  readonly hits: number
  /** Whether `times` is used up. */
  readonly spent: boolean
  remove(): void
}

export interface Faults {
  add(spec: FaultSpec): Fault
  /** Faults still active, in the order added. */
  list(): Fault[]
  clear(): void
}

/** What a request looks like to the fault matcher. */
export interface FaultTarget {
  method: string
  path: string
  /** The table's (or the official document's) path template, when a route matched. */
  template: string | undefined
  operationId: string | undefined
}

/** What to do with a request: nothing, wait, answer an error, or both. */
export interface FaultAction {
  delayMs: number
  error?: { status: number; message: string; headers?: Record<string, string> }
}

function check(spec: FaultSpec): void {
  const fail = (rule: string) => {
    throw new TypeError(`faults.add: ${rule}`)
  }
  if (spec.status === undefined && spec.delayMs === undefined) fail('give a status to answer, a delayMs to wait, or both')
  if (spec.status !== undefined && (!Number.isInteger(spec.status) || spec.status < 400 || spec.status > 599))
    fail(`status must be an error status (400..599), got ${spec.status}`)
  if (spec.delayMs !== undefined && !(spec.delayMs >= 0 && Number.isFinite(spec.delayMs))) fail(`delayMs must be a finite number >= 0, got ${spec.delayMs}`)
  if (spec.times !== undefined && !(spec.times >= 1)) fail(`times must be at least 1, got ${spec.times}`)
  if (spec.probability !== undefined && !(spec.probability >= 0 && spec.probability <= 1)) fail(`probability must be between 0 and 1, got ${spec.probability}`)
}

function matches(spec: FaultSpec, t: FaultTarget): boolean {
  if (spec.method !== undefined && spec.method.toUpperCase() !== t.method) return false
  if (spec.operationId !== undefined && spec.operationId !== t.operationId) return false
  const { path } = spec
  if (path === undefined) return true
  if (path instanceof RegExp) return path.test(t.path)
  return path.includes('{') ? path === t.template : path.replace(/\/+$/, '') === t.path.replace(/\/+$/, '')
}

export function createFaults(random: () => number): Faults & { readonly active: number; take(target: FaultTarget): FaultAction | undefined } {
  interface State extends Fault {
    hits: number
  }
  let active: State[] = []
  return {
    add(spec) {
      check(spec)
      const frozen = Object.freeze({ ...spec })
      const state: State = {
        spec: frozen,
        hits: 0,
        get spent() {
          return this.hits >= (frozen.times ?? Infinity)
        },
        remove: () => {
          active = active.filter((f) => f !== state)
        },
      }
      active.push(state)
      return state
    },
    list: () => [...active],
    /** How many faults are active (the fetch handler asks nothing more of a request when none is). */
    get active() {
      return active.length
    },
    clear() {
      active = []
    },
    /** The action for a request: the first active fault that matches (and whose dice say yes). */
    take(target) {
      if (active.length === 0) return undefined
      for (const fault of active) {
        const { spec } = fault
        if (!matches(spec, target)) continue
        if (spec.probability !== undefined && spec.probability < 1 && random() >= spec.probability) continue
        fault.hits++
        if (fault.spent) fault.remove()
        if (spec.status === undefined) return { delayMs: spec.delayMs ?? 0 }
        const headers = spec.status === 429 || spec.status === 503 ? { 'retry-after': String(spec.retryAfter ?? 1) } : undefined
        const message = spec.message ?? `Injected fault: ${spec.status}`
        return { delayMs: spec.delayMs ?? 0, error: { status: spec.status, message, ...(headers && { headers }) } }
      }
      return undefined
    },
  }
}
