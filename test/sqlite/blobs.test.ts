import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFileBlobs } from '../../src/sqlite.js'
import { scratchDir } from './helpers.js'

const root = scratchDir('file-blobs-')
let n = 0
const bytes = (...values: number[]) => new Uint8Array(values)

describe('file blobs', () => {
  it('puts, gets and deletes; keys are the SHA-256 of content type and bytes', () => {
    const blobs = createFileBlobs({ dir: join(root, `b${++n}`) })
    const key = blobs.put(bytes(1, 2, 3), 'image/png')
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(blobs.get(key)).toEqual({ bytes: bytes(1, 2, 3), contentType: 'image/png' })
    expect(blobs.get(key)!.bytes).toBeInstanceOf(Uint8Array)
    expect(blobs.put(bytes(1, 2, 3), 'text/plain')).not.toBe(key)
    expect(blobs.delete(key)).toBe(true)
    expect(blobs.delete(key)).toBe(false)
    expect(blobs.get(key)).toBeUndefined()
  })

  it('the same bytes put twice are one file, deleted when both puts let go; an undone put leaves no folder', () => {
    const dir = join(root, `b${++n}`)
    const blobs = createFileBlobs({ dir })
    const a = blobs.put(bytes(9), 'text/plain')
    expect(blobs.put(bytes(9), 'text/plain')).toBe(a)
    expect(blobs.delete(a)).toBe(true)
    expect(blobs.get(a)!.bytes).toEqual(bytes(9))
    expect(blobs.delete(a)).toBe(true)
    expect(blobs.get(a)).toBeUndefined()
    expect(readdirSync(dir)).toEqual([])
  })

  it('keeps stored bytes safe from the caller, and survives a new port on the same directory', () => {
    const dir = join(root, `b${++n}`)
    const input = bytes(1, 2, 3)
    const key = createFileBlobs({ dir }).put(input, 'application/octet-stream')
    input[0] = 99
    const again = createFileBlobs({ dir })
    const got = again.get(key)!
    expect(got.bytes).toEqual(bytes(1, 2, 3))
    got.bytes[1] = 99
    expect(again.get(key)!.bytes).toEqual(bytes(1, 2, 3))
  })

  it('a key that is not a content address reads nothing (no path outside the directory)', () => {
    const dir = join(root, `b${++n}`)
    const blobs = createFileBlobs({ dir })
    blobs.put(bytes(1), 'text/plain')
    for (const key of ['../../etc/passwd', '..', '', 'ab', `${'a'.repeat(63)}/`]) {
      expect(blobs.get(key)).toBeUndefined()
      expect(blobs.delete(key)).toBe(false)
    }
    expect(existsSync(dir)).toBe(true)
  })
})
