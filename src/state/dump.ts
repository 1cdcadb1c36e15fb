import type { BlobPort } from '../storage/blobs.js'
import type { StoragePort } from '../storage/port.js'
import type { AppSchema } from '../domains/schema.js'
import { encodeBase64 } from '../domains/content/file-info.js'
import { STATE_FORMAT, STATE_VERSION, type CollectionName, type StateBlob, type StateDocument } from './seed.js'

/**
 * The whole state as a JSON document: every row of every collection, in insertion order (which
 * is what lists in creation order follow), collections in the order given, and the bytes of every
 * file (`blobs`, base64, by the key the `files` rows hold). The rows are copies: edit them freely,
 * then load the document into an API (`createDocsApi({ seed })`).
 */
export function dumpState(store: StoragePort<AppSchema>, collections: readonly CollectionName[], blobs: BlobPort): StateDocument {
  return store.read((tx) => {
    const doc: Record<string, unknown> = { format: STATE_FORMAT, version: STATE_VERSION }
    for (const name of collections) doc[name] = structuredClone(tx.all(name))
    const bytes: StateBlob[] = []
    const seen = new Set<string>()
    for (const file of tx.all('files')) {
      if (seen.has(file.blob)) continue
      seen.add(file.blob)
      const blob = blobs.get(file.blob)
      if (blob) bytes.push({ key: file.blob, contentType: blob.contentType, base64: encodeBase64(blob.bytes) })
    }
    if (bytes.length > 0) doc.blobs = bytes
    return doc as StateDocument
  })
}
