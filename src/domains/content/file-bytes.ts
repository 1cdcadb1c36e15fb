import type { Runtime } from '../../core/execute.js'

/**
 * The bytes a download URL (`/files/<blob key>/<name>`) serves: those of a blob some file row
 * still names. A purged space's files leave the rows, so their URLs stop answering even though
 * the bytes stay in the blob port (a duplicate's files, a snapshot or a fork may still name them).
 */
export function servedFileBytes(rt: Pick<Runtime, 'store' | 'blobs'>, key: string): { bytes: Uint8Array; contentType: string } | undefined {
  const named = rt.store.read((tx) => {
    for (const _ of tx.scan('files', 'byBlob', key)) return true
    return false
  })
  return named ? rt.blobs.get(key) : undefined
}
