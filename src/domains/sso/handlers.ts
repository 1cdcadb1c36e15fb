import { implement } from '../context.js'
import { mapPage } from '../../core/paging.js'
import { getOrganization } from '../organizations/model.js'
import { encodeSamlProvider, serviceOf } from './encode.js'
import { allSamlProviders, createSamlProvider, findSamlProvider, getSamlProvider, isComplete, listSamlProviders, updateSamlProvider } from './model.js'
import { ssoOperations } from './operations.js'
import { changedFields, recordAudit, type AuditTarget } from '../audit/model.js'
import type { SamlProviderRow } from './rows.js'

const providerTarget = (row: SamlProviderRow): AuditTarget => ({ type: 'saml-provider', id: row.id, label: row.label })

/** The SSO operations bound to their handlers. */
export const ssoHandlers = implement(ssoOperations, {
  listSAMLProvidersInOrganizationById: (ctx, { params, query }) =>
    mapPage(listSamlProviders(ctx, params.organizationId, query), (e) => encodeSamlProvider(ctx, e.row)),

  createOrganizationSAMLProvider: (ctx, { params, body }) => {
    const row = createSamlProvider(ctx, params.organizationId, body)
    recordAudit(ctx, { organization: params.organizationId, action: 'sso.provider_created', target: providerTarget(row), payload: {} })
    return encodeSamlProvider(ctx, row)
  },

  getOrganizationSAMLProviderById: (ctx, { params }) => encodeSamlProvider(ctx, getSamlProvider(ctx, params.organizationId, params.samlProviderId)),

  updateOrganizationSAMLProvider: (ctx, { params, body }) => {
    const before = getSamlProvider(ctx, params.organizationId, params.samlProviderId)
    const row = updateSamlProvider(ctx, before, body)
    // The names of the settings changed (certificates and URLs stay out of the trail).
    const fields = changedFields(body, before, row)
    if (fields.length > 0)
      recordAudit(ctx, { organization: params.organizationId, action: 'sso.provider_updated', target: providerTarget(row), payload: { fields } })
    return encodeSamlProvider(ctx, row)
  },

  // 204 whether a provider was deleted or there was none (the reference; the official document says 205 for a deletion).
  deleteOrganizationSAMLProvider: (ctx, { params }) => {
    const row = findSamlProvider(ctx, params.organizationId, params.samlProviderId)
    if (row) {
      ctx.tx.delete('samlProviders', row.id)
      recordAudit(ctx, { organization: params.organizationId, action: 'sso.provider_deleted', target: providerTarget(row), payload: {} })
    }
  },

  // Any authenticated caller, member of the organization or not (it is what a user about to join
  // signs in with); a token is needed as for every operation (the official operation has no
  // security of its own, so the document's top-level bearer requirement applies). Only what a
  // sign-in button needs, of the providers that can sign someone in.
  listSSOProviderLoginsInOrganization: (ctx, { params }) => {
    getOrganization(ctx, params.organizationId)
    const items = allSamlProviders(ctx, params.organizationId)
      .filter(isComplete)
      .map((row) => ({ id: row.id, label: row.label, startURL: serviceOf(ctx, row).startURL }))
    return { items }
  },
})
