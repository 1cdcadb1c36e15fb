import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { JsonDocument } from './document.js'
import type { PageVersionRow, ReusableContentVersionRow, RevisionRow } from './rows.js'
import { findRevision } from './revision.js'
import { indexGet } from './tree-index.js'

/**
 * Documents by id (`getDocumentById`). A page's body is stored in its page version, an immutable
 * row: the version's id is the page's `documentId` (the official field naming "the document with
 * the page body"), so one id always names the same document, and an edit of the page gives it a
 * new one. A version made in a change request is work in progress until main holds it: it is
 * read only by callers who may view change requests (as the revisions of change requests are,
 * revision.ts); for anyone else a document is found only when a revision of main holds it.
 */
export function documentById(ctx: ReadContext, space: SpaceRow, id: string): JsonDocument {
  // A reusable content's `document` is its version's id, read the same way.
  const reusable = ctx.tx.get('reusableContentVersions', id)
  if (reusable) {
    if (reusable.space !== space.id || !readableReusable(ctx, space, reusable)) throw new ApiError('NOT_FOUND', 'Document not found')
    return reusable.document
  }
  const version = ctx.tx.get('pageVersions', id)
  if (!version || version.space !== space.id || !readableVersion(ctx, space, version)) throw new ApiError('NOT_FOUND', 'Document not found')
  return version.document
}

function readableReusable(ctx: ReadContext, space: SpaceRow, version: ReusableContentVersionRow): boolean {
  if (ctx.access.can('space', space.id, 'viewChangeRequests')) return true
  const holds = (rev: RevisionRow) => rev.reusableContents?.[version.reusableContent] === version.id
  const main = findRevision(ctx.tx, space, space.revision)
  if (main && holds(main)) return true
  return ctx.tx.scan('revisions', 'bySpace', space.id).some(({ row }) => row.changeRequest === undefined && holds(row))
}

function readableVersion(ctx: ReadContext, space: SpaceRow, version: PageVersionRow): boolean {
  if (ctx.access.can('space', space.id, 'viewChangeRequests')) return true
  const holds = (rev: RevisionRow) => indexGet(ctx.tx, rev.buckets, version.page) === version.id
  // Main's current revision first (two reads): the documents of published pages.
  const main = findRevision(ctx.tx, space, space.revision)
  if (main && holds(main)) return true
  return ctx.tx.scan('revisions', 'bySpace', space.id).some(({ row }) => row.changeRequest === undefined && holds(row))
}
