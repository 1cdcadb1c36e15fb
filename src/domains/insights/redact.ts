import { MAX_BODY_DEPTH, scanJsonText } from '../../core/json-limits.js'

/** Session fields a tracking request carries that are never kept, in the store or the journal. */
const PRIVATE_FIELDS = new Set(['cookies', 'ip', 'visitorAuthToken'])

/**
 * A tracking request's body as the journal keeps it: parsed as JSON, the visitors' cookies, IP
 * addresses and visitor tokens (at any depth) replaced by a note, written again. A body that is
 * not JSON, or nests too deep, is not kept at all. Runs for any caller, before validation: linear
 * in the text, and it never throws.
 */
export function redactTrackingText(text: string): string {
  const notKept = (what: string) => JSON.stringify(`(${what}, ${text.length} characters: not kept, as it may hold visitors' cookies or tokens)`)
  if (scanJsonText(text).tooDeepAt) return notKept(`a body nested deeper than ${MAX_BODY_DEPTH} levels`)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return notKept('a body that is not JSON')
  }
  const clean = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(clean)
    if (value === null || typeof value !== 'object') return value
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, PRIVATE_FIELDS.has(k) ? '(not kept)' : clean(v)]))
  }
  return JSON.stringify(clean(body))
}
