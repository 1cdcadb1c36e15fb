import type { Offload } from './offload.js'

/**
 * A bytes answer (a file download, a PDF), as a handler returns it: a marker object holding the
 * bytes and their type, never a `Response`. The HTTP layer writes them with `content-type`,
 * `content-length` and the headers given (a HEAD gets the headers alone); the domain only says
 * what the bytes are.
 *
 * Bytes that take time to make (a PDF rendered) are given as a function, which the HTTP layer
 * calls once the request's transaction is over: as for an event stream's producer (core/stream.ts),
 * it reads nothing from the store, and works from what the handler gathered in the transaction.
 */

const BINARY = Symbol.for('docs-content-api.binary')

/**
 * The media types an operation answering bytes declares (its `responseType`), as the OpenAPI
 * document lists them: `*\/*` when the bytes are of the type they were uploaded with.
 */
export type BinaryMediaType = 'application/pdf' | '*/*'

/** The marker a handler returns for a bytes answer (recognised by a marker, not `instanceof`). */
export interface BinaryAnswer {
  readonly [BINARY]: true
  /** The bytes' `content-type`. */
  readonly contentType: string
  /**
   * The bytes, or what makes them after the transaction (it may throw an ApiError, answered as any
   * error), given the API's offload for CPU-heavy work (a PDF is rendered there).
   */
  readonly bytes: Uint8Array | ((offload: Offload) => Promise<Uint8Array>)
  /** Headers beyond `content-type` and `content-length` (caching, disposition, security). */
  readonly headers: Readonly<Record<string, string>>
}

/** A bytes answer of `contentType`. */
export function binaryAnswer(contentType: string, bytes: BinaryAnswer['bytes'], headers: Record<string, string> = {}): BinaryAnswer {
  return { [BINARY]: true, contentType, bytes, headers }
}

export function isBinaryAnswer(value: unknown): value is BinaryAnswer {
  return typeof value === 'object' && value !== null && (value as { [BINARY]?: unknown })[BINARY] === true
}

/** Whether an operation answers bytes (its `responseType` is a media type other than an event stream). */
export const answersBytes = <D extends { responseType?: string | undefined }>(def: D): def is D & { responseType: string } =>
  def.responseType !== undefined && def.responseType !== 'text/event-stream'
