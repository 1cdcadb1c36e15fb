import { implement } from '../context.js'
import { NO_CONTENT } from '../../core/operation.js'
import { indexSource, mapPage, paginateScan } from '../../core/paging.js'
import { encodeTranslation } from './encode.js'
import { createTranslation, deleteTranslation, requireTranslation, updateInstructions } from './model.js'
import { translationOperations } from './operations.js'
import { requestRun } from './run.js'

export const translationHandlers = implement(translationOperations, {
  listTranslations: (ctx, { params, query }) =>
    mapPage(paginateScan(indexSource(ctx.tx, 'translations', 'byOrganization', params.organizationId), query), (e) => encodeTranslation(ctx, e.row)),
  createTranslation: (ctx, { params, body }) => encodeTranslation(ctx, createTranslation(ctx, params.organizationId, body)),
  getTranslation: (ctx, { params }) => encodeTranslation(ctx, requireTranslation(ctx, params.organizationId, params.translationId)),
  updateTranslation: (ctx, { params, body }) =>
    encodeTranslation(ctx, updateInstructions(ctx, requireTranslation(ctx, params.organizationId, params.translationId), body.instructions)),
  deleteTranslation: (ctx, { params }) => (deleteTranslation(ctx, params.organizationId, params.translationId) ? undefined : NO_CONTENT),
  runTranslation: (ctx, { params }) => void requestRun(ctx, requireTranslation(ctx, params.organizationId, params.translationId)),
})
