import type { Context } from '../../context.js'
import type { ChangeRequestRow } from '../rows.js'
import type { SpaceRow } from '../../spaces/rows.js'
import type { RevisionDraft } from '../../content/draft.js'
import type { ReadMarkdownOutput } from '../../content/markdown-task.js'
import type { ContentChange } from '../schemas.js'

/** A file of the batch, its bytes already in the blob port (see prepare.ts). */
export interface PreparedFile {
  change: number
  index: number
  ref?: string
  name: string
  contentType: string
  size: number
  dimensions?: { width: number; height: number }
  blob: string
}

/** What the batch made before its transaction, as the transaction takes it (prepare-markdown.ts's `PreparedBatch`). */
export interface Prepared {
  files: readonly PreparedFile[]
  markdown: ReadonlyMap<number, ReadMarkdownOutput>
  linkless?: WeakSet<object>
}

/** What a batch `ref` names: a page inserted or a file inserted by the batch. */
export type BatchRef = { kind: 'page'; page: string } | { kind: 'file'; file: string } | { kind: 'reusable-content'; reusableContent: string }

export type Outcome =
  { object: 'created_page'; ref?: string; page: string } | { object: 'updated_page'; page: string } | { object: 'deleted_page'; page: string }

/** One change of the batch, by its operation. */
export type ChangeOf<K extends ContentChange['operation']> = Extract<ContentChange, { operation: K }>

/** What each change of a batch works on: the draft of the new revision, the batch's refs, and where outcomes go. */
export interface Batch {
  ctx: Context
  cr: ChangeRequestRow
  space: SpaceRow
  draft: RevisionDraft
  now: string
  prepared: Prepared
  refs: ReadonlyMap<string, BatchRef>
  /** The id given to each `insert_page` and `insert_reusable_content` of the batch, by the change's index. */
  pageIds: ReadonlyMap<number, string>
  /** A parent (`into`) is a page id, or the ref of a page inserted earlier in the batch. */
  pageOf(id: string): string
  note(outcome: Outcome): void
}

export const field = (i: number, name: string) => `Invalid request: body field \`changes[${i}].${name}\``
