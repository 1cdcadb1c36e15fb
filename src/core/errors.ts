import { StorageError } from '../storage/errors.js'

/**
 * One table of error codes: each code has its HTTP status and a default message.
 * Domain code throws `new ApiError('NOT_FOUND', 'Space not found')`; the HTTP codec turns it
 * into `{"error":{"code":404,"message":"Space not found"}}`.
 */
export const ERRORS = {
  BAD_REQUEST: { status: 400, message: 'Bad request' },
  UNAUTHORIZED: { status: 401, message: 'Authentication required: send Authorization: Bearer <token>' },
  FORBIDDEN: { status: 403, message: 'You do not have permission to do this' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  CONFLICT: { status: 409, message: 'Conflict' },
  PRECONDITION_FAILED: { status: 412, message: 'Precondition failed' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  TOO_MANY_REQUESTS: { status: 429, message: 'Too many requests' },
  INTERNAL: { status: 500, message: 'Internal server error' },
  NOT_IMPLEMENTED: { status: 501, message: 'Not implemented' },
  BAD_GATEWAY: { status: 502, message: 'The upstream server failed' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is busy: try again shortly' },
  GATEWAY_TIMEOUT: { status: 504, message: 'The upstream server did not answer in time' },
  STORAGE_NOT_WRITABLE: { status: 503, message: 'Storage is not writable (a read-only or failing disk): the change was not saved, nothing was changed' },
  INSUFFICIENT_STORAGE: { status: 507, message: 'Storage is full: the change was not saved, nothing was changed; try again once space is freed' },
} as const satisfies Record<string, { status: number; message: string }>

export type ErrorCode = keyof typeof ERRORS

const API_ERROR_MARKER = Symbol.for('docs-content-api.ApiError')

/** An error the API answers with; anything else becomes a logged 500. */
export class ApiError extends Error {
  readonly [API_ERROR_MARKER] = true
  readonly code: ErrorCode
  readonly status: number
  /**
   * Commit the writes the request made before this error instead of rolling them back (for an
   * answer that is an error and yet a change, such as purging an expired space on restore).
   */
  readonly commitWrites: boolean
  /** HTTP headers the answer carries (`WWW-Authenticate` on a 401, `Allow` on a 405...). */
  readonly headers: Readonly<Record<string, string>> | undefined

  constructor(code: ErrorCode, message?: string, options?: { commitWrites?: boolean; headers?: Record<string, string> }) {
    // An ApiError is an answer (its message names the field and the rule), not a fault to trace:
    // no stack is captured, which was most of the cost of a 404 (6 of 10 µs of the dispatch), a
    // price any caller could make a served API pay on every request.
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    try {
      super(message ?? ERRORS[code].message)
    } finally {
      Error.stackTraceLimit = limit
    }
    this.name = 'ApiError'
    this.code = code
    this.status = ERRORS[code].status
    this.commitWrites = options?.commitWrites ?? false
    this.headers = options?.headers
  }

  /**
   * Recognise an ApiError by its marker rather than `instanceof`, so errors thrown by another
   * copy of this package (ESM and CJS builds side by side, say) are still recognised.
   */
  static isApiError(value: unknown): value is ApiError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[API_ERROR_MARKER] === true
  }
}

/**
 * What every `onError` defaults to: the error, logged with the package's name. A storage that
 * cannot write is no bug to trace but a disk to see to: its message (the file and the system's
 * reason) is the whole line.
 */
export function logUnexpected(error: unknown): void {
  if (StorageError.isStorageError(error)) console.error(`[docs-content-api] ${error.message}`)
  else console.error('[docs-content-api] unexpected error', error)
}

/** The JSON error body of every failed request. */
export function errorBody(status: number, message: string): { error: { code: number; message: string } } {
  return { error: { code: status, message } }
}
