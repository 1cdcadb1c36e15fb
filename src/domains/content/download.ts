import type { ReadContext } from '../context.js'
import { binaryAnswer, type BinaryAnswer } from '../../core/binary.js'
import { ApiError } from '../../core/errors.js'
import type { PrepareEnv, PrepareInput } from '../../core/operation.js'

/**
 * A file's download (`downloadURL`, `/files/<blob key>/<name>`), served by URL alone as a CDN or a
 * signed URL would: the key is unguessable and names immutable bytes. The bytes served are those
 * of a blob some file row still names: a purged space's files leave the rows, so their URLs stop
 * answering even though the bytes stay in the blob port (a duplicate's files, a snapshot or a fork
 * may still name them).
 */

interface DownloadParams {
  blobKey: string
  fileName?: string
}

const fileNotFound = () => new ApiError('NOT_FOUND', 'File not found')

/** A 404 unless some file row names the blob (checked before its bytes are read, and again in the transaction). */
export function requireNamedBlob(ctx: ReadContext, key: string): void {
  for (const _ of ctx.tx.scan('files', 'byBlob', key)) return
  throw fileNotFound()
}

/** The prepare step: the blob's bytes, read from the blob port (the transaction has no port of its own). */
export async function readBlob(env: PrepareEnv, input: PrepareInput): Promise<{ value: BlobBytes; undo(): void }> {
  const blob = env.blobs.get((input.params as DownloadParams).blobKey)
  if (!blob) throw fileNotFound()
  return { value: blob, undo: () => undefined }
}

export type BlobBytes = NonNullable<ReturnType<PrepareEnv['blobs']['get']>>

/** The answer of a download: the bytes, with what keeps a browser from running them as a page of the API's origin. */
export function downloadAnswer(ctx: ReadContext, params: DownloadParams, blob: BlobBytes): BinaryAnswer {
  requireNamedBlob(ctx, params.blobKey)
  return binaryAnswer(blob.contentType, blob.bytes, {
    'cache-control': 'public, max-age=31536000, immutable',
    // Uploaded bytes are the uploader's: never sniffed into another type, never run as a page
    // of the API's origin (an HTML or SVG file is downloaded, not shown).
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'",
    'content-disposition': dispositionOf(blob.contentType, params.fileName),
  })
}

/** Types a browser shows without running anything of the file: shown inline; everything else is an attachment. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|application\/pdf|text\/plain|audio\/[\w.+-]+|video\/[\w.+-]+)(;|$)/i

/** `name` is the path segment as the router decoded it. */
function dispositionOf(contentType: string, name: string | undefined): string {
  const kind = INLINE.test(contentType) ? 'inline' : 'attachment'
  return name ? `${kind}; filename*=UTF-8''${encodeURIComponent(name)}` : kind
}
