import { describe, expect, it } from 'vitest'
import { createJsonCache } from '../../src/core/json-cache.js'
import { isRawJson, rawJson, stringifyJson } from '../../src/core/json.js'

describe('stringifyJson', () => {
  const a = rawJson('{"id":"a","n":1}')
  const b = rawJson('{"id":"b","n":[2]}')

  it('writes what JSON.stringify writes of the values the text stands for, wherever a RawJson is', () => {
    const values = [
      a,
      [a, b],
      { items: [a, b], count: 2, next: { page: 'x' } },
      { items: [a], count: 1, next: undefined, skipped: () => 1 },
      { permission: 'read', space: a },
      { items: [] as unknown[], count: 0 },
      { items: [a, undefined, 3], count: 3 },
    ]
    for (const value of values) {
      const text = stringifyJson(value)
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)))
      expect(text).toBe(JSON.stringify(JSON.parse(JSON.stringify(value))))
    }
  })

  it("splices the text of the whole answer and of a page's items as is", () => {
    const spliced = rawJson('{ "kept" :  "as is" }')
    expect(stringifyJson(spliced)).toBe('{ "kept" :  "as is" }')
    expect(stringifyJson({ items: [spliced], count: 1, next: { page: 'p' } })).toBe('{"items":[{ "kept" :  "as is" }],"count":1,"next":{"page":"p"}}')
  })

  it('serializes RawJson found elsewhere through toJSON, and plain values as JSON.stringify does', () => {
    const deep = { items: [{ permission: 'read', space: a }], count: 1 }
    expect(stringifyJson(deep)).toBe('{"items":[{"permission":"read","space":{"id":"a","n":1}}],"count":1}')
    for (const value of [null, 1, 'x', [1, 'y'], { d: new Date(0) }, new Date(0), {}]) expect(stringifyJson(value)).toBe(JSON.stringify(value))
    expect(isRawJson(a)).toBe(true)
    expect(isRawJson({ json: '{}' })).toBe(false)
  })
})

describe('createJsonCache', () => {
  const row = (id: string) => Object.freeze({ id })

  it('answers only for the very row version it was given', () => {
    const cache = createJsonCache<{ id: string }>(1000)
    const v1 = row('s')
    cache.set(v1, '{"v":1}')
    expect(cache.get(v1)).toBe('{"v":1}')
    expect(cache.get(row('s'))).toBeUndefined() // an equal but other object: another version
    const v2 = row('s')
    cache.set(v2, '{"v":2}')
    expect(cache.get(v1)).toBeUndefined() // the new version replaced the old one
    expect(cache.get(v2)).toBe('{"v":2}')
    expect(cache.size).toBe(1)
  })

  it('holds at most maxChars of text, dropping the oldest entries first', () => {
    const cache = createJsonCache<{ id: string }>(100)
    const rows = Array.from({ length: 50 }, (_, i) => row(`r${i}`))
    for (const r of rows) {
      cache.set(r, `"${'x'.repeat(18)}"`) // 20 characters each
      expect(cache.chars).toBeLessThanOrEqual(100)
    }
    expect(cache.size).toBe(5)
    expect(rows.map((r) => cache.get(r) !== undefined).lastIndexOf(false)).toBe(44)
    // a text larger than the whole bound is not kept at all
    const big = row('big')
    expect(cache.set(big, `"${'y'.repeat(200)}"`)).toHaveLength(202)
    expect(cache.get(big)).toBeUndefined()
    expect(cache.chars).toBeLessThanOrEqual(100)
  })
})
