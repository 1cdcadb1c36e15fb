/**
 * Source paths and how they are compared. GitBook resolves published URLs case-insensitively, "so
 * two redirects that differ only in capitalization are treated as the same path" (its site
 * redirects guide), and the renderer asks with each segment percent-encoded its own way
 * (`encodeURIComponent`): a path is compared in one spelling, each segment decoded and encoded
 * again the same way and ASCII letters lower-cased, so `/Caf%C3%A9`, `/caf%c3%a9` and `/café` are one.
 */

/** Characters `encodeURIComponent` leaves as they are that the official source pattern does not allow. */
const NOT_IN_SOURCES = /[!'()*]/g

function encodeSegment(text: string): string {
  return encodeURIComponent(text).replace(NOT_IN_SOURCES, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** One segment in the compared spelling (as sent when it is not a valid escape sequence: `%C3` alone). */
function spellSegment(segment: string): string {
  try {
    return encodeSegment(decodeURIComponent(segment))
  } catch {
    return segment
  }
}

/** Whether a source is a wildcard (`/docs/*`, `/changelog*`). */
export const isWildcard = (source: string): boolean => source.endsWith('*')

/**
 * A path in the compared spelling, case kept: each segment percent-encoded one way. A wildcard's
 * `*` stays at its end.
 */
export function spellPath(path: string): string {
  const wildcard = isWildcard(path)
  const body = wildcard ? path.slice(0, -1) : path
  return body.split('/').map(spellSegment).join('/') + (wildcard ? '*' : '')
}

/** The key two sources are compared by: the spelled path, ASCII letters (and escapes) lower-cased. */
export const sourceKey = (path: string): string => spellPath(path).toLowerCase()

/**
 * A path as a caller may hand it (a URL's path, with or without its leading slash, a trailing
 * slash, a query or a fragment) in the form of a source: leading slash, no trailing slash, no
 * query or fragment. `/` stays `/`.
 */
export function normalizeSitePath(raw: string): string {
  const cut = raw.search(/[?#]/)
  const path = (cut < 0 ? raw : raw.slice(0, cut)).replace(/\/+$/, '')
  return path.startsWith('/') ? path || '/' : `/${path}`
}

/** A path of segments (already decoded) in the spelling of sources: `['a b', 'c']` is `/a%20b/c`. */
export const pathOfSegments = (segments: readonly string[]): string => `/${segments.map(encodeSegment).join('/')}`

/** Join a path and the part a wildcard matched (`/help` and `/install`: `/help/install`). */
export function appendSuffix(path: string, suffix: string): string {
  if (!suffix) return path
  return path.replace(/\/+$/, '') + suffix
}
