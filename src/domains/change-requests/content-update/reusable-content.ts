import { ApiError } from '../../../core/errors.js'
import { emptyDocument } from '../../content/document.js'
import { field, type Batch, type ChangeOf } from './batch.js'
import { readDocument } from './document.js'
import { resolveRefs } from './refs.js'

/**
 * Reusable content changes of a batch (beyond the official operations, which have none): a
 * reusable content inserted (its id given when the batch's refs were read: a page of the batch
 * includes it by its `ref`), updated (title, body) or deleted. A markdown body is read as a page's
 * is, its frontmatter and leading heading ignored (a reusable content has only a title). Pages
 * still naming a deleted reusable content keep their block: a read dereferencing it leaves it as
 * it is (content/dereference.ts), as for any reference to what is not there.
 */
export function insertReusableContent({ draft, space, now, refs, pageIds, prepared }: Batch, change: ChangeOf<'insert_reusable_content'>, i: number): void {
  const id = pageIds.get(i)!
  const { document } = change.document ? readDocument(change.document, i, prepared.markdown.get(i)) : { document: emptyDocument() }
  draft.setReusableContent(id, {
    reusableContent: id,
    space: space.id,
    title: change.title,
    document: resolveRefs(document, refs, draft, '', prepared.linkless),
    createdAt: now,
    updatedAt: now,
  })
}

export function updateReusableContent({ draft, now, refs, prepared }: Batch, change: ChangeOf<'update_reusable_content'>, i: number): void {
  const current = draft.reusableContent(change.reusableContent)
  if (!current) throw new ApiError('BAD_REQUEST', `${field(i, 'reusableContent')}: no reusable content "${change.reusableContent}" in the change request`)
  const document = change.document
    ? resolveRefs(readDocument(change.document, i, prepared.markdown.get(i)).document, refs, draft, '', prepared.linkless)
    : current.document
  draft.setReusableContent(change.reusableContent, { ...current, title: change.title ?? current.title, document, updatedAt: now })
}

export function deleteReusableContent({ draft }: Batch, change: ChangeOf<'delete_reusable_content'>, i: number): void {
  if (!draft.reusableContent(change.reusableContent))
    throw new ApiError('BAD_REQUEST', `${field(i, 'reusableContent')}: no reusable content "${change.reusableContent}" in the change request`)
  draft.removeReusableContent(change.reusableContent)
}
