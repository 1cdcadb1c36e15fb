import type { Slicer } from './slices.js'
/**
 * Pre-serialized JSON. An encoder that keeps the JSON text of a resource (see json-cache.ts)
 * hands it out as a `RawJson`; the codec splices the text into the response as is, where
 * `JSON.stringify` would serialize the object again. (Node 20 has no `JSON.rawJSON`.)
 */

/** The marker of a RawJson (recognised by a marker, not `instanceof`, like ApiError). */
const RAW = Symbol.for('docs-content-api.raw-json')

/** JSON text standing for a value of type `T`, spliced into a response as is. */
export interface RawJson<T = unknown> {
  readonly [RAW]: true
  /** The JSON text. */
  readonly json: string
  /** Phantom: the type of the value the text encodes (never set). */
  readonly __value?: T
}

class Raw {
  declare readonly [RAW]: true
  constructor(readonly json: string) {}
  /** Where a RawJson ends up deeper than the codec splices (see stringifyJson), JSON.stringify still gets the value. */
  toJSON(): unknown {
    return JSON.parse(this.json)
  }
}
Object.defineProperty(Raw.prototype, RAW, { value: true })

/** Wrap JSON text (which must be valid JSON) as a RawJson. */
export function rawJson<T>(json: string): RawJson<T> {
  return new Raw(json) as RawJson<T>
}

export function isRawJson(value: unknown): value is RawJson {
  return typeof value === 'object' && value !== null && (value as { [RAW]?: unknown })[RAW] === true
}

/**
 * What a handler may answer for a response of type `T`: the value, its JSON text, or, for a
 * list, the envelope with the JSON text of its items.
 */
export type Encoded<T> = T | RawJson<T> | (T extends { items: Array<infer I> } ? { [K in keyof T]: K extends 'items' ? Array<I | RawJson<I>> : T[K] } : never)

/**
 * `JSON.stringify`, splicing RawJson text where encoders put it: the whole answer, or the items
 * of a page (`{ items, count, next }`). Anything else is serialized by `JSON.stringify` in one
 * call; a RawJson found elsewhere still serializes right, through `toJSON` (parsed and
 * serialized again: correct, only slower).
 */
export function stringifyJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value)
  if (isRawJson(value)) return value.json
  const items = (value as { items?: unknown }).items
  if (!Array.isArray(items) || items.length === 0 || !isRawJson(items[0])) return JSON.stringify(value)
  let out = ''
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key]
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue
    const text = key === 'items' ? `[${items.map((item) => (isRawJson(item) ? item.json : (JSON.stringify(item) ?? 'null'))).join(',')}]` : JSON.stringify(v)
    out += `${out ? ',' : '{'}${JSON.stringify(key)}:${text}`
  }
  return `${out}}`
}

/**
 * Answers whose walk passes this many units (a value counts one, a string or RawJson text one
 * per 64 characters: about 64 characters of JSON per unit) are serialized by
 * `stringifyJsonInParts`; smaller ones by one `JSON.stringify`, which takes well under a slice.
 */
const LARGE_UNITS = 16 * 1024

/** Whether `value` is large enough to serialize in parts (a walk that stops as soon as it knows). */
export function isLargeJson(value: unknown): boolean {
  let units = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    units++
    if (typeof v === 'string') units += v.length >> 6
    else if (isRawJson(v)) units += v.json.length >> 6
    else if (typeof v === 'object' && v !== null) {
      if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push(v[i])
      else for (const key in v) stack.push((v as Record<string, unknown>)[key])
    }
    if (units > LARGE_UNITS) return true
  }
  return false
}

/** How deep `stringifyJsonInParts` goes into objects and lists before serializing what is below in one call. */
const PARTS_DEPTH = 4

/**
 * `stringifyJson` of a large value, as parts, with a turn of the event loop whenever the slice
 * has run its budget: the containers of its first PARTS_DEPTH levels are written here, member by
 * member, and each member below them by one `JSON.stringify` (a page's document, a list's item).
 * The text is the one `stringifyJson` gives; `parts` joined.
 */
export async function stringifyJsonInParts(value: unknown, slicer: Slicer): Promise<string[]> {
  const parts: string[] = []
  // What JSON.stringify writes for `v` under `key`: its toJSON's value; SKIP for what it leaves out.
  const resolve = (v: unknown, key: string): unknown => {
    if (typeof v === 'object' && v !== null && !isRawJson(v) && typeof (v as { toJSON?: unknown }).toJSON === 'function')
      v = (v as { toJSON(key: string): unknown }).toJSON(key)
    return v === undefined || typeof v === 'function' || typeof v === 'symbol' ? SKIP : v
  }
  const write = async (v: unknown, depth: number): Promise<void> => {
    if (isRawJson(v)) parts.push(v.json)
    else if (depth >= PARTS_DEPTH || typeof v !== 'object' || v === null) {
      parts.push(JSON.stringify(v))
      if (slicer.due()) await slicer.maybeYield()
    } else if (Array.isArray(v)) {
      parts.push('[')
      for (let i = 0; i < v.length; i++) {
        if (i > 0) parts.push(',')
        const item = resolve(v[i], String(i))
        if (item === SKIP) parts.push('null')
        else await write(item, depth + 1)
      }
      parts.push(']')
    } else {
      let open = '{'
      for (const name of Object.keys(v)) {
        const member = resolve((v as Record<string, unknown>)[name], name)
        if (member === SKIP) continue
        parts.push(`${open}${JSON.stringify(name)}:`)
        open = ','
        await write(member, depth + 1)
      }
      parts.push(open === '{' ? '{}' : '}')
    }
  }
  const top = resolve(value, '')
  if (top !== SKIP) await write(top, 0)
  return parts
}

const SKIP = Symbol('skip')
