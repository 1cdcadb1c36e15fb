import { describe, expect, it } from 'vitest'
import { createMemoryBlobs, type BlobSnapshot } from '../../src/storage/blobs.js'

const bytes = (...values: number[]) => new Uint8Array(values)
const counter = () => {
  let n = 0
  return () => `blob-${++n}`
}

describe('memory blobs', () => {
  it('puts, gets and deletes', () => {
    const blobs = createMemoryBlobs({ newKey: counter() })
    const key = blobs.put(bytes(1, 2, 3), 'image/png')
    expect(key).toBe('blob-1')
    expect(blobs.get(key)).toEqual({ bytes: bytes(1, 2, 3), contentType: 'image/png' })
    expect(blobs.get('missing')).toBeUndefined()
    expect(blobs.delete(key)).toBe(true)
    expect(blobs.delete(key)).toBe(false)
    expect(blobs.get(key)).toBeUndefined()
  })

  it('gives random keys by default, a new one on every put (same bytes too)', () => {
    const blobs = createMemoryBlobs()
    const a = blobs.put(bytes(1), 'text/plain')
    const b = blobs.put(bytes(1), 'text/plain')
    expect(a).toMatch(/^[0-9a-f-]{36}$/)
    expect(a).not.toBe(b)
  })

  it('refuses a key newKey gives twice rather than replacing a blob', () => {
    const blobs = createMemoryBlobs({ newKey: () => 'same' })
    blobs.put(bytes(1), 'text/plain')
    expect(() => blobs.put(bytes(2), 'text/plain')).toThrow(/already in use/)
    expect(blobs.get('same')!.bytes).toEqual(bytes(1))
  })

  it('keeps stored bytes safe from the caller: put copies in, get copies out', () => {
    const blobs = createMemoryBlobs()
    const input = bytes(1, 2, 3)
    const key = blobs.put(input, 'application/octet-stream')
    input[0] = 99
    const got = blobs.get(key)!
    expect(got.bytes).toEqual(bytes(1, 2, 3))
    got.bytes[1] = 99
    expect(blobs.get(key)!.bytes).toEqual(bytes(1, 2, 3))
  })

  it('restores a snapshot after puts and deletes, and again after more writes', () => {
    const blobs = createMemoryBlobs({ newKey: counter() })
    const kept = blobs.put(bytes(1), 'text/plain')
    const snapshot = blobs.snapshot!()
    const added = blobs.put(bytes(2), 'text/plain')
    blobs.delete(kept)
    expect(blobs.get(kept)).toBeUndefined()

    blobs.restore!(snapshot)
    expect(blobs.get(kept)!.bytes).toEqual(bytes(1))
    expect(blobs.get(added)).toBeUndefined()

    // Writing after a restore must not change the snapshot: it can be restored again.
    blobs.delete(kept)
    blobs.restore!(snapshot)
    expect(blobs.get(kept)!.bytes).toEqual(bytes(1))
  })

  it('refuses a snapshot it did not make', () => {
    const blobs = createMemoryBlobs()
    expect(() => blobs.restore!({ kind: 'blob-snapshot' } as BlobSnapshot)).toThrow(TypeError)
  })

  it('forks an independent store: writes on either side are not seen by the other', () => {
    const parent = createMemoryBlobs({ newKey: counter() })
    const shared = parent.put(bytes(1), 'text/plain')
    const child = parent.fork!()
    expect(child.get(shared)!.bytes).toEqual(bytes(1))

    const inChild = child.put(bytes(2), 'text/plain')
    child.delete(shared)
    const inParent = parent.put(bytes(3), 'text/plain')

    expect(parent.get(shared)!.bytes).toEqual(bytes(1))
    expect(parent.get(inChild)).toBeUndefined()
    expect(child.get(inParent)).toBeUndefined()
    expect(child.get(inChild)!.bytes).toEqual(bytes(2))
  })

  it('restores a fork to a snapshot of the store it was forked from', () => {
    const parent = createMemoryBlobs()
    const key = parent.put(bytes(1), 'text/plain')
    const snapshot = parent.snapshot!()
    const child = parent.fork!()
    child.delete(key)
    child.restore!(snapshot)
    expect(child.get(key)!.bytes).toEqual(bytes(1))
  })
})
