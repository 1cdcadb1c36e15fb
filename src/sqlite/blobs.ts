import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { BlobPort } from '../storage/blobs.js'
import { ensureWritableDir, storageErrorOf } from './storage-errors.js'

export interface FileBlobsOptions {
  /** The directory blobs are kept in (created when missing). @example createFileBlobs({ dir: './docs-data/blobs' }) */
  dir: string
  /**
   * Several processes write the directory (the PostgreSQL store's deployments, on one machine or
   * a shared mount): no reference counts (a read-modify-write between processes would lose
   * counts), `delete` leaves the bytes (another process may have put the same content meanwhile;
   * a blob no row names is never served), and temporary files are removed when they are over an
   * hour old rather than by their writer's pid (another machine's pids mean nothing here).
   * @default false
   */
  shared?: boolean
}

/** What is kept beside a blob's bytes. */
interface BlobMeta {
  contentType: string
  /** How many puts hold it: the same bytes put twice are one file, deleted when both let go. */
  refs: number
}

const KEY = /^[0-9a-f]{64}$/
const FOLDER = /^[0-9a-f]{2}$/
/** A temporary file: `<blob or meta file>.<pid of its writer>.<n>.partial`. */
const PARTIAL = /\.(\d+)\.\d+\.partial$/

/** Remove a file if it is there (what is left of a failed write); never throws. */
function discard(file: string): void {
  try {
    unlinkSync(file)
  } catch {
    // not there, or not removable either: nothing more to do
  }
}

/** Remove a blob folder left empty; never throws (a blob may have come meanwhile). */
function discardFolder(folder: string): void {
  try {
    if (readdirSync(folder).length === 0) rmdirSync(folder)
  } catch {
    // already gone, or not removable
  }
}

/** Whether a file was modified after `time` (ms), as far as this process can tell. */
function modifiedAfter(file: string, time: number): boolean {
  try {
    return statSync(file).mtimeMs > time
  } catch {
    return true
  }
}

/** Whether process `pid` is running (one writing a temporary file now), as far as this process can tell. */
function running(pid: number): boolean {
  if (pid === process.pid) return false // this process writes synchronously: none of its writes is under way
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM' // there, another user's
  }
}

/**
 * Remove the temporary files a process left when it died in the middle of a write (a crash, a
 * kill): they are not blobs, nothing names them, and nothing else would ever remove them. One
 * whose writer is still running is left to it.
 */
function removeStalePartials(dir: string, shared: boolean): void {
  const hourAgo = Date.now() - 3_600_000
  for (const folder of readdirSync(dir)) {
    if (!FOLDER.test(folder)) continue
    let removed = false
    for (const name of readdirSync(join(dir, folder))) {
      const pid = PARTIAL.exec(name)?.[1]
      if (pid === undefined) continue
      if (shared ? modifiedAfter(join(dir, folder, name), hourAgo) : running(Number(pid))) continue
      discard(join(dir, folder, name))
      removed = true
    }
    if (removed) discardFolder(join(dir, folder))
  }
}

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
 *
 * A write that fails removes what it wrote (the temporary file, and a new blob's file when its
 * metadata could not be written), and says why with a StorageError when the disk is full or
 * cannot be written (the API answers 507 or 503). Opening removes the temporary files of a
 * process that died in the middle of a write.
 */
export function createFileBlobs(options: FileBlobsOptions): BlobPort & { readonly dir: string } {
  const dir = resolve(options.dir)
  ensureWritableDir(dir)
  const shared = options.shared ?? false
  removeStalePartials(dir, shared)
  let temp = 0

  const folderOf = (key: string) => join(dir, key.slice(0, 2))
  const pathOf = (key: string) => join(folderOf(key), key)
  const metaOf = (key: string) => `${pathOf(key)}.json`
  const writeAtomically = (file: string, data: string | Uint8Array) => {
    const partial = `${file}.${process.pid}.${++temp}.partial`
    try {
      writeFileSync(partial, data)
      renameSync(partial, file)
    } catch (error) {
      // A full disk leaves the bytes written so far: they go, and the error says why.
      discard(partial)
      throw storageErrorOf(error, file) ?? error
    }
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
        if (shared) return key
        writeAtomically(metaOf(key), JSON.stringify({ contentType, refs: meta.refs + 1 } satisfies BlobMeta))
        return key
      }
      try {
        // Not recursive (its parent is there): Node's recursive mkdir says ENOENT for EROFS.
        if (!existsSync(folderOf(key))) mkdirSync(folderOf(key))
        writeAtomically(pathOf(key), bytes)
        writeAtomically(metaOf(key), JSON.stringify({ contentType, refs: 1 } satisfies BlobMeta))
      } catch (error) {
        // The bytes without their metadata are no blob: nothing of a failed put stays.
        discard(pathOf(key))
        discardFolder(folderOf(key))
        throw storageErrorOf(error, folderOf(key)) ?? error
      }
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
      if (shared) return true
      if (meta.refs > 1) {
        writeAtomically(metaOf(key), JSON.stringify({ ...meta, refs: meta.refs - 1 }))
        return true
      }
      // The metadata first: a blob without it is absent, whatever happens next.
      try {
        unlinkSync(metaOf(key))
      } catch (error) {
        throw storageErrorOf(error, metaOf(key)) ?? error
      }
      discard(pathOf(key))
      // The last blob of its folder: the folder goes too (an undone upload leaves nothing behind).
      discardFolder(folderOf(key))
      return true
    },
  }
}
