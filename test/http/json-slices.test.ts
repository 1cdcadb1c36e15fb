import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LargeText } from '../../src/core/large-text.js'
import { createSlicer } from '../../src/core/slices.js'
import { parseJsonInSlices } from '../../src/http/json-slices.js'
import { longestStall } from '../stall.js'

/** A JSON value with big containers, long strings, escapes, numbers and `__proto__` keys, written with random spaces. */
const bigValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -0.5, 1e21, 123456789),
    fc.string({ unit: 'grapheme-composite', maxLength: 20 }),
    fc.string({ maxLength: 5 }).map((s) => s.repeat(20_000)),
    fc.array(tie('value'), { maxLength: 12 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constant('__proto__')), tie('value'), { maxKeys: 8 }),
  ),
})).value

/** JSON text with spaces, tabs and line breaks around some of its structural characters (never inside strings). */
function spaced(json: string, seed: number): string {
  let out = ''
  let inString = false
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!
    if (inString) {
      out += c
      if (c === '\\') out += json[++i]
      else if (c === '"') inString = false
    } else if (c === '"') {
      inString = true
      out += c
    } else out += ',:[]{}'.includes(c) && (i * 31 + seed) % 7 === 0 ? ` \n\t${c}\r ` : c
  }
  return out
}

describe('parseJsonInSlices', () => {
  it('gives what JSON.parse gives, for generated large values written with and without spaces', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(bigValue, { minLength: 2, maxLength: 6 }), fc.nat(), async (parts, seed) => {
        const value = { parts, filler: 'x'.repeat(70_000) }
        for (const text of [JSON.stringify(value), spaced(JSON.stringify(value, null, 1), seed)]) {
          expect(await parseJsonInSlices(text, createSlicer(1))).toStrictEqual(JSON.parse(text))
          // The same text in the parts it was read in (a body of many chunks, core/large-text.ts).
          const parts = Array.from({ length: Math.ceil(text.length / 7_919) }, (_, i) => text.slice(i * 7_919, (i + 1) * 7_919))
          expect(await parseJsonInSlices(new LargeText(parts), createSlicer(1))).toStrictEqual(JSON.parse(text))
        }
      }),
      { numRuns: 40 },
    )
  })

  it('reads a value nested nested thousands deep (past the levels it puts together itself), as JSON.parse does', async () => {
    // (The API refuses a body this deep before parsing it, core/json-limits.ts: this is the parser alone.)
    const text = `{"a":${'['.repeat(3_000)}${']'.repeat(3_000)},"pad":"${'p'.repeat(70_000)}","b":1}`
    expect(await parseJsonInSlices(text, createSlicer())).toStrictEqual(JSON.parse(text))
  })

  it('keeps __proto__ an own key, as JSON.parse does', async () => {
    const text = `{"__proto__":{"polluted":true},"pad":"${'y'.repeat(70_000)}"}`
    const value = (await parseJsonInSlices(text, createSlicer())) as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value)).toEqual(['__proto__', 'pad'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it("refuses what JSON.parse refuses, with JSON.parse's message", async () => {
    const good = JSON.stringify({ a: Array.from({ length: 3000 }, (_, i) => ({ i, t: 'text '.repeat(10) })) })
    const cuts = [
      good.slice(0, -1),
      `${good}x`,
      good.replace('"i":7,', '"i":7,,'),
      good.replace('"i":9', '"i":09'),
      good.replace('"t"', "'t'"),
      `${good.slice(0, 100_000)}\u0001${good.slice(100_000)}`,
    ]
    for (const bad of cuts) {
      let expected: unknown
      try {
        JSON.parse(bad)
      } catch (error) {
        expected = error
      }
      expect(expected, bad.slice(-20)).toBeInstanceOf(SyntaxError)
      await expect(parseJsonInSlices(bad, createSlicer())).rejects.toThrow((expected as Error).message)
      await expect(parseJsonInSlices(new LargeText([bad.slice(0, 50_000), bad.slice(50_000)]), createSlicer())).rejects.toThrow((expected as Error).message)
    }
  })

  it('leaves the event loop turning while a body of many small objects is read', async () => {
    const text = JSON.stringify({
      changes: Array.from({ length: 40 }, () => ({
        nodes: Array.from({ length: 3000 }, (_, i) => ({
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: `line ${i}`, marks: [] }] }],
        })),
      })),
    })
    const whole = await longestStall(async () => JSON.parse(text))
    const sliced = await longestStall(() => parseJsonInSlices(text, createSlicer()))
    expect(sliced.result).toStrictEqual(whole.result)
    // In one piece the loop is held for the whole parse; in slices, for a small part of it.
    expect(sliced.stall).toBeLessThan(whole.stall / 3)
  })
})
