import { describe, expect, it } from 'vitest'
import { parentKey, rootKey, rootKeyCacheSize } from '../../src/domains/common/rows.js'

// Strings compare by value, so the keys alone cannot tell a cached string from a fresh one: the
// cache's size is what shows it keeps one key per organization, and drops them all at its bound.
const BOUND = 4096

describe('rootKey cache', () => {
  it('keeps one key per organization: asking again adds nothing, a new organization adds one', () => {
    const start = rootKeyCacheSize()
    expect(rootKey('cached-a')).toBe('org:cached-a')
    expect(rootKeyCacheSize()).toBe(start + 1)
    expect(rootKey('cached-a')).toBe('org:cached-a')
    expect(parentKey({ organization: 'cached-a' })).toBe('org:cached-a')
    expect(rootKeyCacheSize()).toBe(start + 1)
    expect(rootKey('cached-b')).toBe('org:cached-b')
    expect(rootKeyCacheSize()).toBe(start + 2)
    // a row with a parent takes the parent's key: the cache is not asked
    expect(parentKey({ organization: 'cached-c', parent: 'c1' })).toBe('c1')
    expect(rootKeyCacheSize()).toBe(start + 2)
  })

  it(`holds at most ${BOUND} organizations and starts over past them, every key staying right`, () => {
    let i = 0
    // fill it to its bound
    while (rootKeyCacheSize() < BOUND) {
      expect(rootKey(`fill${i}`)).toBe(`org:fill${i}`)
      i++
      expect(i).toBeLessThanOrEqual(BOUND)
    }
    // a key already held does not clear it
    expect(rootKey('fill0')).toBe('org:fill0')
    expect(rootKeyCacheSize()).toBe(BOUND)
    // the next new organization clears it and is the first of the new round
    expect(rootKey('past-bound')).toBe('org:past-bound')
    expect(rootKeyCacheSize()).toBe(1)
    // many more organizations: never more than the bound, every key right
    for (let j = 0; j < 10_000; j++) {
      expect(rootKey(`o${j}`)).toBe(`org:o${j}`)
      expect(rootKeyCacheSize()).toBeLessThanOrEqual(BOUND)
    }
    expect(rootKey('fill0')).toBe('org:fill0')
    expect(parentKey({ organization: 'fill0', parent: 'c1' })).toBe('c1')
  })
})
