/**
 * The request journal: each request the API answered, newest last, for tests to inspect what
 * their code under test sent and got. Bounded: past `limit` entries the oldest are dropped.
 * Bodies are kept as the JSON text that went over the wire and parsed when first read, so
 * recording costs a push, not a copy.
 */
export interface JournalEntry {
  /** Order of arrival, from 1 (keeps counting across `clear()`). */
  readonly seq: number
  /** When the request was answered, from the API's clock (ISO string). */
  readonly time: string
  readonly method: string
  /** The path routed (after `basePath`), without the query. */
  readonly path: string
  /** The query string, without `?` ('' when none). */
  readonly query: string
  /** The operation the request reached (an official one answered 501 included); undefined when no route matched. */
  readonly operationId: string | undefined
  /** The authenticated caller's user id; undefined when the request was not authenticated. */
  readonly user: string | undefined
  readonly status: number
  /** True when a fault from `api.faults` answered (or delayed) the request. */
  readonly fault: boolean
  /** The request body as JSON (the raw text when it is not JSON); undefined when there was none. */
  readonly requestBody: unknown
  /** The response body as JSON; undefined for answers without a body. */
  readonly responseBody: unknown
}

/** What a filter may say of an entry: every field given must match. */
export interface JournalFilter {
  operationId?: string
  status?: number
  method?: string
  user?: string
  path?: string
}

export interface Journal {
  /** Every entry kept, oldest first. */
  readonly entries: readonly JournalEntry[]
  /** The entries matching `filter`, oldest first. */
  find(filter?: JournalFilter): JournalEntry[]
  /** The newest entry matching `filter`. */
  last(filter?: JournalFilter): JournalEntry | undefined
  /** Forget every entry. */
  clear(): void
  /** How many entries are kept at most. */
  readonly limit: number
}

/**
 * What the fetch handler records about one answered request, kept as it is (one object per
 * request); the entry a test reads is made from it then.
 */
export interface JournalRecord {
  /** Set by the journal when it records. */
  seq: number
  /** From the API's clock; formatted only when read. */
  time: Date
  method: string
  path: string
  query: string
  operationId: string | undefined
  user: string | undefined
  status: number
  fault: boolean
  requestText: string | undefined
  responseText: string | undefined
}

const parse = (text: string | undefined): unknown => {
  if (text === undefined) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * The entry of a record. The bodies are getters, parsed on each read: every reader gets its own
 * copy, so no test can change what another sees (and JSON.stringify of an entry includes them).
 */
function entryOf({ requestText, responseText, time, ...fields }: JournalRecord): JournalEntry {
  return {
    ...fields,
    time: time.toISOString(),
    get requestBody() {
      return parse(requestText)
    },
    get responseBody() {
      return parse(responseText)
    },
  }
}

const matches = (e: JournalEntry, f: JournalFilter): boolean =>
  (f.operationId === undefined || e.operationId === f.operationId) &&
  (f.status === undefined || e.status === f.status) &&
  (f.method === undefined || e.method === f.method.toUpperCase()) &&
  (f.user === undefined || e.user === f.user) &&
  (f.path === undefined || e.path === f.path)

/** A journal keeping the newest `limit` entries (0 records nothing). */
export function createJournal(limit: number): Journal & { record(r: JournalRecord): void } {
  if (!Number.isInteger(limit) || limit < 0) throw new Error(`journal limit must be a whole number >= 0, got ${limit}`)
  // A ring buffer of the records themselves: recording is O(1) and allocates nothing more,
  // however full the journal is; entries are made when a test reads them.
  const ring: JournalRecord[] = []
  let start = 0
  let seq = 0
  const ordered = (): JournalEntry[] => (start === 0 ? ring : [...ring.slice(start), ...ring.slice(0, start)]).map(entryOf)
  return {
    limit,
    get entries() {
      return ordered()
    },
    find: (filter = {}) => ordered().filter((e) => matches(e, filter)),
    last(filter = {}) {
      const all = ordered()
      for (let i = all.length - 1; i >= 0; i--) if (matches(all[i]!, filter)) return all[i]
      return undefined
    },
    clear() {
      ring.length = 0
      start = 0
    },
    record(r) {
      r.seq = ++seq
      if (limit === 0) return
      if (ring.length < limit) ring.push(r)
      else {
        ring[start] = r
        start = (start + 1) % limit
      }
    },
  }
}
