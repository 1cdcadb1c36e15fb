import { ApiError } from '../../core/errors.js'
import type { Prepare } from '../../core/operation.js'
import { fetchOutgoing } from '../../core/outgoing.js'
import { decodeBase64, inspectFile } from '../content/file-info.js'
import type { PreparedFile } from './content-update.js'
import type { ContentChange } from './schemas.js'

/** Decoded size limit of a `base64` file (the official 1 MB) and of a fetched one. */
const MAX_BASE64_BYTES = 1024 * 1024
const MAX_URL_BYTES = 10 * 1024 * 1024

/**
 * The files of a content batch, made before its transaction: each `base64` decoded, each `url`
 * fetched through the API's fetch (guarded: no private addresses unless allowed), inspected (type,
 * size, image dimensions) and put in the blob port. Undone (the blobs deleted) when the batch fails.
 */
export const prepareContentFiles: Prepare = async (env, input) => {
  const changes = (input.body as { changes: ContentChange[] }).changes
  const files: PreparedFile[] = []
  const keys: string[] = []
  const undo = () => {
    for (const key of keys) env.blobs.delete(key)
  }
  try {
    for (const [change, c] of changes.entries()) {
      if (c.operation !== 'insert_files') continue
      for (const [index, f] of c.files.entries()) {
        const field = `changes[${change}].files[${index}]`
        let bytes: Uint8Array
        let declared = f.contentType
        if (f.base64 !== undefined) {
          try {
            bytes = decodeBase64(f.base64)
          } catch (error) {
            throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}.base64\`: ${(error as Error).message}`)
          }
          if (bytes.byteLength > MAX_BASE64_BYTES) throw new ApiError('BAD_REQUEST', `Invalid request: body field \`${field}.base64\`: must be at most 1 MB once decoded (use \`url\` for larger files)`)
        } else {
          const got = await fetchOutgoing(env.fetch, f.url!, { field: `${field}.url`, allowPrivateNetwork: env.allowPrivateNetwork, maxBytes: MAX_URL_BYTES })
          bytes = got.bytes
          declared ??= got.contentType
        }
        const facts = inspectFile(bytes, { ...(declared !== undefined && { declared }), name: f.name })
        const blob = env.blobs.put(bytes, facts.contentType)
        keys.push(blob)
        files.push({ change, index, name: f.name, contentType: facts.contentType, size: facts.size, blob, ...(f.ref !== undefined && { ref: f.ref }), ...(facts.dimensions && { dimensions: facts.dimensions }) })
      }
    }
  } catch (error) {
    undo()
    throw error
  }
  return { value: files, undo }
}
