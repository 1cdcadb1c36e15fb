import { ApiError } from '../../../core/errors.js'
import { slugify, uniqueSlug } from '../../content/slug.js'
import { field, type Batch, type ChangeOf } from './batch.js'
import { readDocument } from './document.js'
import { applyMetadata, slugTaken, type Metadata } from './metadata.js'
import { resolveRefs } from './refs.js'
import { place, unplace } from './tree.js'

const NO_SLUGS: { has(slug: string): boolean } = { has: () => false }

/** `update_page`: new metadata, a new body, a move (`into`, `null` for the root) or a new place (`at`). */
export function updatePage({ draft, now, refs, pageOf, prepared, note }: Batch, change: ChangeOf<'update_page'>, i: number): void {
  const old = draft.get(change.page)
  if (!old) throw new ApiError('BAD_REQUEST', `${field(i, 'page')}: no page "${change.page}" in the change request`)
  const body = change.document === undefined ? undefined : readDocument(change.document, i, prepared.markdown.get(i))
  const fields: Metadata = { ...change, ...body?.meta }
  const parent = change.into === undefined ? old.parent : change.into === null ? undefined : pageOf(change.into)
  if (parent !== undefined) {
    if (!draft.has(parent)) throw new ApiError('BAD_REQUEST', `${field(i, 'into')}: no page "${parent}" in the change request`)
    if (draft.isWithin(parent, change.page)) throw new ApiError('BAD_REQUEST', `${field(i, 'into')}: a page cannot move into itself or one of its subpages`)
  }
  const moved = parent !== old.parent
  // The siblings' slugs (a read of each sibling) only when this page's slug may change or
  // meet new siblings: an edit of a body or other metadata costs the same among 10 or 1,000.
  const slugMayChange = moved || fields.slug !== undefined || (fields.title !== undefined && fields.title !== old.title)
  const taken = slugMayChange ? draft.takenSlugs(parent, change.page) : NO_SLUGS
  if (fields.slug !== undefined && taken.has(fields.slug)) {
    throw new ApiError('BAD_REQUEST', slugTaken(field(i, 'slug'), fields.slug))
  }
  let next = applyMetadata({ ...old, updatedAt: now }, fields)
  // A slug set explicitly stays; a derived one follows a new title.
  if (fields.slug === undefined && fields.title !== undefined && fields.title !== old.title && old.slug === slugify(old.title))
    next.slug = uniqueSlug(slugify(fields.title), taken)
  else if (fields.slug === undefined && taken.has(next.slug)) next.slug = uniqueSlug(next.slug, taken)
  if (body) next.document = resolveRefs(body.document, refs, draft, draft.pathOf(parent), prepared.linkless)
  if (moved) {
    unplace(draft, old.parent, change.page)
    next = { ...next }
    if (parent === undefined) delete next.parent
    else next.parent = parent
  }
  draft.set(change.page, next)
  if (moved || change.at !== undefined) place(draft, parent, change.page, change.at)
  note({ object: 'updated_page', page: change.page })
}
