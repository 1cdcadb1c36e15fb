import { urlAlphabet } from 'nanoid'
import { describe, expect, it } from 'vitest'
import { createIdMaker, newFlatId } from '../../src/core/ids.js'

describe('ids', () => {
  it("are 20 symbols of nanoid's alphabet by default, and do not repeat", () => {
    const ids = Array.from({ length: 10_000 }, () => newFlatId())
    const symbol = new RegExp(`^[${urlAlphabet.replace('-', '\\-')}]{20}$`)
    for (const id of ids) expect(id).toMatch(symbol)
    expect(new Set(ids).size).toBe(ids.length)
    // every symbol of the alphabet turns up (64 symbols, 200,000 draws)
    expect(new Set(ids.join('')).size).toBe(64)
  })

  it('take another length', () => {
    expect(createIdMaker(8)()).toHaveLength(8)
  })
})
