import { describe, expect, it } from 'vitest'
import { parentKey, rootKey } from '../../src/storage/schema.js'

describe('rootKey cache', () => {
  it('gives the same string object for an organization, and the right key past its bound', () => {
    expect(rootKey('orgA')).toBe('org:orgA')
    expect(parentKey({ organization: 'orgA' })).toBe(rootKey('orgA'))
    // more organizations than the cache holds (4,096): it starts over, and every key stays right
    for (let i = 0; i < 10_000; i++) expect(rootKey(`o${i}`)).toBe(`org:o${i}`)
    expect(rootKey('orgA')).toBe('org:orgA')
    expect(parentKey({ organization: 'orgA', parent: 'c1' })).toBe('c1')
  })
})
