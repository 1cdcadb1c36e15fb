import type { JsonText } from '../core/large-text.js'
/**
 * The request journal: each request the API answered, newest last, for tests to inspect what
 * their code under test sent and got. Bounded three ways, so no caller can grow a served
 * instance's memory through it: past `limit` entries the oldest are dropped; each body is kept up
 * to `bodyLimit` characters (the entry says it was cut, and how long the body was); and past
 * `sizeLimit` characters of bodies, paths and queries in all, the oldest entries are dropped.
 * Bodies are kept as the JSON text that went over the wire and parsed when first read, so
 * recording costs a push, not a copy (but for a body past `bodyLimit`, whose kept part is copied
 * once so the whole text can be collected).
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
  /**
   * The request body as JSON (the raw text when it is not JSON); undefined when there was none.
   * A body longer than the journal's `bodyLimit` is the text of its first `bodyLimit` characters
   * (a string, not parsed: a cut JSON text is no JSON), and `truncated.requestBody` says so.
   */
  readonly requestBody: unknown
  /** The response body as JSON; undefined for answers without a body, and for bytes (a download, a PDF). Cut as `requestBody` is. */
  readonly responseBody: unknown
  /**
   * Undefined when both bodies were kept whole; else, for each body that was cut, its full length
   * in characters (its `requestBody` or `responseBody` is then the text of its first `bodyLimit`).
   */
  readonly truncated: { readonly requestBody?: number; readonly responseBody?: number } | undefined
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
  /** How many characters of each body are kept at most (the rest is cut). */
  readonly bodyLimit: number
  /** How many characters the entries kept may hold in all (bodies, paths and queries); past it the oldest go, the newest always stays. */
  readonly sizeLimit: number
  /** How many characters the entries kept hold now (bodies, paths and queries: at most `sizeLimit`, but for a lone newest entry). */
  readonly size: number
}

export interface JournalLimits {
  /** Entries kept at most (0 keeps none). */
  limit: number
  /** Characters of each body kept at most. */
  bodyLimit: number
  /** Characters of the entries kept in all. */
  sizeLimit: number
}

/** Characters of a body the journal keeps by default: 64 Ki (64 KiB of ASCII text). */
export const JOURNAL_BODY_LIMIT = 64 * 1024
/** Characters the journal keeps in all by default: 16 Mi (16 MiB of ASCII text, at most twice that in memory). */
export const JOURNAL_SIZE_LIMIT = 16 * 1024 * 1024

/**
 * What the fetch handler records about one answered request, kept as it is (one object per
 * request); the entry a test reads is made from it then. The journal cuts the bodies and keeps
 * its accounting in the last three fields.
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
  /** What the request sent: a long body may be in parts until the journal keeps its head (`record`). */
  requestText: JsonText | undefined
  responseText: JsonText | undefined
  /** Set by the journal: the full length of each body it cut. */
  truncated: { requestBody?: number; responseBody?: number } | undefined
  /** Set by the journal: the characters it counts for this record. */
  size: number
  /** Set by the journal: whether the record is still kept (a stream may end after it was dropped). */
  kept: boolean
}

/** The journal as the fetch handler uses it. */
export interface RecordingJournal extends Journal {
  record(r: JournalRecord): void
  /**
   * The response text of a record known only later (a stream's, once sent): the first
   * `bodyLimit` characters of it, and the full `length`.
   */
  respond(r: JournalRecord, text: string, length: number): void
}

const parse = (text: string | undefined, cut: number | undefined): unknown => {
  if (text === undefined || cut !== undefined) return text
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
function entryOf({ requestText, responseText, time, truncated, size: _size, kept: _kept, ...fields }: JournalRecord): JournalEntry {
  return {
    ...fields,
    time: time.toISOString(),
    get requestBody() {
      return parse(requestText === undefined ? undefined : String(requestText), truncated?.requestBody)
    },
    get responseBody() {
      return parse(responseText === undefined ? undefined : String(responseText), truncated?.responseBody)
    },
    truncated: truncated && { ...truncated },
  }
}

const matches = (e: JournalEntry, f: JournalFilter): boolean =>
  (f.operationId === undefined || e.operationId === f.operationId) &&
  (f.status === undefined || e.status === f.status) &&
  (f.method === undefined || e.method === f.method.toUpperCase()) &&
  (f.user === undefined || e.user === f.user) &&
  (f.path === undefined || e.path === f.path)

/**
 * The first `limit` characters of `text`, as a string of their own. A slice of a long string may
 * keep the whole of it alive (V8 makes it a view); a copy lets the rest be collected. A surrogate
 * pair is not split. The copy: one character and the slice joined, read once (which makes V8 copy
 * them into one flat string and drop its hold on the slice), then sliced again: a view of that
 * copy of `limit` + 1 characters. Much cheaper than a round trip through UTF-8, which cost a
 * large answer a noticeable share of its time (the figures are in bench/README.md).
 */
export function headOf(text: JsonText, limit: number): string {
  let end = limit
  const last = text.charCodeAt(end - 1)
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--
  const joined = ` ${text.slice(0, end)}`
  joined.charCodeAt(0)
  return joined.slice(1)
}

const whole = (name: string, value: number, min: number) => {
  if (!Number.isInteger(value) || value < min) throw new Error(`journal ${name} must be a whole number >= ${min}, got ${value}`)
}

/** A journal keeping the newest entries within `limits`. */
export function createJournal({ limit, bodyLimit, sizeLimit }: JournalLimits): RecordingJournal {
  whole('limit', limit, 0)
  whole('body limit', bodyLimit, 0)
  whole('size limit', sizeLimit, 0)
  // The records themselves, oldest first from `head` (slots before it are dropped ones, given
  // back now and then): recording and dropping are O(1); entries are made when a test reads them.
  let records: Array<JournalRecord | undefined> = []
  let head = 0
  let seq = 0
  let size = 0
  const count = () => records.length - head
  const dropOldest = () => {
    const r = records[head]!
    records[head++] = undefined
    r.kept = false
    size -= r.size
    if (head >= 1024 && head * 2 >= records.length) {
      records = records.slice(head)
      head = 0
    }
  }
  /** Within the limits again: the oldest go first, the newest stays. */
  const settle = () => {
    while (count() > limit || (size > sizeLimit && count() > 1)) dropOldest()
  }
  const cut = (text: JsonText | undefined, which: 'requestBody' | 'responseBody', r: JournalRecord, length = text?.length ?? 0): string | undefined => {
    if (text === undefined || length <= bodyLimit) return text === undefined ? text : String(text)
    r.truncated = { ...r.truncated, [which]: length }
    return text.length > bodyLimit ? headOf(text, bodyLimit) : String(text)
  }
  const ordered = (): JournalEntry[] => {
    const out: JournalEntry[] = []
    for (let i = head; i < records.length; i++) out.push(entryOf(records[i]!))
    return out
  }
  return {
    limit,
    bodyLimit,
    sizeLimit,
    get size() {
      return size
    },
    get entries() {
      return ordered()
    },
    find: (filter = {}) => ordered().filter((e) => matches(e, filter)),
    last(filter = {}) {
      for (let i = records.length - 1; i >= head; i--) {
        const entry = entryOf(records[i]!)
        if (matches(entry, filter)) return entry
      }
      return undefined
    },
    clear() {
      for (let i = head; i < records.length; i++) records[i]!.kept = false
      records = []
      head = 0
      size = 0
    },
    record(r) {
      r.seq = ++seq
      if (limit === 0) return
      r.requestText = cut(r.requestText, 'requestBody', r)
      r.responseText = cut(r.responseText, 'responseBody', r)
      r.size = r.path.length + r.query.length + (r.requestText?.length ?? 0) + (r.responseText?.length ?? 0)
      r.kept = true
      records.push(r)
      size += r.size
      settle()
    },
    respond(r, text, length) {
      const kept = cut(text, 'responseBody', r, length)
      const before = r.responseText?.length ?? 0
      r.responseText = kept
      if (!r.kept) return
      const added = (kept?.length ?? 0) - before
      r.size += added
      size += added
      settle()
    },
  }
}
