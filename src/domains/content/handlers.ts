import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { Urls } from '../../core/context.js'
import { createJsonCache, type JsonCache } from '../../core/json-cache.js'
import { rawJson, type RawJson } from '../../core/json.js'
import { implement } from '../context.js'
import { mapPage, paginateList } from '../../core/paging.js'
import type { RevisionRow } from './rows.js'
import { revisionAnswered } from '../hooks.js'
import { getSpace } from '../spaces/model.js'
import { encodeFile, encodePageTree, encodeRevision } from './encode.js'
import { answerDocument, answerPage } from './page-answer.js'
import { encodeReusableContent, requireReusableContent } from './reusable.js'
import { linksPage, revisionLinks } from './links.js'
import { contentOperations } from './operations.js'
import { downloadAnswer, readBlob, requireNamedBlob, type BlobBytes } from './download.js'
import { mainRevision, pageByPath, requirePage, requireReadableRevision } from './revision.js'
import { documentById } from './documents.js'
import { checkComputedSource, computedDocument, computedRevision } from './computed.js'

/**
 * A revision answered with what the areas above add (domains/hooks.ts): for a merge, the change
 * request it merged (`mergedFrom`, required by the official shape; change-requests/encode.ts).
 */
export function answerRevision(ctx: ReadContext, rev: RevisionRow): RawJson<ReturnType<typeof encodeRevision>> {
  // A revision never changes (nor do its pages and files): its answer is made once per row
  // version and kind of reader (a site token's visitor is not shown page conditions). GitBook's
  // renderer reads the revision for every page it renders.
  const cache = revisionJsonCache(ctx.urls, ctx.actor.content !== undefined)
  return rawJson(cache.get(rev) ?? cache.set(rev, JSON.stringify(encodeRevision(ctx, rev, revisionAnswered(ctx, rev)))))
}

/** How much revision JSON an API keeps, per kind of reader (a revision of 1,000 pages is some 400 KB). */
export const REVISION_JSON_CACHE_CHARS = 16 * 1024 * 1024
const revisionCaches = new WeakMap<Urls, [JsonCache<RevisionRow>, JsonCache<RevisionRow>]>()

function revisionJsonCache(urls: Urls, visitor: boolean): JsonCache<RevisionRow> {
  let caches = revisionCaches.get(urls)
  if (!caches) revisionCaches.set(urls, (caches = [createJsonCache(REVISION_JSON_CACHE_CHARS), createJsonCache(REVISION_JSON_CACHE_CHARS)]))
  return caches[visitor ? 1 : 0]
}

/** A file of a revision by id (files of other revisions are a 404 here). */
export function fileIn(ctx: ReadContext, rev: RevisionRow, fileId: string) {
  const file = rev.files.includes(fileId) ? ctx.tx.get('files', fileId) : undefined
  if (!file) throw new ApiError('NOT_FOUND', 'File not found')
  return encodeFile(ctx, file)
}

/** The files of a revision, paged in upload order. */
export function filesPage(ctx: ReadContext, rev: RevisionRow, query: { page?: string | undefined; limit: number }) {
  return mapPage(paginateList(rev.files, query), (id) => encodeFile(ctx, ctx.tx.get('files', id)!))
}

export const contentHandlers = implement(
  contentOperations,
  {
    getCurrentRevision: (ctx, { params }) => answerRevision(ctx, mainRevision(ctx, getSpace(ctx, params.spaceId))),

    listPages: (ctx, { params }) => ({ pages: encodePageTree(ctx, mainRevision(ctx, getSpace(ctx, params.spaceId)), 'document') }),

    listFiles: (ctx, { params, query }) => filesPage(ctx, mainRevision(ctx, getSpace(ctx, params.spaceId)), query),

    getFileById: (ctx, { params }) => fileIn(ctx, mainRevision(ctx, getSpace(ctx, params.spaceId)), params.fileId),

    getPageById: (ctx, { params, query }) => {
      const rev = mainRevision(ctx, getSpace(ctx, params.spaceId))
      return answerPage(ctx, rev, requirePage(ctx, rev, params.pageId), query)
    },

    getPageByPath: (ctx, { params, query }) => {
      const rev = mainRevision(ctx, getSpace(ctx, params.spaceId))
      const page = pageByPath(ctx.tx, rev, params.pagePath)
      if (!page) throw new ApiError('NOT_FOUND', 'Page not found')
      return answerPage(ctx, rev, page, query)
    },

    getRevisionById: (ctx, { params }) => answerRevision(ctx, requireReadableRevision(ctx, getSpace(ctx, params.spaceId), params.revisionId)),

    listPagesInRevisionById: (ctx, { params }) => ({
      pages: encodePageTree(ctx, requireReadableRevision(ctx, getSpace(ctx, params.spaceId), params.revisionId), 'document'),
    }),

    getPageInRevisionByPath: (ctx, { params, query }) => {
      const rev = requireReadableRevision(ctx, getSpace(ctx, params.spaceId), params.revisionId)
      const page = pageByPath(ctx.tx, rev, params.pagePath)
      if (!page) throw new ApiError('NOT_FOUND', 'Page not found')
      return answerPage(ctx, rev, page, query)
    },

    getPageDocumentInRevisionById: (ctx, { params, query }) => {
      const rev = requireReadableRevision(ctx, getSpace(ctx, params.spaceId), params.revisionId)
      return answerDocument(ctx, rev, requirePage(ctx, rev, params.pageId).document, query)
    },

    getReusableContentById: (ctx, { params }) =>
      encodeReusableContent(requireReusableContent(ctx, mainRevision(ctx, getSpace(ctx, params.spaceId)), params.reusableContentId)),

    getReusableContentInRevisionById: (ctx, { params }) => {
      const rev = requireReadableRevision(ctx, getSpace(ctx, params.spaceId), params.revisionId)
      return encodeReusableContent(requireReusableContent(ctx, rev, params.reusableContentId))
    },

    getReusableContentDocumentInRevisionById: (ctx, { params, query }) => {
      const rev = requireReadableRevision(ctx, getSpace(ctx, params.spaceId), params.revisionId)
      return answerDocument(ctx, rev, requireReusableContent(ctx, rev, params.reusableContentId).document, query)
    },

    getDocumentById: (ctx, { params }) => documentById(ctx, getSpace(ctx, params.spaceId), params.documentId),

    getComputedDocument: (ctx, { params, body }) => {
      checkComputedSource(ctx, getSpace(ctx, params.spaceId), body.source)
      return computedDocument()
    },

    getComputedRevision: (ctx, { params, body }) => {
      checkComputedSource(ctx, getSpace(ctx, params.spaceId), body.source)
      return computedRevision()
    },

    listFilesInRevisionById: (ctx, { params, query }) => filesPage(ctx, requireReadableRevision(ctx, getSpace(ctx, params.spaceId), params.revisionId), query),

    getFileInRevisionById: (ctx, { params }) => fileIn(ctx, requireReadableRevision(ctx, getSpace(ctx, params.spaceId), params.revisionId), params.fileId),

    listSpaceLinks: (ctx, { params, query }) => linksPage(revisionLinks(ctx, mainRevision(ctx, getSpace(ctx, params.spaceId))), query, 0),

    getPageInRevisionById: (ctx, { params, query }) => {
      const rev = requireReadableRevision(ctx, getSpace(ctx, params.spaceId), params.revisionId)
      return answerPage(ctx, rev, requirePage(ctx, rev, params.pageId), query)
    },

    downloadFile: (ctx, { params, prepared }) => downloadAnswer(ctx, params, prepared as BlobBytes),

    downloadFileByKey: (ctx, { params, prepared }) => downloadAnswer(ctx, params, prepared as BlobBytes),
  },
  {
    // The bytes are read from the blob port before the transaction, once a file row is known to name them.
    downloadFile: { requires: (ctx, { params }) => requireNamedBlob(ctx, params.blobKey), run: readBlob },
    downloadFileByKey: { requires: (ctx, { params }) => requireNamedBlob(ctx, params.blobKey), run: readBlob },
  },
)
