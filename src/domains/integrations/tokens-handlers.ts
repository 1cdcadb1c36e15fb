import { implement } from '../context.js'
import { tokenOperations } from './tokens-operations.js'
import { createInstallationToken } from './tokens-model.js'

/** The installation-token operations bound to their handlers. */
export const tokenHandlers = implement(tokenOperations, {
  createIntegrationInstallationToken: (ctx, { params }) => createInstallationToken(ctx, params.integrationName, params.installationId),
})
