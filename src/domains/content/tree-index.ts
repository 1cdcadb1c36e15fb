import type { Context } from '../context.js'
import type { ReadTx } from '../../storage/port.js'
import type { AppSchema } from '../schema.js'

/**
 * A revision's page index (page id → page version id) as a two-level persistent map: a fixed
 * array of FANOUT bucket rows, each a small frozen record. Setting a key writes one new bucket
 * and a new array of FANOUT references; the other buckets are shared with the revision before.
 * So an edit copies, per page touched, one bucket (pages / FANOUT entries: about 16 at 1,000
 * pages) and the FANOUT references, and a lookup is two reads, whatever the space's size.
 * Buckets are never updated or deleted: old revisions keep reading theirs.
 */
export const FANOUT = 64

/** FNV-1a of the key, folded to a bucket number (ids are random: any cheap spread will do). */
export function bucketOf(key: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0) % FANOUT
}

export function indexGet(tx: ReadTx<AppSchema>, buckets: readonly string[], key: string): string | undefined {
  if (buckets.length === 0) return undefined
  const id = buckets[bucketOf(key)]!
  if (id === '') return undefined
  return tx.get('contentBuckets', id)?.entries[key]
}

/**
 * The index with `changes` applied (a value of undefined removes the key): one new bucket row per
 * bucket touched. Returns the same array when nothing changed.
 */
export function indexSet(ctx: Context, buckets: readonly string[], changes: ReadonlyMap<string, string | undefined>): readonly string[] {
  if (changes.size === 0) return buckets
  const byBucket = new Map<number, Array<[string, string | undefined]>>()
  for (const [key, value] of changes) {
    const b = bucketOf(key)
    let list = byBucket.get(b)
    if (!list) byBucket.set(b, (list = []))
    list.push([key, value])
  }
  const next = buckets.length === 0 ? new Array<string>(FANOUT).fill('') : [...buckets]
  for (const [b, list] of byBucket) {
    const old = next[b] === '' ? undefined : ctx.tx.get('contentBuckets', next[b]!)
    const entries: Record<string, string> = { ...old?.entries }
    for (const [key, value] of list) {
      if (value === undefined) delete entries[key]
      else entries[key] = value
    }
    if (Object.keys(entries).length === 0) next[b] = ''
    else next[b] = ctx.tx.insert('contentBuckets', { id: ctx.newId(), entries }).id
  }
  return next.every((id) => id === '') ? [] : next
}
