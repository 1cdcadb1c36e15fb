import { implement } from '../context.js'
import { mapPage } from '../../core/paging.js'
import { getOrganization } from '../organizations/model.js'
import { encodeSamlProvider, serviceOf } from './encode.js'
import { allSamlProviders, createSamlProvider, findSamlProvider, getSamlProvider, isComplete, listSamlProviders, updateSamlProvider } from './model.js'
import { ssoOperations } from './operations.js'

/** The SSO operations bound to their handlers. */
export const ssoHandlers = implement(ssoOperations, {
  listSAMLProvidersInOrganizationById: (ctx, { params, query }) =>
    mapPage(listSamlProviders(ctx, params.organizationId, query), (e) => encodeSamlProvider(ctx, e.row)),

  createOrganizationSAMLProvider: (ctx, { params, body }) => encodeSamlProvider(ctx, createSamlProvider(ctx, params.organizationId, body)),

  getOrganizationSAMLProviderById: (ctx, { params }) => encodeSamlProvider(ctx, getSamlProvider(ctx, params.organizationId, params.samlProviderId)),

  updateOrganizationSAMLProvider: (ctx, { params, body }) =>
    encodeSamlProvider(ctx, updateSamlProvider(ctx, getSamlProvider(ctx, params.organizationId, params.samlProviderId), body)),

  // 204 whether a provider was deleted or there was none (the reference; the official document says 205 for a deletion).
  deleteOrganizationSAMLProvider: (ctx, { params }) => {
    const row = findSamlProvider(ctx, params.organizationId, params.samlProviderId)
    if (row) ctx.tx.delete('samlProviders', row.id)
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
