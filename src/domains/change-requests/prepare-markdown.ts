import { OffloadError, offloadFailure, type Offload } from '../../core/offload.js'
import type { Prepare } from '../../core/operation.js'
import { withKeys, type ReadMarkdownOutput } from '../content/markdown-task.js'
import type { JsonDocument } from '../content/document.js'
import { documentRefs } from '../content/markdown.js'
import { createSlicer } from '../../core/slices.js'
import { deepFreezeInSlices } from '../../storage/freeze.js'
import type { PreparedFile } from './content-update.js'
import { prepareContentFiles } from './prepare.js'
import type { ContentChange } from './schemas.js'

/** What a content batch has made before its transaction: its files' blobs, and its markdown read. */
export interface PreparedBatch {
  files: PreparedFile[]
  /** By change index: each markdown document of the batch, read (or why it cannot be). */
  markdown: ReadonlyMap<number, ReadMarkdownOutput>
  /** The documents of the batch with no URL link, image or reusable content block (nothing for the transaction to resolve in them). */
  linkless: WeakSet<object>
}

/**
 * Read every markdown document of a batch through the offload (a worker thread in Node servers),
 * one after the other: a batch of large pages never holds the event loop, and one batch takes one
 * worker at a time, leaving the others to other requests. Each document gets its block keys (the
 * API's ids) here. A document that cannot be stored is recorded, not thrown: the transaction
 * reports it when it reaches that change, after the changes before it, as it always has.
 */
export async function readBatchMarkdown(offload: Offload, newId: () => string, changes: readonly ContentChange[]): Promise<Map<number, ReadMarkdownOutput>> {
  const out = new Map<number, ReadMarkdownOutput>()
  for (const [i, change] of changes.entries()) {
    if (
      change.operation !== 'insert_page' &&
      change.operation !== 'update_page' &&
      change.operation !== 'insert_reusable_content' &&
      change.operation !== 'update_reusable_content'
    )
      continue
    const markdown = (change.document as { markdown?: unknown } | undefined)?.markdown
    if (typeof markdown !== 'string') continue
    // insert_page reads a leading `# Heading` as the title, as Git Sync reads a file.
    let read: ReadMarkdownOutput
    try {
      read = await offload.run('readMarkdown', { markdown, takeTitle: change.operation === 'insert_page', keys: true })
    } catch (error) {
      throw OffloadError.isOffloadError(error) ? offloadFailure(error, `changes[${i}].document.markdown`) : error
    }
    out.set(i, read.ok ? { ok: true, value: { ...read.value, document: withKeys(read.value.document, read.keys, newId) }, keys: 0 } : read)
  }
  return out
}

/**
 * The prepare step of a content batch: its markdown read, its documents frozen (in slices: the
 * transaction then stores them as they are, without walking them), then its files fetched and
 * stored (undone when the batch fails).
 */
export const prepareContentUpdate: Prepare = async (env, input) => {
  const changes = (input.body as { changes: ContentChange[] }).changes
  const markdown = await readBatchMarkdown(env.offload, env.newId, changes)
  const slicer = createSlicer()
  const linkless = new WeakSet<object>()
  const documents: object[] = []
  for (const change of changes) {
    const document = 'document' in change ? (change.document as { document?: object } | undefined)?.document : undefined
    if (document) documents.push(document)
  }
  for (const read of markdown.values()) if (read.ok) documents.push(read.value.document)
  for (const document of documents) {
    await deepFreezeInSlices(document, slicer)
    // A reusable content block may name a reusable content of the batch by its ref: resolved too.
    if (!documentRefs(document as JsonDocument).some((ref) => ref.kind === 'url' || ref.kind === 'reusable-content')) linkless.add(document)
    if (slicer.due()) await slicer.maybeYield()
  }
  const files = await prepareContentFiles(env, input)
  const value: PreparedBatch = { files: files.value as PreparedFile[], markdown, linkless }
  return { value, undo: files.undo }
}
