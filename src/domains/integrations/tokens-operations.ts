import { defineOperation } from '../../core/operation.js'
import { pathParams, TimestampSchema } from '../common/schemas.js'
import { TemporaryTokenSchema } from '../users/schemas.js'

/** The official `APITemporaryToken`, with when it stops working (beyond the official shape). */
export const InstallationTokenSchema = TemporaryTokenSchema.extend({
  expiresAt: TimestampSchema.meta({ description: 'When the token stops working: an hour after it was made.' }),
}).meta({ id: 'IntegrationInstallationAPIToken' })

/** Installation tokens (official operationId). */
export const tokenOperations = {
  createIntegrationInstallationToken: defineOperation({
    id: 'createIntegrationInstallationToken',
    method: 'POST',
    path: '/v1/integrations/{integrationName}/installations/{installationId}/tokens',
    tag: 'integrations',
    summary:
      "A token of the installation, for an hour: a bearer with the integration's scopes over the installation's organization, spaces and sites; the integration's owner admins",
    params: pathParams<'integrationName' | 'installationId'>('integrationName', 'installationId'),
    response: InstallationTokenSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'integration', action: 'admin', param: 'integrationName' },
  }),
}
