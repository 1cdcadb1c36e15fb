import { z } from 'zod'
import { defineOperation, type OperationDef } from '../../core/operation.js'
import { yamlLibrary } from '../content/markdown-libs.js'
import { listQuery } from '../../core/paging.js'
import { listOf, pathParams } from '../common/schemas.js'
import {
  CreateOpenAPISpecSchema,
  MAX_SPEC_BODY_BYTES,
  OpenAPISpecContentSchema,
  OpenAPISpecRawContentSchema,
  OpenAPISpecSchema,
  OpenAPISpecSlugSchema,
  OpenAPISpecVersionSchema,
  PutOpenAPISpecSchema,
  UpdateOpenAPISpecSchema,
} from './schemas.js'

const tag = 'openapi'
const base = '/v1/orgs/{organizationId}/openapi'
const orgParams = pathParams('organizationId')
const specParams = pathParams('organizationId', 'specSlug')
const versionParams = pathParams('organizationId', 'specSlug', 'versionId')
/** Members with a role read specs; creators (POLICY.organization.createOpenAPISpec) add, change and delete them. */
const read = { resource: 'organization', action: 'viewOpenAPISpecs' } as const
const write = { resource: 'organization', action: 'createOpenAPISpec' } as const
const errors = ['NOT_FOUND', 'FORBIDDEN'] as const

type VersionResponse = typeof OpenAPISpecVersionSchema | typeof OpenAPISpecContentSchema | typeof OpenAPISpecRawContentSchema

/** A read of the latest version (`versions/latest...`). */
const latest = <R extends VersionResponse>(id: string, path: string, summary: string, response: R, needs?: OperationDef['needs']) =>
  defineOperation({
    id,
    method: 'GET',
    path: `${base}/{specSlug}/versions/${path}`,
    tag,
    summary,
    params: specParams,
    response,
    status: 200,
    errors,
    permission: read,
    ...(needs && { needs }),
  })

/** A read of a version by id (`versions/{versionId}...`). */
const byId = <R extends VersionResponse>(id: string, path: string, summary: string, response: R, needs?: OperationDef['needs']) =>
  defineOperation({
    id,
    method: 'GET',
    path: `${base}/{specSlug}/versions/${path}`,
    tag,
    summary,
    params: versionParams,
    response,
    status: 200,
    errors,
    permission: read,
    ...(needs && { needs }),
  })

/** OpenAPI specs and their versions (official operationIds as keys). */
export const openapiSpecOperations = {
  listOpenAPISpecs: defineOperation({
    id: 'listOpenAPISpecs',
    method: 'GET',
    path: base,
    tag,
    summary: "List the organization's OpenAPI specs in creation order",
    params: orgParams,
    query: listQuery,
    response: listOf(OpenAPISpecSchema),
    status: 200,
    errors,
    permission: read,
  }),
  createOpenAPISpec: defineOperation({
    id: 'createOpenAPISpec',
    method: 'POST',
    path: base,
    tag,
    summary: 'Create a spec from a `url` or a `text` (JSON or YAML); it answers `pending` and is processed in the background (409 when the slug is taken)',
    params: orgParams,
    body: CreateOpenAPISpecSchema,
    bodyRequired: true,
    // A spec's text may be as large as a URL's (10 MiB), written as a JSON string.
    maxBodyBytes: MAX_SPEC_BODY_BYTES,
    response: OpenAPISpecSchema,
    status: 201,
    errors: ['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'],
    permission: write,
  }),
  getOpenAPISpecBySlug: defineOperation({
    id: 'getOpenAPISpecBySlug',
    method: 'GET',
    path: `${base}/{specSlug}`,
    tag,
    summary: 'A spec, with its processing state',
    params: specParams,
    response: OpenAPISpecSchema,
    status: 200,
    errors,
    permission: read,
  }),
  createOrUpdateOpenAPISpecBySlug: defineOperation({
    id: 'createOrUpdateOpenAPISpecBySlug',
    method: 'PUT',
    path: `${base}/{specSlug}`,
    tag,
    summary: 'Create the spec, or give it a new source (same spec, a new version once processed); answers `pending`',
    // The slug of a spec this creates is held to the slug's rules (a 400 naming `specSlug`).
    params: z.object({ organizationId: z.string().min(1), specSlug: OpenAPISpecSlugSchema }),
    body: PutOpenAPISpecSchema,
    bodyRequired: true,
    maxBodyBytes: MAX_SPEC_BODY_BYTES,
    response: OpenAPISpecSchema,
    status: 200,
    errors,
    permission: write,
  }),
  updateOpenAPISpecBySlug: defineOperation({
    id: 'updateOpenAPISpecBySlug',
    method: 'PATCH',
    path: `${base}/{specSlug}`,
    tag,
    summary: 'Set the visibility of a spec (`private` or `public`)',
    params: specParams,
    body: UpdateOpenAPISpecSchema,
    bodyRequired: true,
    response: OpenAPISpecSchema,
    status: 200,
    errors,
    permission: write,
  }),
  deleteOpenAPISpecBySlug: defineOperation({
    id: 'deleteOpenAPISpecBySlug',
    method: 'DELETE',
    path: `${base}/{specSlug}`,
    tag,
    summary: 'Delete a spec and its versions: 204, also when there was none (the reference)',
    params: specParams,
    status: 204,
    errors,
    permission: write,
  }),
  listOpenAPISpecVersions: defineOperation({
    id: 'listOpenAPISpecVersions',
    method: 'GET',
    path: `${base}/{specSlug}/versions`,
    tag,
    summary: "A spec's processed versions, oldest first",
    params: specParams,
    query: listQuery,
    response: listOf(OpenAPISpecVersionSchema),
    status: 200,
    errors,
    permission: read,
  }),
  getLatestOpenAPISpecVersion: latest('getLatestOpenAPISpecVersion', 'latest', 'The latest processed version (404 before the first)', OpenAPISpecVersionSchema),
  getLatestOpenAPISpecVersionContent: latest(
    'getLatestOpenAPISpecVersionContent',
    'latest/content',
    'The document of the latest processed version',
    OpenAPISpecContentSchema,
    // A spec written in YAML is read again from its text (yaml loads on first use).
    [yamlLibrary],
  ),
  getLatestOpenAPISpecVersionContentRaw: latest(
    'getLatestOpenAPISpecVersionContentRaw',
    'latest/content/raw',
    'The source text of the latest processed version, exactly as given or fetched',
    OpenAPISpecRawContentSchema,
  ),
  getOpenAPISpecVersionById: byId('getOpenAPISpecVersionById', '{versionId}', 'A processed version', OpenAPISpecVersionSchema),
  getOpenAPISpecVersionContentById: byId(
    'getOpenAPISpecVersionContentById',
    '{versionId}/content',
    'The document of a processed version',
    OpenAPISpecContentSchema,
    [yamlLibrary],
  ),
}
