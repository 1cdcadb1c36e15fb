import { STEP, type Steps } from './steps.js'
import type { ValueError } from './yaml-value.js'

/**
 * The value of a JSON text, read in slices. `JSON.parse` is one call that cannot yield (a 10 MiB
 * spec holds the event loop for it), and yaml reads JSON much slower than this; here a loop
 * with its own stack (no recursion) yields every `STEP` values, refuses duplicate keys (which
 * `JSON.parse` would silently merge, and yaml refuses) and nesting deeper than `maxDepth`.
 * Strings without escapes are cut from the text; with escapes, `JSON.parse` reads that one string.
 *
 * Undefined when the text is not strict JSON (a syntax error, or YAML written in flow style): the
 * caller reads it as YAML then, which says what is wrong with its line and column.
 */

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y

interface Frame {
  out: Record<string, unknown> | unknown[]
  /** The key the next value of an object goes to, and where it is in the text. */
  key: string
  keyAt: number
}

export function* jsonValue(text: string, maxDepth: number): Steps<{ value: unknown } | { error: ValueError } | undefined> {
  const end = text.length
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const space = () => {
    for (let c = text.charCodeAt(pos); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++pos));
  }
  const string = (): string | undefined => {
    const start = pos
    let close = pos
    for (;;) {
      close = text.indexOf('"', close + 1)
      if (close < 0) return undefined
      let slashes = 0
      while (text.charCodeAt(close - 1 - slashes) === 92) slashes++
      if (slashes % 2 === 0) break
    }
    pos = close + 1
    const raw = text.slice(start, pos)
    // eslint-disable-next-line no-control-regex -- a control character must be escaped in JSON: JSON.parse refuses it below
    if (raw.indexOf('\\') < 0 && !/[\u0000-\u001f]/.test(raw)) return raw.slice(1, -1)
    try {
      return JSON.parse(raw) as string
    } catch {
      return undefined
    }
  }
  /** Read `"key":` into the frame; false when the text does not go on so. */
  const key = (frame: Frame): boolean => {
    space()
    if (text.charCodeAt(pos) !== 34) return false
    frame.keyAt = pos
    const read = string()
    if (read === undefined) return false
    frame.key = read
    space()
    if (text.charCodeAt(pos) !== 58) return false
    pos++
    return true
  }
  const tooDeep = (offset: number) => ({ error: { message: `The document nests more than ${maxDepth} levels deep`, code: 'YAML_TOO_DEEP', offset } })

  const stack: Frame[] = []
  let steps = 0
  for (;;) {
    if (++steps % STEP === 0) yield
    space()
    let value: unknown
    const c = text.charCodeAt(pos)
    if (c === 123 || c === 91) {
      const open = pos++
      space()
      if (text.charCodeAt(pos) === (c === 123 ? 125 : 93)) {
        pos++
        value = c === 123 ? {} : []
      } else {
        if (stack.length >= maxDepth) return tooDeep(open)
        const frame: Frame = { out: c === 123 ? {} : [], key: '', keyAt: 0 }
        if (c === 123 && !key(frame)) return undefined
        stack.push(frame)
        continue
      }
    } else if (c === 34) {
      value = string()
      if (value === undefined) return undefined
    } else if (c === 116 && text.startsWith('true', pos)) {
      pos += 4
      value = true
    } else if (c === 102 && text.startsWith('false', pos)) {
      pos += 5
      value = false
    } else if (c === 110 && text.startsWith('null', pos)) {
      pos += 4
      value = null
    } else {
      NUMBER.lastIndex = pos
      const number = NUMBER.exec(text)
      if (!number) return undefined
      pos += number[0].length
      value = Number(number[0])
    }
    // A value: into its container; then each container that ends here goes into its own.
    for (;;) {
      const frame = stack.at(-1)
      if (!frame) {
        space()
        return pos === end ? { value } : undefined
      }
      const array = Array.isArray(frame.out)
      if (array) (frame.out as unknown[]).push(value)
      else {
        const out = frame.out as Record<string, unknown>
        if (Object.prototype.hasOwnProperty.call(out, frame.key))
          return { error: { message: 'Map keys must be unique', code: 'YAML_DUPLICATE_KEY', offset: frame.keyAt } }
        // A key an object inherits (`__proto__`) becomes an own property, as in JSON.parse.
        if (frame.key in out) Object.defineProperty(out, frame.key, { value, writable: true, enumerable: true, configurable: true })
        else out[frame.key] = value
      }
      space()
      const next = text.charCodeAt(pos)
      if (next === 44) {
        pos++
        if (!array && !key(frame)) return undefined
        break
      }
      if (next !== (array ? 93 : 125)) return undefined
      pos++
      stack.pop()
      value = frame.out
    }
  }
}
