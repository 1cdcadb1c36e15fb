import { ApiError } from '../../core/errors.js'
import type { Prepare } from '../../core/operation.js'
import { fetchOutgoing } from '../../core/outgoing.js'
import { decodeBase64, inspectFile, loadFileInspection } from '../content/file-info.js'
import type { PreparedFile } from './content-update.js'
import type { ContentChange } from './schemas.js'

/** Decoded size limit of a `base64` file (the official 1 MB) and of a fetched one. */
const MAX_BASE64_BYTES = 1024 * 1024
const MAX_URL_BYTES = 10 * 1024 * 1024

type BatchFile = Extract<ContentChange, { operation: 'insert_files' }>['files'][number]

/** A file of the batch, with where it stands in it (`slot`: its rank among the batch's files). */
interface Wanted {
  slot: number
  change: number
  index: number
  field: string
  file: BatchFile
}

/**
 * The files of a content batch, made before its transaction: each `base64` decoded, each `url`
 * fetched through the API's fetch (guarded: no private addresses unless allowed), inspected (type,
 * size, image dimensions) and put in the blob port. Undone (the blobs deleted) when the batch fails.
 *
 * Memory stays bounded whatever the batch names: its files count against `outgoing.batchBytes`
 * in all (decoded and fetched, a 413 past it), at most `outgoing.batchFetches` URLs are fetched
 * at once, each with a lease on the API-wide budget (core/outgoing-limits.ts), and each file goes
 * to the blob port as soon as it is read. The base64 files are decoded first: a batch that cannot
 * be stored fails before any outgoing request.
 */
export const prepareContentFiles: Prepare = async (env, input) => {
  const changes = (input.body as { changes: ContentChange[] }).changes
  const { batchBytes, batchFetches, budget } = env.outgoing
  const wanted: Wanted[] = []
  for (const [change, c] of changes.entries()) {
    if (c.operation !== 'insert_files') continue
    for (const [index, file] of c.files.entries()) wanted.push({ slot: wanted.length, change, index, field: `changes[${change}].files[${index}]`, file })
  }
  // In batch order whatever order the fetches end in: ids and `insertedFiles` follow it.
  const files: Array<PreparedFile | undefined> = new Array(wanted.length)
  const keys: string[] = []
  const undo = () => {
    for (const key of keys) env.blobs.delete(key)
  }
  let used = 0
  const charge = (field: string, bytes: number) => {
    used += bytes
    if (used > batchBytes)
      throw new ApiError(
        'PAYLOAD_TOO_LARGE',
        `Invalid request: body field \`${field}\`: the files of the batch are larger than ${batchBytes} bytes in all (send them in several batches)`,
      )
  }
  if (wanted.length > 0) await loadFileInspection()
  const store = (w: Wanted, bytes: Uint8Array, declared: string | undefined) => {
    const { file, change, index } = w
    const facts = inspectFile(bytes, { ...(declared !== undefined && { declared }), name: file.name })
    const blob = env.blobs.put(bytes, facts.contentType)
    keys.push(blob)
    files[w.slot] = {
      change,
      index,
      name: file.name,
      contentType: facts.contentType,
      size: facts.size,
      blob,
      ...(file.ref !== undefined && { ref: file.ref }),
      ...(facts.dimensions && { dimensions: facts.dimensions }),
    }
  }

  try {
    for (const w of wanted) {
      if (w.file.base64 === undefined) continue
      let bytes: Uint8Array
      try {
        bytes = decodeBase64(w.file.base64)
      } catch (error) {
        throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${w.field}.base64\`: ${(error as Error).message}`)
      }
      if (bytes.byteLength > MAX_BASE64_BYTES)
        throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${w.field}.base64\`: must be at most 1 MB once decoded (use \`url\` for larger files)`)
      charge(`${w.field}.base64`, bytes.byteLength)
      store(w, bytes, w.file.contentType)
    }
  } catch (error) {
    undo()
    throw error
  }

  // `batchFetches` workers take the URL files in order; once one fails no other starts, those
  // running end, and the failure of the earliest file is the answer (as one by one would be).
  const byUrl = wanted.filter((w) => w.file.base64 === undefined)
  let next = 0
  const failed: { first?: { slot: number; error: unknown } } = {}
  const fail = (slot: number, error: unknown) => {
    if (!failed.first || slot < failed.first.slot) failed.first = { slot, error }
  }
  const worker = async () => {
    while (!failed.first && next < byUrl.length) {
      const w = byUrl[next++]!
      const field = `${w.field}.url`
      try {
        const got = await fetchOutgoing(env.fetch, w.file.url!, {
          field,
          allowPrivateNetwork: env.allowPrivateNetwork,
          maxBytes: MAX_URL_BYTES,
          budget,
          onBytes: (n) => charge(field, n),
        })
        store(w, got.bytes, w.file.contentType ?? got.contentType)
      } catch (error) {
        fail(w.slot, error)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(batchFetches, byUrl.length) }, worker))
  if (failed.first) {
    undo()
    throw failed.first.error
  }
  return { value: files.filter((f) => f !== undefined), undo }
}
