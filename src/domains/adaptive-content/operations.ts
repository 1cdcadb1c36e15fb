import { defineOperation } from '../../core/operation.js'
import { pathParams } from '../common/schemas.js'
import { SiteAdaptiveSchemaSchema, TemplateConditionsSchema, UpdateAdaptiveSchemaSchema } from './schemas.js'

const tag = 'adaptive-content'
const path = '/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema'
const siteParams = pathParams('organizationId', 'siteId')
// Members with a role read a site's visitor schema; editors of the site set it (POLICY.site).
const view = { resource: 'site', action: 'viewAdaptiveSchema', param: 'siteId' } as const
const edit = { resource: 'site', action: 'editAdaptiveSchema', param: 'siteId' } as const

/** The adaptive content operations of the table (official operationIds as keys). */
export const adaptiveContentOperations = {
  getSiteAdaptiveSchema: defineOperation({
    id: 'getSiteAdaptiveSchema',
    method: 'GET',
    path,
    tag,
    summary: "Get the JSON schema of a site's visitor claims (a default one with an empty `unsigned` object until one is set)",
    params: siteParams,
    response: SiteAdaptiveSchemaSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: view,
  }),
  updateSiteAdaptiveSchema: defineOperation({
    id: 'updateSiteAdaptiveSchema',
    method: 'PUT',
    path,
    tag,
    summary: "Replace the JSON schema of a site's visitor claims: boolean claims and an `unsigned` object of boolean claims, no other properties",
    params: siteParams,
    body: UpdateAdaptiveSchemaSchema,
    bodyRequired: true,
    response: SiteAdaptiveSchemaSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: edit,
  }),
  listSiteAdaptiveTemplateConditions: defineOperation({
    id: 'listSiteAdaptiveTemplateConditions',
    method: 'GET',
    path: `${path}/template-conditions`,
    tag,
    summary: "Conditions to start from, one per boolean claim of the site's visitor schema, in schema order",
    params: siteParams,
    response: TemplateConditionsSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: view,
  }),
}
