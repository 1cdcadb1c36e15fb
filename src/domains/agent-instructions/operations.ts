import { defineOperation } from '../../core/operation.js'
import { pathParams } from '../common/schemas.js'
import { AgentInstructionsSchema, UpdateAgentInstructionsSchema } from './schemas.js'

const tag = 'organizations'
const path = '/v1/orgs/{organizationId}/agent-instructions'
const params = pathParams('organizationId')

/** The organization's agent instructions (official operationIds as keys). */
export const agentInstructionOperations = {
  getOrganizationAgentInstructions: defineOperation({
    id: 'getOrganizationAgentInstructions',
    method: 'GET',
    path,
    tag,
    summary: "Get the organization's agent instructions (404 until they are first set)",
    params,
    response: AgentInstructionsSchema,
    status: 200,
    errors: ['NOT_FOUND'],
    permission: { resource: 'organization', action: 'viewAgentInstructions' },
  }),
  updateOrganizationAgentInstructions: defineOperation({
    id: 'updateOrganizationAgentInstructions',
    method: 'PUT',
    path,
    tag,
    summary: "Set the organization's agent instructions (a document); organization admins only",
    params,
    body: UpdateAgentInstructionsSchema,
    response: AgentInstructionsSchema,
    status: 200,
    errors: ['NOT_FOUND', 'FORBIDDEN'],
    permission: { resource: 'organization', action: 'admin' },
  }),
}
