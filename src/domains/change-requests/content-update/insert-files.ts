import type { Context } from '../../context.js'
import type { FileRow } from '../../content/rows.js'
import type { SpaceRow } from '../../spaces/rows.js'
import type { RevisionDraft } from '../../content/draft.js'
import { field, type BatchRef, type PreparedFile } from './batch.js'
import { claimRef } from './refs.js'

/**
 * `insert_files`: the batch's files (their bytes stored before the transaction) become files of
 * the space and of the draft, and their refs are claimed. This runs before the changes are
 * applied in order, so pages of the batch link to its files wherever they stand in it.
 */
export function insertFiles(
  ctx: Context,
  space: SpaceRow,
  draft: RevisionDraft,
  files: readonly PreparedFile[],
  refs: Map<string, BatchRef>,
  now: string,
): FileRow[] {
  const inserted: FileRow[] = []
  for (const file of files) {
    const row = ctx.tx.insert('files', {
      id: ctx.newId(),
      space: space.id,
      name: file.name,
      contentType: file.contentType,
      size: file.size,
      blob: file.blob,
      createdAt: now,
      ...(file.dimensions && { dimensions: file.dimensions }),
    })
    inserted.push(row)
    if (file.ref !== undefined) claimRef(refs, file.ref, { kind: 'file', file: row.id }, field(file.change, `files[${file.index}].ref`))
  }
  if (inserted.length > 0) draft.files = [...draft.files, ...inserted.map((f) => f.id)]
  return inserted
}
