import { accessSync, constants, existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { StorageError } from '../storage/errors.js'

/**
 * The system's and SQLite's ways of saying a write failed for lack of space or of write access,
 * turned into the StorageError the API answers 507 or 503 with (instead of a bare 500).
 */

/** errno codes: no space left (or over quota); a read-only file system or no permission. */
const FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT'])
const NOT_WRITABLE_ERRNO = new Set(['EROFS', 'EACCES', 'EPERM'])

/** The first line of what the system or the driver said, with its code: `EROFS: read-only file system`, `SQLITE_FULL: database or disk is full`. */
function reasonOf(error: { code: string; message: string }): string {
  // Node's messages read `EROFS: read-only file system, open '/x'` or `ENOSPC: no space left on device, write` (the caller names the file).
  const said = error.message
    .split('\n')[0]!
    .replace(/^[A-Z]+: /, '')
    .replace(/, \w+( '.*')?$/, '')
  return `${error.code}: ${said}`
}

/**
 * The StorageError a failed write means, or undefined for any other error. `what` names the file
 * or directory written (the error's message starts with it). SQLite's I/O errors
 * (`SQLITE_IOERR_*`) count as not writable: SQLite reports a write refused by a read-only file
 * system, or a lock it cannot take there, as one; SQLite's own full disk (`SQLITE_FULL`) comes
 * from `ENOSPC` or a size cap.
 */
export function storageErrorOf(error: unknown, what: string): StorageError | undefined {
  if (StorageError.isStorageError(error)) return error
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string' || !(error instanceof Error)) return undefined
  const coded = error as Error & { code: string }
  if (FULL_ERRNO.has(code) || code === 'SQLITE_FULL') return new StorageError('full', `${what}: storage is full (${reasonOf(coded)})`, { cause: error })
  // SQLite cannot open (or create) a file in a folder that is missing as well as in one it may not write.
  if (code === 'SQLITE_CANTOPEN') return new StorageError('not-writable', `${what} cannot be opened for writing (${reasonOf(coded)})`, { cause: error })
  if (NOT_WRITABLE_ERRNO.has(code) || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_IOERR')) {
    return new StorageError('not-writable', `${what} is not writable (${reasonOf(coded)})`, { cause: error })
  }
  return undefined
}

/**
 * Create `dir` when missing and check that it can be written, so a data directory on a read-only
 * file system (or without write permission) is refused at once, in one sentence, rather than at
 * the first write. Node's recursive mkdir says ENOENT where a parent is read-only: the nearest
 * parent that exists says why instead.
 */
export function ensureWritableDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true })
  } catch (error) {
    let parent = dirname(dir)
    while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent)
    try {
      accessSync(parent, constants.W_OK)
    } catch (denied) {
      throw storageErrorOf(denied, `${dir} cannot be created: ${parent}`) ?? denied
    }
    throw storageErrorOf(error, dir) ?? error
  }
  try {
    accessSync(dir, constants.W_OK)
  } catch (error) {
    throw storageErrorOf(error, dir) ?? error
  }
}
