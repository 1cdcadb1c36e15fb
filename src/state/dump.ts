import type { StoragePort } from '../storage/port.js'
import type { AppSchema } from '../storage/schema.js'
import { STATE_FORMAT, STATE_VERSION, type CollectionName, type StateDocument } from './seed.js'

/**
 * The whole state as a JSON document: every row of every collection, in insertion order (which
 * is what lists in creation order follow), collections in the order given. The rows are copies:
 * edit them freely, then load the document into an API (`createDocsApi({ seed })`).
 */
export function dumpState(store: StoragePort<AppSchema>, collections: readonly CollectionName[]): StateDocument {
  return store.read((tx) => {
    const doc: Record<string, unknown> = { format: STATE_FORMAT, version: STATE_VERSION }
    for (const name of collections) doc[name] = structuredClone(tx.all(name))
    return doc as StateDocument
  })
}
