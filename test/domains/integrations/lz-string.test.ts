import fc from 'fast-check'
import LZString from 'lz-string'
import { describe, expect, it } from 'vitest'
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent, TOO_LONG } from '../../../src/domains/integrations/lz-string.js'

// The GET form of renderIntegrationUI takes its request LZ-string compressed: the API's own decoder
// (it stops at a size cap the package has no option for) must read what the package writes, and
// write what it reads.
describe('lz-string (compressToEncodedURIComponent), against the lz-string package', () => {
  it('decodes what the package encodes, and the package decodes what it encodes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const packed = LZString.compressToEncodedURIComponent(text)
        expect(decompressFromEncodedURIComponent(packed)).toBe(text)
        expect(compressToEncodedURIComponent(text)).toBe(packed)
        expect(LZString.decompressFromEncodedURIComponent(compressToEncodedURIComponent(text))).toBe(text)
      }),
      { numRuns: 300 },
    )
  })

  it('stops at its cap: a few bytes of codes that would decompress to megabytes', () => {
    const bomb = LZString.compressToEncodedURIComponent('a'.repeat(2 * 1024 * 1024))
    expect(bomb.length).toBeLessThan(10_000)
    expect(decompressFromEncodedURIComponent(bomb, 1024 * 1024)).toBe(TOO_LONG)
    expect(decompressFromEncodedURIComponent(bomb)).toHaveLength(2 * 1024 * 1024)
  })

  it('refuses what is not its alphabet or not a stream it made', () => {
    expect(decompressFromEncodedURIComponent('not lz!')).toBeNull()
    expect(decompressFromEncodedURIComponent('')).toBeNull()
  })
})
