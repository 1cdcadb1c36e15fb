import { ApiError } from '../../../core/errors.js'
import { slugify, uniqueSlug } from '../../content/slug.js'
import { field, type Batch, type ChangeOf } from './batch.js'
import { readDocument } from './document.js'
import { applyMetadata, slugTaken, type Metadata } from './metadata.js'
import { resolveRefs } from './refs.js'
import { place } from './tree.js'

/** `insert_page`: a new page (its id given when the batch's refs were read) under `into` or at the root, at `at` or last. */
export function insertPage({ draft, space, now, refs, pageIds, pageOf, prepared, note }: Batch, change: ChangeOf<'insert_page'>, i: number): void {
  const id = pageIds.get(i)!
  const parent = change.into === undefined ? undefined : pageOf(change.into)
  if (parent !== undefined && !draft.has(parent)) throw new ApiError('BAD_REQUEST', `${field(i, 'into')}: no page "${parent}" in the change request`)
  const { document, meta } = readDocument(change.document, i, prepared.markdown.get(i))
  const fields: Metadata = { ...change, ...meta }
  const title = fields.title ?? 'Untitled'
  const taken = draft.takenSlugs(parent)
  let slug: string
  if (fields.slug !== undefined) {
    if (taken.has(fields.slug)) throw new ApiError('BAD_REQUEST', slugTaken(field(i, 'slug'), fields.slug))
    slug = fields.slug
  } else slug = uniqueSlug(slugify(title), taken)
  const page = applyMetadata(
    {
      page: id,
      space: space.id,
      type: 'document',
      title,
      slug,
      children: [],
      document: resolveRefs(document, refs, draft, draft.pathOf(parent), prepared.linkless),
      createdAt: now,
      updatedAt: now,
      ...(parent !== undefined && { parent }),
    },
    { ...fields, title, slug },
  )
  draft.set(id, page)
  place(draft, parent, id, change.at)
  note({ object: 'created_page', page: id, ...(change.ref !== undefined && { ref: change.ref }) })
}
