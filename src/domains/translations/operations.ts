import { defineOperation } from '../../core/operation.js'
import { listQuery } from '../../core/paging.js'
import { listOf, pathParams } from '../common/schemas.js'
import { CreateTranslationSchema, TranslationSchema, UpdateTranslationSchema } from './schemas.js'

const tag = 'translations'
const read = { resource: 'organization', action: 'viewTranslations' } as const
const manage = { resource: 'organization', action: 'manageTranslations' } as const
const one = pathParams('organizationId', 'translationId')

/** Translations of an organization's spaces (official operationIds). */
export const translationOperations = {
  listTranslations: defineOperation({
    id: 'listTranslations',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/translations',
    tag,
    summary: "List the organization's translations, in creation order",
    params: pathParams('organizationId'),
    query: listQuery,
    response: listOf(TranslationSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: read,
  }),
  createTranslation: defineOperation({
    id: 'createTranslation',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/translations',
    tag,
    summary: 'Translate a space of the organization into another language: the translation is created `pending` and its first run starts in the background',
    params: pathParams('organizationId'),
    body: CreateTranslationSchema,
    bodyRequired: true,
    response: TranslationSchema,
    status: 201,
    errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
    permission: manage,
  }),
  getTranslation: defineOperation({
    id: 'getTranslation',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/translations/{translationId}',
    tag,
    summary: 'A translation, with the state of its latest run',
    params: one,
    response: TranslationSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: read,
  }),
  updateTranslation: defineOperation({
    id: 'updateTranslation',
    method: 'PUT',
    path: '/v1/orgs/{organizationId}/translations/{translationId}',
    tag,
    summary: "Replace a translation's instructions (the next run translates every page again with them)",
    params: one,
    body: UpdateTranslationSchema,
    bodyRequired: true,
    response: TranslationSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  deleteTranslation: defineOperation({
    id: 'deleteTranslation',
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/translations/{translationId}',
    tag,
    summary: 'Delete a translation (205; 204 when there was none). Its result space stays, as a space of its own',
    params: one,
    status: 205,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
  runTranslation: defineOperation({
    id: 'runTranslation',
    method: 'POST',
    path: '/v1/orgs/{organizationId}/translations/{translationId}/run',
    tag,
    summary: "Run a translation again: the source's current content is translated into the result space in the background (204 at once)",
    params: one,
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: manage,
  }),
}
