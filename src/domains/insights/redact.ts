import { redactJsonText } from '../../core/json-limits.js'

/** Session fields a tracking request carries that are never kept, in the store or the journal. */
const PRIVATE_FIELDS = new Set(['cookies', 'ip', 'visitorAuthToken'])

/**
 * A tracking request's body as the journal keeps it: parsed as JSON, the visitors' cookies, IP
 * addresses and visitor tokens (at any depth) replaced by a note, written again. A body that is
 * not JSON, or nests too deep, is not kept at all. Runs for any caller, before validation: linear
 * in the text, and it never throws.
 */
export function redactTrackingText(text: string): string {
  return redactJsonText(text, "visitors' cookies or tokens", (value, walk) => {
    if (Array.isArray(value)) return value.map(walk)
    if (value === null || typeof value !== 'object') return value
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, PRIVATE_FIELDS.has(k) ? '(not kept)' : walk(v)]))
  })
}
