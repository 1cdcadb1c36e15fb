/**
 * The blob port: the bytes of uploaded files. Rows hold only a blob's key (and the facts about
 * it: size, content type), so the row store stays small and JSON-like, and a snapshot or a fork
 * of the rows never copies file contents.
 *
 * Like the storage port, the port is synchronous: a request that stores a file runs its whole
 * read-check-write sequence without yielding (see src/storage/port.ts). Fetching bytes from a
 * URL, which is asynchronous, happens before the transaction; `put` only stores what was fetched.
 */

/** What a row keeps about a blob besides its key. */
export interface BlobInfo {
  size: number
  contentType: string
}

/** A point-in-time state of a blob store, for `restore` (opaque: only the store that made it reads it). */
export interface BlobSnapshot {
  readonly kind: 'blob-snapshot'
}

export interface BlobPort {
  /**
   * Store a copy of `bytes` under a new key, and return the key. `key`, when given and free, is
   * the key to use (loading a state document keeps the keys it names); an adapter may ignore it.
   * `owned`: the caller gives the bytes away (it neither keeps nor changes them), so an adapter
   * that keeps bytes in memory may keep these instead of a copy (a Git Sync import storing a large
   * asset held it twice otherwise); an adapter may ignore it.
   */
  put(bytes: Uint8Array, contentType: string, key?: string, options?: { owned?: boolean }): string
  /** The bytes under `key` (a copy: changing it does not change the stored blob), or undefined. */
  get(key: string): { bytes: Uint8Array; contentType: string } | undefined
  /** Remove a blob; returns whether it existed. */
  delete(key: string): boolean
  /**
   * Optional like StoragePort's (see src/storage/port.ts): cheap states for the API's snapshot,
   * restore and fork. The in-memory adapter has all three.
   */
  snapshot?(): BlobSnapshot
  /** Go back to a state `snapshot` gave (of this store, or of the store it was forked from). */
  restore?(snapshot: BlobSnapshot): void
  /** A new, independent blob store starting from the current state. */
  fork?(): BlobPort
}

/** A stored blob. Never changed once stored (put copies in, get copies out), so maps may share it. */
interface Stored {
  readonly bytes: Uint8Array
  readonly contentType: string
}

interface MemoryBlobSnapshot extends BlobSnapshot {
  readonly blobs: ReadonlyMap<string, Stored>
}

const SNAPSHOTS = new WeakSet<object>()

/**
 * The in-memory adapter.
 *
 * Keys are random (`newKey`, by default `crypto.randomUUID()`), not content addresses: hashing
 * with SHA-256 is asynchronous in WebCrypto (`crypto.subtle.digest`), and `put` must stay
 * synchronous to run inside a transaction; a synchronous hash would mean shipping one. Two
 * uploads of the same bytes are then two blobs, which is also what deleting one file needs (no
 * reference counting).
 *
 * Snapshots are copy-on-write, as in the row store (src/storage/memory.ts) but with one map
 * instead of tables: `snapshot()` keeps the current Map and marks it shared; the first write
 * afterwards copies the Map (its entries, immutable, stay shared). `fork()` starts another store
 * on the same shared Map; `restore()` puts a kept Map back, still shared, since the snapshot may
 * be restored again.
 */
export function createMemoryBlobs(options?: { newKey?: () => string }): BlobPort {
  const newKey = options?.newKey ?? (() => crypto.randomUUID())
  return memoryBlobs(new Map(), false, newKey)
}

function memoryBlobs(initial: Map<string, Stored>, initiallyShared: boolean, newKey: () => string): BlobPort {
  let blobs = initial
  let shared = initiallyShared

  /** The map to write to: a shared one is first copied for this store. */
  const writable = (): Map<string, Stored> => {
    if (shared) {
      blobs = new Map(blobs)
      shared = false
    }
    return blobs
  }

  return {
    put: (bytes, contentType, wanted, options) => {
      const key = wanted !== undefined && !blobs.has(wanted) ? wanted : newKey()
      // A key given twice would silently replace another file's bytes: fail loudly instead.
      if (blobs.has(key)) throw new Error(`Blob key "${key}" is already in use (newKey must give unique keys)`)
      writable().set(key, Object.freeze({ bytes: options?.owned ? bytes : bytes.slice(), contentType }))
      return key
    },
    get: (key) => {
      const stored = blobs.get(key)
      // A Uint8Array cannot be frozen: hand out a copy so the caller cannot change stored bytes.
      return stored && { bytes: stored.bytes.slice(), contentType: stored.contentType }
    },
    delete: (key) => (blobs.has(key) ? writable().delete(key) : false),
    snapshot: () => {
      shared = true
      const snapshot: MemoryBlobSnapshot = Object.freeze({ kind: 'blob-snapshot' as const, blobs })
      SNAPSHOTS.add(snapshot)
      return snapshot
    },
    restore: (snapshot) => {
      if (!SNAPSHOTS.has(snapshot)) throw new TypeError('restore() takes a snapshot made by snapshot() of an in-memory blob store')
      blobs = (snapshot as MemoryBlobSnapshot).blobs as Map<string, Stored>
      shared = true
    },
    fork: () => {
      shared = true
      return memoryBlobs(blobs, true, newKey)
    },
  }
}
