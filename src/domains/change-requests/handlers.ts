import type { ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import { implement } from '../context.js'
import { NO_CONTENT } from '../../core/operation.js'
import { indexSource, mapPage, paginateList, paginateScan } from '../../core/paging.js'
import type { ChangeRequestRow, ReviewRow } from './rows.js'
import type { RevisionRow } from '../content/rows.js'
import { fileIn, filesPage, answerRevision } from '../content/handlers.js'
import { encodeFile, encodePageTree } from '../content/encode.js'
import { answerPage } from '../content/page-answer.js'
import { encodeReusableContent, requireReusableContent } from '../content/reusable.js'
import { pageByPath, requirePage, requireRevision } from '../content/revision.js'
import { linksPage, pageLinks, revisionLinks } from '../content/links.js'
import { getSpace } from '../spaces/model.js'
import { mergeChangeRequest, updateFromMain } from './actions.js'
import { applyContentChanges } from './content-update.js'
import { encodeChangeRequest, encodeRequestedReviewer, encodeReview, userObject } from './encode.js'
import { organizationChangeRequests, spaceChangeRequests } from './list.js'
import { createChangeRequest, getChangeRequest, requireContentEditable, updateChangeRequest } from './model.js'
import { changeRequestOperations } from './operations.js'
import { prepareContentUpdate, type PreparedBatch } from './prepare-markdown.js'
import { requestReview, requireReviewable, submitReview } from './reviews.js'
import { issuePdfTicket, ticketPdf } from './pdf-ticket.js'
import { changeRequestChanges, revisionChanges } from './semantic-answer.js'

const contentOf = (ctx: ReadContext, cr: ChangeRequestRow): RevisionRow => requireRevision(ctx, getSpace(ctx, cr.space), cr.revision)

export const changeRequestHandlers = implement(
  changeRequestOperations,
  {
    listChangeRequestsForSpace: (ctx, { params, query }) => {
      getSpace(ctx, params.spaceId)
      const page = spaceChangeRequests(ctx, params.spaceId, query)
      return mapPage(page, (cr) => encodeChangeRequest(ctx, cr))
    },

    createChangeRequest: (ctx, { params, body }) => encodeChangeRequest(ctx, createChangeRequest(ctx, params.spaceId, body)),

    getChangeRequestById: (ctx, { params }) => encodeChangeRequest(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId)),

    updateChangeRequestById: (ctx, { params, body }) =>
      encodeChangeRequest(ctx, updateChangeRequest(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId), body)),

    mergeChangeRequest: (ctx, { params }) => mergeChangeRequest(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId)),

    updateChangeRequest: (ctx, { params }) => updateFromMain(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId)),

    listChangeRequestsForOrganization: (ctx, { params, query }) => {
      const page = organizationChangeRequests(ctx, params.organizationId, query)
      return mapPage(page, (cr) => encodeChangeRequest(ctx, cr))
    },

    getChangeRequestChanges: (ctx, { params, query }) => changeRequestChanges(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId), query.limit),

    getRevisionSemanticChanges: (ctx, { params, query }) => revisionChanges(ctx, getSpace(ctx, params.spaceId), params.revisionId, query.limit),

    getRevisionOfChangeRequestById: (ctx, { params }) => answerRevision(ctx, contentOf(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId))),

    updateChangeRequestContent: (ctx, { params, query, body, prepared }) => {
      const cr = getChangeRequest(ctx, params.spaceId, params.changeRequestId)
      const result = applyContentChanges(ctx, cr, body.changes, prepared as PreparedBatch)
      const changeRequest = encodeChangeRequest(ctx, result.changeRequest)
      if (query.compat) return changeRequest
      const pageRef = (id: string) => ({
        object: 'page' as const,
        id,
        urls: { location: ctx.urls.api(`/spaces/${cr.space}/change-requests/${cr.id}/content/page/${id}`) },
      })
      return {
        changeRequest,
        changes: result.outcomes.map((o) =>
          o.object === 'deleted_page'
            ? { object: o.object, page: o.page }
            : o.object === 'created_page'
              ? { object: o.object, page: pageRef(o.page), ...(o.ref !== undefined && { ref: o.ref }) }
              : { object: o.object, page: pageRef(o.page) },
        ),
        insertedFiles: result.files.map((f) => encodeFile(ctx, f)),
      }
    },

    listPagesInChangeRequest: (ctx, { params }) => ({
      pages: encodePageTree(ctx, contentOf(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId)), 'document'),
    }),

    listFilesInChangeRequestById: (ctx, { params, query }) =>
      filesPage(ctx, contentOf(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId)), query),

    getFileInChangeRequestById: (ctx, { params }) => fileIn(ctx, contentOf(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId)), params.fileId),

    getPageInChangeRequestById: (ctx, { params, query }) => {
      const rev = contentOf(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId))
      return answerPage(ctx, rev, requirePage(ctx, rev, params.pageId), query)
    },

    getReusableContentInChangeRequestById: (ctx, { params }) => {
      const rev = contentOf(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId))
      return encodeReusableContent(requireReusableContent(ctx, rev, params.reusableContentId))
    },

    getPageInChangeRequestByPath: (ctx, { params, query }) => {
      const rev = contentOf(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId))
      const page = pageByPath(ctx.tx, rev, params.pagePath)
      if (!page) throw new ApiError('NOT_FOUND', 'Page not found')
      return answerPage(ctx, rev, page, query)
    },

    getReviewsByChangeRequestId: (ctx, { params, query }) => {
      const cr = getChangeRequest(ctx, params.spaceId, params.changeRequestId)
      const { outdated } = query
      const filter = outdated === undefined ? undefined : (row: ReviewRow) => row.outdated === outdated
      return mapPage(paginateScan(indexSource(ctx.tx, 'reviews', 'byChangeRequest', cr.id), query, filter), (e) => encodeReview(ctx, e.row))
    },

    submitChangeRequestReview: (ctx, { params, body }) =>
      encodeReview(ctx, submitReview(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId), body.status)),

    getChangeRequestReviewById: (ctx, { params }) => {
      const cr = getChangeRequest(ctx, params.spaceId, params.changeRequestId)
      const review = ctx.tx.get('reviews', params.reviewId)
      if (!review || review.changeRequest !== cr.id) throw new ApiError('NOT_FOUND', 'Review not found')
      return encodeReview(ctx, review)
    },

    getRequestedReviewersByChangeRequestId: (ctx, { params, query }) => {
      const cr = getChangeRequest(ctx, params.spaceId, params.changeRequestId)
      return mapPage(paginateScan(indexSource(ctx.tx, 'requestedReviewers', 'byChangeRequest', cr.id), query), (e) => encodeRequestedReviewer(ctx, e.row))
    },

    requestReviewersForChangeRequest: (ctx, { params, body }) => {
      let cr = getChangeRequest(ctx, params.spaceId, params.changeRequestId)
      requireReviewable(cr)
      const space = getSpace(ctx, cr.space)
      const out = []
      for (const [i, user] of body.users.entries()) {
        const member = ctx.tx.get('members', `${space.organization}/${user}`)
        if (!member) throw new ApiError('BAD_REQUEST', `Invalid request: body field \`users[${i}]\`: "${user}" is not a member of the organization`)
        out.push(requestReview(ctx, cr, user))
      }
      if (body.subject !== undefined || body.description !== undefined)
        cr = updateChangeRequest(ctx, cr, { subject: body.subject, description: body.description })
      return { users: out.map((row) => encodeRequestedReviewer(ctx, row)) }
    },

    removeRequestedReviewerFromChangeRequest: (ctx, { params }) => {
      const cr = getChangeRequest(ctx, params.spaceId, params.changeRequestId)
      if (!ctx.tx.delete('requestedReviewers', `${cr.id}/${params.userId}`)) return NO_CONTENT
    },

    getContributorsByChangeRequestId: (ctx, { params, query }) => {
      const cr = getChangeRequest(ctx, params.spaceId, params.changeRequestId)
      return mapPage(paginateList(cr.contributors, query), (c) => ({
        user: userObject(ctx, c.user, cr.space),
        count: c.count,
        updatedAt: c.updatedAt,
        actionType: 'edit' as const,
      }))
    },

    listChangeRequestPageLinks: (ctx, { params, query }) => {
      const cr = getChangeRequest(ctx, params.spaceId, params.changeRequestId)
      const space = getSpace(ctx, cr.space)
      const rev = contentOf(ctx, cr)
      requirePage(ctx, rev, params.pageId)
      const all = pageLinks(ctx, rev, params.pageId)
      // Broken here and not in main: what the change request would break by merging.
      const mainBroken = new Set(
        pageLinks(ctx, requireRevision(ctx, space, space.revision), params.pageId)
          .filter((l) => l.status === 'broken')
          .map((l) => JSON.stringify(l.targetReference)),
      )
      const introduced = all.filter((l) => l.status === 'broken' && !mainBroken.has(JSON.stringify(l.targetReference))).length
      return linksPage(all, query, introduced)
    },

    listChangeRequestFileBacklinks: (ctx, { params, query }) => {
      const cr = getChangeRequest(ctx, params.spaceId, params.changeRequestId)
      const rev = contentOf(ctx, cr)
      fileIn(ctx, rev, params.fileId)
      const pages = [
        ...new Set(
          revisionLinks(ctx, rev)
            .filter((l) => l.relation === 'file' && l.targetReference.file === params.fileId && l.status === 'ok')
            .map((l) => l.source.page),
        ),
      ]
      return mapPage(paginateList(pages, query), (page) => ({
        kind: 'page' as const,
        organization: cr.organization,
        space: cr.space,
        versionContext: { type: 'revision' as const, revision: rev.id },
        page,
        file: params.fileId,
      }))
    },

    getChangeRequestPDF: (ctx, { params, query }) => {
      const cr = getChangeRequest(ctx, params.spaceId, params.changeRequestId)
      if (query.page !== undefined) requirePage(ctx, contentOf(ctx, cr), query.page)
      const key = issuePdfTicket(ctx, {
        kind: 'pdf',
        space: cr.space,
        changeRequest: cr.id,
        revision: cr.revision,
        page: query.page,
        only: query.only === 'true',
      })
      return { url: `${ctx.urls.base}/pdf/${key}` }
    },

    downloadChangeRequestPDF: (ctx, { params }) => ticketPdf(ctx, params.ticket),
  },
  {
    // Markdown is read and files are fetched only for a change request that exists and can take them.
    updateChangeRequestContent: {
      requires: (ctx, { params }) => void requireContentEditable(ctx, getChangeRequest(ctx, params.spaceId, params.changeRequestId)),
      run: prepareContentUpdate,
    },
  },
)
