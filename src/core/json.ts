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
export type Encoded<T> =
  | T
  | RawJson<T>
  | (T extends { items: Array<infer I> } ? { [K in keyof T]: K extends 'items' ? Array<I | RawJson<I>> : T[K] } : never)

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
    const text = key === 'items' ? `[${items.map((item) => (isRawJson(item) ? item.json : JSON.stringify(item) ?? 'null')).join(',')}]` : JSON.stringify(v)
    out += `${out ? ',' : '{'}${JSON.stringify(key)}:${text}`
  }
  return `${out}}`
}
