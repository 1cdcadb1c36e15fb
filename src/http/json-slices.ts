import type { JsonText } from '../core/large-text.js'
import type { Slicer } from '../core/slices.js'

/**
 * `JSON.parse` of a large text without holding the event loop: the text is read in pieces of at
 * most CHUNK characters, each given to `JSON.parse` (native and fast), and the containers larger
 * than a piece are put together here, member by member, with a turn of the event loop whenever
 * the slice has run its budget. The value is the one `JSON.parse` gives (an own `__proto__` key
 * included); a text `JSON.parse` refuses is refused with its own error (the whole text is given
 * to it then, so the message is the same).
 *
 * Cost: each character is read by `JSON.parse` once, and scanned at most once more per container
 * above it that is larger than a piece (bounded probes: a member is scanned up to CHUNK characters
 * to find whether it fits in one piece).
 */
const CHUNK = 64 * 1024
/**
 * Containers are put together here down to this depth; below it a value is one JSON.parse call
 * whatever its size (the descent is recursive: a body nested 300,000 levels must not exhaust the
 * stack, and JSON.parse does not recurse).
 */
const MAX_DESCENT = 32

// Character codes.
const QUOTE = 34
const BACKSLASH = 92
const OPEN_OBJECT = 123
const CLOSE_OBJECT = 125
const OPEN_ARRAY = 91
const CLOSE_ARRAY = 93
const COMMA = 44
const COLON = 58

class Syntax extends Error {}

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9

export async function parseJsonInSlices(text: JsonText, slicer: Slicer): Promise<unknown> {
  if (text.length <= CHUNK) return JSON.parse(String(text))
  try {
    let i = skipSpace(text, 0)
    const { value, end } = await parseValue(text, i, slicer, 0)
    i = skipSpace(text, end)
    if (i !== text.length) throw new Syntax()
    return value
  } catch (error) {
    if (!(error instanceof Syntax) && !(error instanceof SyntaxError)) throw error
    // The text is not JSON: JSON.parse says why, in its words (and is the judge, in one piece).
    return JSON.parse(String(text))
  }
}

function skipSpace(text: JsonText, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  return i
}

/**
 * Where the value starting at `i` ends, if it ends within `limit` characters (undefined when it
 * runs longer). Strings are skipped with their escapes; brackets inside strings do not count.
 * Only the extent is found: JSON.parse checks the value itself.
 */
function extentWithin(text: JsonText, i: number, limit: number): number | undefined {
  const stop = Math.min(text.length, i + limit)
  const first = text.charCodeAt(i)
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY && first !== QUOTE) {
    // A number or a literal: up to the next delimiter.
    let j = i
    while (j < stop) {
      const c = text.charCodeAt(j)
      if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isSpace(c)) return j
      j++
    }
    return j === text.length ? j : undefined
  }
  let depth = 0
  let j = i
  while (j < stop) {
    const c = text.charCodeAt(j)
    if (c === QUOTE) {
      j++
      while (j < stop) {
        const d = text.charCodeAt(j)
        if (d === BACKSLASH) j += 2
        else if (d === QUOTE) break
        else j++
      }
      if (j >= stop) return undefined
      if (depth === 0) return j + 1
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--
      if (depth === 0) return j + 1
      if (depth < 0) throw new Syntax()
    }
    j++
  }
  return undefined
}

/** The value at `i` (no space before it) and where it ends. */
async function parseValue(text: JsonText, i: number, slicer: Slicer, depth: number): Promise<{ value: unknown; end: number }> {
  if (i >= text.length) throw new Syntax()
  const end = extentWithin(text, i, CHUNK)
  const first = text.charCodeAt(i)
  if (end !== undefined || (first !== OPEN_OBJECT && first !== OPEN_ARRAY) || depth >= MAX_DESCENT) {
    // One piece (or a string or number longer than a piece: one native call, linear in its length).
    const to = end ?? extentAtTop(text, i)
    const value = JSON.parse(text.slice(i, to))
    if (slicer.due()) await slicer.maybeYield()
    return { value, end: to }
  }
  return first === OPEN_ARRAY ? parseArray(text, i, slicer, depth + 1) : parseObject(text, i, slicer, depth + 1)
}

/** Where a value longer than a piece ends (a string, a number, or a container below the descent). */
function extentAtTop(text: JsonText, i: number): number {
  const end = extentWithin(text, i, text.length - i)
  if (end === undefined) throw new Syntax()
  return end
}

async function parseArray(text: JsonText, i: number, slicer: Slicer, depth: number): Promise<{ value: unknown[]; end: number }> {
  const out: unknown[] = []
  i = skipSpace(text, i + 1)
  if (text.charCodeAt(i) === CLOSE_ARRAY) return { value: out, end: i + 1 }
  for (;;) {
    const item = await parseValue(text, i, slicer, depth)
    out.push(item.value)
    i = skipSpace(text, item.end)
    const c = text.charCodeAt(i)
    if (c === CLOSE_ARRAY) return { value: out, end: i + 1 }
    if (c !== COMMA) throw new Syntax()
    i = skipSpace(text, i + 1)
  }
}

async function parseObject(text: JsonText, i: number, slicer: Slicer, depth: number): Promise<{ value: Record<string, unknown>; end: number }> {
  const out: Record<string, unknown> = {}
  i = skipSpace(text, i + 1)
  if (text.charCodeAt(i) === CLOSE_OBJECT) return { value: out, end: i + 1 }
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) throw new Syntax()
    const keyEnd = extentAtTop(text, i)
    const key = JSON.parse(text.slice(i, keyEnd)) as string
    i = skipSpace(text, keyEnd)
    if (text.charCodeAt(i) !== COLON) throw new Syntax()
    const member = await parseValue(text, skipSpace(text, i + 1), slicer, depth)
    // As JSON.parse makes it: `__proto__` is an own key, never the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: member.value, writable: true, enumerable: true, configurable: true })
    else out[key] = member.value
    i = skipSpace(text, member.end)
    const c = text.charCodeAt(i)
    if (c === CLOSE_OBJECT) return { value: out, end: i + 1 }
    if (c !== COMMA) throw new Syntax()
    i = skipSpace(text, i + 1)
  }
}
