import { defineOperation } from '../../core/operation.js'
import { listQuery } from '../../core/paging.js'
import { listOf, pathParams } from '../common/schemas.js'
import { certificateLibraries } from './certificate.js'
import { CreateSamlProviderSchema, SamlProviderSchema, SsoLoginsSchema, UpdateSamlProviderSchema } from './schemas.js'

const tag = 'sso'
const base = '/v1/orgs/{organizationId}/saml'
/** Organization admins manage providers; other members get 403, outsiders 404 (POLICY.organization.manageSSO). */
const permission = { resource: 'organization', action: 'manageSSO' } as const

/** SAML providers and the sign-in list (official operationIds as keys). */
export const ssoOperations = {
  listSAMLProvidersInOrganizationById: defineOperation({
    id: 'listSAMLProvidersInOrganizationById',
    method: 'GET',
    path: base,
    tag,
    summary: "List the organization's SAML providers in creation order (organization admins)",
    params: pathParams('organizationId'),
    query: listQuery,
    response: listOf(SamlProviderSchema),
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission,
  }),
  createOrganizationSAMLProvider: defineOperation({
    id: 'createOrganizationSAMLProvider',
    method: 'POST',
    path: base,
    tag,
    summary: 'Add a SAML provider: `pending` until `entityID`, `ssoURL` and `certificate` (one PEM X.509 certificate) are all set, then `active`',
    params: pathParams('organizationId'),
    body: CreateSamlProviderSchema,
    needs: [certificateLibraries],
    bodyRequired: true,
    response: SamlProviderSchema,
    status: 201,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission,
  }),
  getOrganizationSAMLProviderById: defineOperation({
    id: 'getOrganizationSAMLProviderById',
    method: 'GET',
    path: `${base}/{samlProviderId}`,
    tag,
    summary: 'A SAML provider, with the URLs to give the identity provider (`service`)',
    params: pathParams('organizationId', 'samlProviderId'),
    response: SamlProviderSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission,
  }),
  updateOrganizationSAMLProvider: defineOperation({
    id: 'updateOrganizationSAMLProvider',
    method: 'PATCH',
    path: `${base}/{samlProviderId}`,
    tag,
    summary: 'Change the fields given of a SAML provider',
    params: pathParams('organizationId', 'samlProviderId'),
    body: UpdateSamlProviderSchema,
    needs: [certificateLibraries],
    bodyRequired: true,
    response: SamlProviderSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission,
  }),
  deleteOrganizationSAMLProvider: defineOperation({
    id: 'deleteOrganizationSAMLProvider',
    method: 'DELETE',
    path: `${base}/{samlProviderId}`,
    tag,
    summary: 'Delete a SAML provider: 204, also when there was none (the reference)',
    params: pathParams('organizationId', 'samlProviderId'),
    status: 204,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission,
  }),
  listSSOProviderLoginsInOrganization: defineOperation({
    id: 'listSSOProviderLoginsInOrganization',
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sso',
    tag,
    summary: "The organization's sign-in choices (`id`, `label`, `startURL` of each active SAML provider); any authenticated caller, member or not",
    params: pathParams('organizationId'),
    response: SsoLoginsSchema,
    status: 200,
    errors: ['NOT_FOUND'],
  }),
}
