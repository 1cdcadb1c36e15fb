import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LargeText } from '../../src/core/large-text.js'
import { isLargeJson, rawJson, stringifyJson, stringifyJsonInParts } from '../../src/core/json.js'
import { createSlicer } from '../../src/core/slices.js'

/** `text` cut at the given points (sorted, within it; empty parts included). */
function cut(text: string, points: number[]): string[] {
  const at = [0, ...points.map((p) => p % (text.length + 1)).sort((a, b) => a - b), text.length]
  return at.slice(1).map((end, i) => text.slice(at[i], end))
}

describe('LargeText', () => {
  it('reads as the string it was cut from: length, charCodeAt, slice, indexOf of one character, toString', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme-composite', maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.array(fc.integer({ min: -5, max: 210 }), { minLength: 4, maxLength: 12 }),
        (text, points, probes) => {
          const large = new LargeText(cut(text, points))
          expect(large.length).toBe(text.length)
          expect(large.toString()).toBe(text)
          expect(String(large)).toBe(text)
          for (const i of probes) expect(large.charCodeAt(i)).toEqual(text.charCodeAt(i))
          for (let k = 0; k + 1 < probes.length; k += 2) {
            const [a, b] = [Math.min(probes[k]!, probes[k + 1]!), Math.max(probes[k]!, probes[k + 1]!)]
            if (a >= 0) expect(large.slice(a, b)).toBe(text.slice(a, b))
            expect(large.slice(Math.max(0, a))).toBe(text.slice(Math.max(0, a)))
          }
          for (const from of probes) for (const c of ['"', 'a', '\\']) expect(large.indexOf(c, Math.max(0, from))).toBe(text.indexOf(c, Math.max(0, from)))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('reads forward and backward, part after part, as one string', () => {
    const text = Array.from({ length: 500 }, (_, i) => `part ${i} "quoted" `).join('')
    const large = new LargeText(
      cut(
        text,
        Array.from({ length: 60 }, (_, i) => i * 97),
      ),
    )
    let forward = ''
    for (let i = 0; i < text.length; i++) forward += String.fromCharCode(large.charCodeAt(i))
    expect(forward).toBe(text)
    let backward = ''
    for (let i = text.length - 1; i >= 0; i--) backward = String.fromCharCode(large.charCodeAt(i)) + backward
    expect(backward).toBe(text)
    const quotes: number[] = []
    for (let i = large.indexOf('"'); i >= 0; i = large.indexOf('"', i + 1)) quotes.push(i)
    expect(quotes).toHaveLength(1000)
  })
})

/** A JSON value with lists, objects, RawJson texts, dates, undefined members and long strings. */
const answerValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -0.5, 1e21, undefined),
    fc.string({ unit: 'grapheme-composite', maxLength: 12 }),
    fc.string({ maxLength: 3 }).map((s) => s.repeat(3_000)),
    fc.date({ noInvalidDate: true }),
    fc.jsonValue({ maxDepth: 2 }).map((v) => rawJson(JSON.stringify(v))),
    fc.array(tie('value'), { maxLength: 8 }),
    fc.dictionary(fc.string({ maxLength: 5 }), tie('value'), { maxKeys: 6 }),
  ),
})).value

describe('stringifyJsonInParts', () => {
  it('gives the text stringifyJson gives, in parts', async () => {
    await fc.assert(
      fc.asyncProperty(answerValue, async (value) => {
        const parts = await stringifyJsonInParts(value, createSlicer(1))
        expect(parts.join('')).toBe(stringifyJson(value) ?? '')
      }),
      { numRuns: 300 },
    )
  })

  it('takes a change request’s pages with documents for large, a page of a list for small', () => {
    const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text }] }] })
    expect(
      isLargeJson({
        pages: Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, document: { nodes: Array.from({ length: 500 }, () => paragraph('line')) } })),
      }),
    ).toBe(true)
    expect(isLargeJson({ items: Array.from({ length: 100 }, (_, i) => ({ id: `s${i}`, title: 'A space', urls: { app: 'https://x' } })), count: 100 })).toBe(
      false,
    )
    expect(isLargeJson({ markdown: 'x'.repeat(2_000_000) })).toBe(true)
  })
})
