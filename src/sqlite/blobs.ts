import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { BlobPort } from '../storage/blobs.js'

export interface FileBlobsOptions {
  /** The directory blobs are kept in (created when missing). @example createFileBlobs({ dir: './docs-data/blobs' }) */
  dir: string
}

/** What is kept beside a blob's bytes. */
interface BlobMeta {
  contentType: string
  /** How many puts hold it: the same bytes put twice are one file, deleted when both let go. */
  refs: number
}

const KEY = /^[0-9a-f]{64}$/

/**
 * The blob port on files: each blob is a file named by the SHA-256 of its content type and bytes
 * (content-addressed: the same upload twice is one file), under `dir/<first two hex digits>/`,
 * with a small JSON file beside it (content type and how many puts hold it).
 *
 * Synchronous like the port (Node's hash is; WebCrypto's is not, which is why the in-memory
 * adapter uses random keys). A file is written to a temporary name and renamed, so a blob is whole
 * or absent, never half-written. Rows name blobs and commit after their bytes are on disk; a
 * process killed between the two leaves an unreferenced blob (never served: no row names it),
 * not a row without its bytes.
 *
 * No snapshot, restore or fork: blobs are never changed once stored, and the API shares one blob
 * port between an API and its forks and leaves it alone on restore (a key no row names is never
 * served). `delete` is the undo of a `put` whose request failed, so a reference count is enough.
 */
export function createFileBlobs(options: FileBlobsOptions): BlobPort & { readonly dir: string } {
  const dir = resolve(options.dir)
  mkdirSync(dir, { recursive: true })
  let temp = 0

  const pathOf = (key: string) => join(dir, key.slice(0, 2), key)
  const metaOf = (key: string) => `${pathOf(key)}.json`
  const writeAtomically = (file: string, data: string | Uint8Array) => {
    const partial = `${file}.${process.pid}.${++temp}.partial`
    writeFileSync(partial, data)
    renameSync(partial, file)
  }
  const readMeta = (key: string): BlobMeta | undefined => {
    if (!KEY.test(key)) return undefined
    try {
      return JSON.parse(readFileSync(metaOf(key), 'utf8')) as BlobMeta
    } catch {
      return undefined
    }
  }

  return {
    dir,
    put: (bytes, contentType) => {
      const key = createHash('sha256').update(contentType).update('\n').update(bytes).digest('hex')
      const meta = readMeta(key)
      if (meta && existsSync(pathOf(key))) {
        writeAtomically(metaOf(key), JSON.stringify({ contentType, refs: meta.refs + 1 } satisfies BlobMeta))
        return key
      }
      mkdirSync(join(dir, key.slice(0, 2)), { recursive: true })
      writeAtomically(pathOf(key), bytes)
      writeAtomically(metaOf(key), JSON.stringify({ contentType, refs: 1 } satisfies BlobMeta))
      return key
    },
    get: (key) => {
      const meta = readMeta(key)
      if (!meta) return undefined
      try {
        // A copy of its own (a Buffer may share a pool): changing it does not change the file.
        return { bytes: new Uint8Array(readFileSync(pathOf(key))), contentType: meta.contentType }
      } catch {
        return undefined
      }
    },
    delete: (key) => {
      const meta = readMeta(key)
      if (!meta) return false
      if (meta.refs > 1) {
        writeAtomically(metaOf(key), JSON.stringify({ ...meta, refs: meta.refs - 1 }))
        return true
      }
      // The metadata first: a blob without it is absent, whatever happens next.
      unlinkSync(metaOf(key))
      try {
        unlinkSync(pathOf(key))
        // The last blob of its folder: the folder goes too (an undone upload leaves nothing behind).
        if (readdirSync(join(dir, key.slice(0, 2))).length === 0) rmdirSync(join(dir, key.slice(0, 2)))
      } catch {
        // already gone, or another blob came meanwhile
      }
      return true
    },
  }
}
