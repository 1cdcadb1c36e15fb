/**
 * Why a store (or a blob port) could not write: the disk is full, or the storage cannot be
 * written (a read-only file system, a directory without write permission, a failing disk).
 */
export type StorageFailure = 'full' | 'not-writable'

const STORAGE_ERROR_MARKER = Symbol.for('docs-content-api.StorageError')

/**
 * Thrown by a storage adapter (the SQLite store, the file blob port, or one of your own) that
 * could not write for one of the reasons above. A request that meets it changes nothing (its
 * transaction rolls back, the blobs it stored are deleted) and is answered 507 (`full`) or 503
 * (`not-writable`) with a message that says so; the error itself, whose message names the file
 * and the system's reason, goes to `onError` for whoever runs the server.
 *
 * @example throw new StorageError('full', '/data/docs.sqlite: the disk is full (SQLITE_FULL)', { cause: error })
 */
export class StorageError extends Error {
  readonly [STORAGE_ERROR_MARKER] = true
  readonly reason: StorageFailure

  constructor(reason: StorageFailure, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'StorageError'
    this.reason = reason
  }

  /** Recognise a StorageError by its marker, as `ApiError.isApiError` does (another copy of the package may have thrown it). */
  static isStorageError(value: unknown): value is StorageError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[STORAGE_ERROR_MARKER] === true
  }
}
