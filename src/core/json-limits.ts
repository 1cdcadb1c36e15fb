import type { JsonText } from './large-text.js'
import type { Slicer } from './slices.js'

/**
 * Limits on the JSON a request sends, checked on its text before anything parses it. zod's
 * schemas, the journal's redaction, `deepFreeze`, `JSON.stringify` and the domain walks all
 * recurse once per level of nesting, so a body nested 20,000 levels deep would overflow the stack
 * in one of them (a 500, or worse); and `JSON.parse` itself, which reads it without recursing,
 * spends time on each level, which adds up in a body of `[[[[…`.
 */

/**
 * How deep objects and lists may nest in a request body (the body itself is level 1). Room for a
 * document (document-schema.ts: 128 levels) inside a body, and far below what the recursive code
 * takes on a small stack (zod's recursive schemas overflowed past 1,000 levels with a 400 KB stack).
 */
export const MAX_BODY_DEPTH = 256

export interface JsonTextShape {
  /**
   * About how many values (objects, lists, strings, numbers...) the text holds: its objects and
   * lists plus its commas, plus one. Counted up to the first level too deep.
   */
  values: number
  /** The path to the first object or list nested deeper than the limit; undefined when none is. */
  tooDeepAt: Array<string | number> | undefined
}

const QUOTE = 0x22
const BACKSLASH = 0x5c

/** The index of the quote that ends the string opening at `start` (the text's length when none does). */
function stringEnd(text: JsonText, start: number): number {
  let at = start
  for (;;) {
    const quote = text.indexOf('"', at + 1)
    if (quote < 0) return text.length
    // Escaped when an odd number of backslashes stands before it (each run is counted once).
    let before = quote - 1
    while (before > start && text.charCodeAt(before) === BACKSLASH) before--
    if ((quote - 1 - before) % 2 === 0) return quote
    at = quote
  }
}

/** A key as the text writes it, decoded (as written when it is no JSON string). */
function keyOf(text: JsonText, start: number, end: number): string {
  const raw = text.slice(start, end + 1)
  try {
    return String(JSON.parse(raw))
  } catch {
    return raw
  }
}

/**
 * The nesting and size of a JSON text, in one pass over it that reads each character once (the
 * inside of strings by `indexOf`) and stops at the first object or list deeper than `maxDepth`.
 * Malformed text gives some answer; `JSON.parse` refuses it afterwards.
 */
export function scanJsonText(text: JsonText, maxDepth = MAX_BODY_DEPTH): JsonTextShape {
  return scanner(text, maxDepth).advance(text.length)!
}

/** `scanJsonText` in slices of SCAN_SLICE characters, with a turn of the event loop whenever the slice has run its budget (a body of several MiB). */
export async function scanJsonTextInSlices(text: JsonText, slicer: Slicer, maxDepth = MAX_BODY_DEPTH): Promise<JsonTextShape> {
  const scan = scanner(text, maxDepth)
  for (let until = SCAN_SLICE; ; until += SCAN_SLICE) {
    const shape = scan.advance(until)
    if (shape) return shape
    if (slicer.due()) await slicer.maybeYield()
  }
}

const SCAN_SLICE = 256 * 1024

/** The scan of `text`, resumable: `advance(until)` reads on up to about `until` and answers the shape once the text is read (or a level is too deep). */
function scanner(text: JsonText, maxDepth: number): { advance(until: number): JsonTextShape | undefined } {
  // Per open level (1-based): whether it is a list, its current index, its current key's span.
  const isList: boolean[] = []
  const index: number[] = []
  const keyStart: number[] = []
  const keyEnd: number[] = []
  let depth = 0
  let values = 1
  let expectKey = false
  let i = 0
  return {
    advance(until) {
      const stop = Math.min(until, text.length)
      for (; i < stop; i++) {
        const c = text.charCodeAt(i)
        if (c === QUOTE) {
          const end = stringEnd(text, i)
          if (expectKey && depth > 0 && !isList[depth]) {
            keyStart[depth] = i
            keyEnd[depth] = end
            expectKey = false
          }
          i = end
        } else if (c === 0x5b || c === 0x7b) {
          // `[` or `{`
          if (depth + 1 > maxDepth) {
            const path: Array<string | number> = []
            for (let level = 1; level <= depth; level++) path.push(isList[level] ? index[level]! : keyOf(text, keyStart[level]!, keyEnd[level]!))
            return { values, tooDeepAt: path }
          }
          depth++
          values++
          isList[depth] = c === 0x5b
          index[depth] = 0
          expectKey = c === 0x7b
        } else if (c === 0x5d || c === 0x7d) {
          // `]` or `}`
          if (depth > 0) depth--
          expectKey = false
        } else if (c === 0x2c) {
          // `,`
          values++
          if (depth > 0) {
            if (isList[depth]) index[depth]!++
            else expectKey = true
          }
        }
      }
      return i >= text.length ? { values, tooDeepAt: undefined } : undefined
    },
  }
}

/**
 * A request body as a journal keeps it when part of it must not be kept: parsed as JSON (so
 * escapes hide nothing), each value rewritten by `clean` (called on every value, at any depth),
 * written again. A body that is not JSON, or nests deeper than a request body may, is not kept at
 * all (`why` says what it may hold): nothing reliable says where the secret would be. Runs before
 * validation, for any caller: linear in the text (the depth is checked on the text before the walk
 * recurses once per level), and it never throws.
 */
export function redactJsonText(text: string, why: string, clean: (value: unknown, walk: (value: unknown) => unknown) => unknown): string {
  const notKept = (what: string) => JSON.stringify(`(${what}, ${text.length} characters: not kept, as it may hold ${why})`)
  if (scanJsonText(text).tooDeepAt) return notKept(`a body nested deeper than ${MAX_BODY_DEPTH} levels`)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return notKept('a body that is not JSON')
  }
  const walk = (value: unknown): unknown => clean(value, walk)
  return JSON.stringify(walk(body))
}
