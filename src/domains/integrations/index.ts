import { defineArea } from '../area.js'
import { integrationsCollections } from './rows.js'
import { integrationHandlers } from './handlers.js'
import { integrationListHandlers } from './lists-handlers.js'
import { installationHandlers } from './installations-handlers.js'
import { devmodeHandlers } from './devmode-handlers.js'
import { integrationSeedRules } from './seed.js'
import { integrationEventResumer } from './resume.js'
import { integrationDeliveryService } from './delivery-options.js'
import { removeRow } from '../ownership.js'
import { tokenHandlers } from './tokens-handlers.js'
import { installationGrant } from './tokens-model.js'

/** The integrations area (see domains/area.ts). */
export const integrationsArea = defineArea({
  name: 'integrations',
  collections: integrationsCollections,
  operations: [...integrationHandlers, ...integrationListHandlers, ...installationHandlers, ...devmodeHandlers, ...tokenHandlers],
  seed: integrationSeedRules,
  resumers: [integrationEventResumer],
  services: (options) => ({ integrations: integrationDeliveryService(options.integrations, options.integrationDelivery, options) }),
  owned: [
    { collections: ['integrations'], owner: 'organizations', index: 'byOrganization' },
    {
      // Installations in the organization of integrations other organizations own.
      collections: ['integrationInstallations'],
      owner: 'organizations',
      remove: (ctx, organization) => {
        for (const integration of ctx.tx.all('integrations')) {
          for (const { row } of ctx.tx.scan('integrationInstallations', 'byIntegrationOrganization', `${integration.id}/${organization}`))
            removeRow(ctx, 'integrationInstallations', row.id)
        }
      },
    },
    { collections: ['integrationInstallations'], owner: 'integrations', index: 'byIntegration' },
    { collections: ['integrationSpaceInstallations'], owner: 'integrationInstallations', index: 'byInstallation' },
    { collections: ['integrationSiteInstallations'], owner: 'integrationInstallations', index: 'byInstallation' },
    { collections: ['integrationEvents'], owner: 'integrations', index: 'byIntegration' },
    // A purged space (or deleted site) takes its installations with it.
    { collections: ['integrationSpaceInstallations'], owner: 'spaces', index: 'bySpace' },
    { collections: ['integrationSiteInstallations'], owner: 'sites', index: 'bySite' },
    { collections: ['integrationDevModes'], owner: 'integrations', index: 'byIntegration' },
    { collections: ['integrationInstallationTokens'], owner: 'integrationInstallations', index: 'byInstallation' },
  ],
  // Installation tokens (tokens-model.ts): a row of the store, read at each request.
  bearer: (_services, token, now, read) => {
    const grant = installationGrant(read, token, now)
    return grant && Promise.resolve(grant)
  },
})
