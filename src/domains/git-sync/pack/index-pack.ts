import { sha1 } from '@noble/hashes/legacy'
import { Inflate } from 'pako'
import { concatBytes } from './pkt-line.js'

/**
 * A pack's index (`.idx`, version 2), made from the pack held whole without another copy of it:
 * each object is inflated in slices into an incremental SHA-1 (its id), never whole; a delta is
 * resolved against its base (inflated whole, the one case an object is held whole, with a small
 * cache of bases); every few MiB the loop yields, so a large pack does not hold the event loop.
 * isomorphic-git's indexer inflated every object whole, wrapped it in a second copy and hashed a
 * third: a repository of one large asset took about seven times its size to fetch.
 * pako (zlib streams, reporting where each ends: a pack does not say how long an object's
 * compressed data is) and @noble/hashes (an incremental SHA-1 in plain JavaScript, as the
 * library runs where `node:crypto` does not).
 */

export class PackError extends Error {
  override name = 'PackError'
}

const TYPES: Record<number, 'commit' | 'tree' | 'blob' | 'tag'> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' }
const OFS_DELTA = 6
const REF_DELTA = 7
/** Input given to the inflater at a time; the loop yields after about YIELD_BYTES of work. */
const SLICE = 256 * 1024
const YIELD_BYTES = 4 * 1024 * 1024
/** Bases of deltas kept inflated, by pack offset, up to this many bytes. */
const BASE_CACHE_BYTES = 32 * 1024 * 1024

const encoder = new TextEncoder()
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

interface Entry {
  offset: number
  /** Where its compressed data starts (after the header and a delta's base). */
  dataStart: number
  end: number
  /** 1-4 for whole objects; 6, 7 for deltas. */
  kind: number
  size: number
  baseOffset?: number
  baseOid?: string
  oid?: string
  type?: 'commit' | 'tree' | 'blob' | 'tag'
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** A pause for the event loop (a macrotask: timers and I/O run). */
const breathe = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * Inflate the zlib stream at `start` of `pack`, giving each output chunk to `onData`; returns
 * where the stream ends. `budget` counts the bytes worked through, to yield now and then.
 */
async function inflateAt(pack: Uint8Array, start: number, limit: number, onData: (chunk: Uint8Array) => void, budget: { bytes: number }): Promise<number> {
  const inflater = new Inflate({ chunkSize: 64 * 1024 })
  inflater.onData = onData as unknown as Inflate['onData']
  inflater.onEnd = () => undefined
  for (let at = start; ;) {
    const to = Math.min(at + SLICE, limit)
    if (to <= at) throw new PackError('the pack ends inside an object')
    if (!inflater.push(pack.subarray(at, to), false)) throw new PackError(`an object of the pack does not inflate${inflater.msg ? `: ${inflater.msg}` : ''}`)
    budget.bytes += to - at
    if ((inflater as unknown as { ended: boolean }).ended) {
      const left = (inflater as unknown as { strm: { avail_in: number } }).strm.avail_in
      return to - left
    }
    at = to
    if (budget.bytes >= YIELD_BYTES) {
      budget.bytes = 0
      await breathe()
    }
  }
}

/** Apply a git delta to its base (gitformat-pack: source and target sizes, then copy and insert instructions). */
function applyDelta(base: Uint8Array, delta: Uint8Array): Uint8Array {
  let at = 0
  const varint = () => {
    let value = 0
    let shift = 0
    for (;;) {
      const byte = delta[at++]
      if (byte === undefined) throw new PackError('a delta of the pack is cut short')
      value += (byte & 0x7f) * 2 ** shift
      shift += 7
      if (!(byte & 0x80)) return value
    }
  }
  if (varint() !== base.length) throw new PackError('a delta of the pack does not fit its base')
  const out = new Uint8Array(varint())
  let written = 0
  while (at < delta.length) {
    const op = delta[at++]!
    if (op & 0x80) {
      let offset = 0
      let size = 0
      for (let i = 0; i < 4; i++) if (op & (1 << i)) offset |= delta[at++]! << (8 * i)
      for (let i = 0; i < 3; i++) if (op & (1 << (4 + i))) size |= delta[at++]! << (8 * i)
      offset >>>= 0
      if (size === 0) size = 0x10000
      if (offset + size > base.length || written + size > out.length) throw new PackError('a delta of the pack copies outside its base')
      out.set(base.subarray(offset, offset + size), written)
      written += size
    } else if (op !== 0) {
      if (at + op > delta.length || written + op > out.length) throw new PackError('a delta of the pack is cut short')
      out.set(delta.subarray(at, at + op), written)
      written += op
      at += op
    } else throw new PackError('a delta of the pack has a reserved instruction')
  }
  if (written !== out.length) throw new PackError('a delta of the pack gives less than it says')
  return out
}

/** The id of an object: the SHA-1 of `<type> <size>\0` and its bytes, fed in parts. */
function hasher(type: string, size: number) {
  const hash = sha1.create()
  hash.update(encoder.encode(`${type} ${size}\0`))
  return hash
}

export interface PackIndex {
  /** The `.idx` file's bytes. */
  idx: Uint8Array
  /** The pack's checksum (its last 20 bytes), in hex: its file name is `pack-<sha>.pack`. */
  packSha: string
  /** Object ids by type. */
  objects: Map<string, 'commit' | 'tree' | 'blob' | 'tag'>
  /** Where each blob stored whole (not as a delta) starts in the pack, and its size: readWhole reads it. */
  whole: Map<string, { start: number; size: number }>
}

/** An object stored whole at `start` of the pack (PackIndex.whole), inflated into a buffer of its size: no other copy. */
export async function readWhole(pack: Uint8Array, start: number, size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size)
  let at = 0
  await inflateAt(
    pack,
    start,
    pack.byteLength - 20,
    (chunk) => {
      if (at + chunk.length > size) throw new PackError('an object of the pack is larger than it says')
      out.set(chunk, at)
      at += chunk.length
    },
    { bytes: 0 },
  )
  if (at !== size) throw new PackError('an object of the pack is not the size it says')
  return out
}

export async function indexPack(pack: Uint8Array): Promise<PackIndex> {
  if (pack.byteLength < 32 || String.fromCharCode(...pack.subarray(0, 4)) !== 'PACK') throw new PackError('the remote did not send a pack')
  const view = new DataView(pack.buffer, pack.byteOffset, pack.byteLength)
  const version = view.getUint32(4)
  if (version !== 2 && version !== 3) throw new PackError(`pack version ${version} is not supported`)
  const count = view.getUint32(8)
  const limit = pack.byteLength - 20
  const entries: Entry[] = []
  const byOffset = new Map<number, Entry>()
  const budget = { bytes: 0 }
  let at = 12
  for (let n = 0; n < count; n++) {
    const offset = at
    if (at >= limit) throw new PackError('the pack holds fewer objects than it says')
    let byte = pack[at++]!
    const kind = (byte >> 4) & 7
    let size = byte & 15
    let shift = 4
    while (byte & 0x80) {
      if (at >= limit) throw new PackError('the pack ends inside an object')
      byte = pack[at++]!
      size += (byte & 0x7f) * 2 ** shift
      shift += 7
    }
    const entry: Entry = { offset, dataStart: at, end: at, kind, size }
    if (kind === OFS_DELTA) {
      byte = pack[at++]!
      let back = byte & 0x7f
      while (byte & 0x80) {
        byte = pack[at++]!
        back = (back + 1) * 128 + (byte & 0x7f)
      }
      entry.baseOffset = offset - back
      if (!byOffset.has(entry.baseOffset)) throw new PackError('a delta of the pack has no base before it')
    } else if (kind === REF_DELTA) {
      entry.baseOid = hex(pack.subarray(at, at + 20))
      at += 20
    } else if (!TYPES[kind]) throw new PackError(`the pack holds an object of unknown type ${kind}`)
    entry.dataStart = at
    if (TYPES[kind]) {
      const type = TYPES[kind]
      const hash = hasher(type, size)
      let length = 0
      entry.end = await inflateAt(
        pack,
        at,
        limit,
        (chunk) => {
          length += chunk.length
          hash.update(chunk)
        },
        budget,
      )
      if (length !== size) throw new PackError('an object of the pack is not the size it says')
      entry.type = type
      entry.oid = hex(hash.digest())
    } else {
      entry.end = await inflateAt(pack, at, limit, () => undefined, budget)
    }
    at = entry.end
    entries.push(entry)
    byOffset.set(offset, entry)
  }

  // Deltas: each resolved against its base (by offset, or by id within the pack), bases kept in a small cache.
  const byOid = new Map<string, Entry>()
  for (const e of entries) if (e.oid) byOid.set(e.oid, e)
  const cache = new Map<number, Uint8Array>()
  let cached = 0
  const inflateWhole = async (e: Entry): Promise<Uint8Array> => {
    const parts: Uint8Array[] = []
    await inflateAt(pack, e.dataStart, limit, (chunk) => parts.push(chunk), budget)
    return concatBytes(parts)
  }
  const contentOf = async (e: Entry, depth = 0): Promise<{ type: 'commit' | 'tree' | 'blob' | 'tag'; bytes: Uint8Array }> => {
    if (depth > 4096) throw new PackError('a delta chain of the pack is too long')
    const hit = cache.get(e.offset)
    if (hit && e.type) return { type: e.type, bytes: hit }
    let result: { type: 'commit' | 'tree' | 'blob' | 'tag'; bytes: Uint8Array }
    if (TYPES[e.kind]) result = { type: TYPES[e.kind]!, bytes: await inflateWhole(e) }
    else {
      const base = e.baseOffset !== undefined ? byOffset.get(e.baseOffset) : byOid.get(e.baseOid!)
      if (!base) throw new PackError(`a delta of the pack names a base it does not hold (${e.baseOid ?? e.baseOffset})`)
      const from = await contentOf(base, depth + 1)
      result = { type: from.type, bytes: applyDelta(from.bytes, await inflateWhole(e)) }
    }
    if (result.bytes.length <= BASE_CACHE_BYTES / 4) {
      while (cached + result.bytes.length > BASE_CACHE_BYTES && cache.size > 0) {
        const [first, bytes] = cache.entries().next().value as [number, Uint8Array]
        cache.delete(first)
        cached -= bytes.length
      }
      cache.set(e.offset, result.bytes)
      cached += result.bytes.length
    }
    return result
  }
  // Bases by id may come after their deltas: resolve until no delta is left or none moves.
  let pending = entries.filter((e) => !e.oid)
  while (pending.length > 0) {
    const next: Entry[] = []
    for (const e of pending) {
      if (e.baseOid !== undefined && !byOid.has(e.baseOid)) {
        next.push(e)
        continue
      }
      const { type, bytes } = await contentOf(e)
      e.type = type
      e.oid = hex(hasher(type, bytes.length).update(bytes).digest())
      byOid.set(e.oid, e)
    }
    if (next.length === pending.length) throw new PackError(`a delta of the pack names a base it does not hold (${next[0]!.baseOid})`)
    pending = next
  }
  if (at !== limit) throw new PackError('the pack holds more than its objects')

  // The index, version 2: fan-out, ids sorted, CRC-32 of each object's bytes, offsets, the pack's checksum, its own.
  const sorted = [...entries].sort((a, b) => (a.oid! < b.oid! ? -1 : a.oid! > b.oid! ? 1 : 0))
  const large = sorted.filter((e) => e.offset >= 0x80000000)
  const size = 8 + 256 * 4 + sorted.length * (20 + 4 + 4) + large.length * 8 + 40
  const idx = new Uint8Array(size)
  const out = new DataView(idx.buffer)
  idx.set([0xff, 0x74, 0x4f, 0x63], 0)
  out.setUint32(4, 2)
  const fanout = new Uint32Array(256)
  for (const e of sorted) fanout[Number.parseInt(e.oid!.slice(0, 2), 16)]!++
  for (let i = 0, total = 0; i < 256; i++) {
    total += fanout[i]!
    out.setUint32(8 + i * 4, total)
  }
  let p = 8 + 256 * 4
  for (const e of sorted) {
    for (let i = 0; i < 20; i++) idx[p + i] = Number.parseInt(e.oid!.slice(i * 2, i * 2 + 2), 16)
    p += 20
  }
  for (const e of sorted) {
    out.setUint32(p, crc32(pack.subarray(e.offset, e.end)))
    p += 4
  }
  let largeAt = 0
  for (const e of sorted) {
    out.setUint32(p, e.offset >= 0x80000000 ? 0x80000000 | largeAt++ : e.offset)
    p += 4
  }
  for (const e of large) {
    out.setUint32(p, Math.floor(e.offset / 2 ** 32))
    out.setUint32(p + 4, e.offset >>> 0)
    p += 8
  }
  idx.set(pack.subarray(limit), p)
  p += 20
  idx.set(sha1(idx.subarray(0, p)), p)
  const objects = new Map<string, 'commit' | 'tree' | 'blob' | 'tag'>()
  const whole = new Map<string, { start: number; size: number }>()
  for (const e of entries) {
    objects.set(e.oid!, e.type!)
    if (TYPES[e.kind] === 'blob') whole.set(e.oid!, { start: e.dataStart, size: e.size })
  }
  return { idx, packSha: hex(pack.subarray(limit)), objects, whole }
}
