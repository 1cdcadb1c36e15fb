/**
 * Keep `value` under `key` in a cache of at most `max` entries: most recently kept last, the
 * oldest dropped past the bound (a `Map` iterates in insertion order, so this is an LRU when
 * readers `touch` what they use).
 */
export function rememberBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key)
  map.set(key, value)
  if (map.size > max) map.delete(map.keys().next().value!)
}

/** Read `key` and make it the most recently used (undefined when absent). */
export function touch<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key)
  if (value !== undefined) {
    map.delete(key)
    map.set(key, value)
  }
  return value
}
