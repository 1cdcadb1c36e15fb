import type { ReadContext } from '../context.js'
import { implement } from '../context.js'
import { agentInstructionsOf, setAgentInstructions, type AgentInstructions } from './model.js'
import { agentInstructionOperations } from './operations.js'

const encode = (ctx: ReadContext, organizationId: string, found: AgentInstructions) => ({
  object: 'agent-instructions' as const,
  instructions: found.instructions,
  updatedAt: found.updatedAt,
  updatedBy: found.updatedBy,
  urls: { location: ctx.urls.api(`/orgs/${organizationId}/agent-instructions`) },
})

/** The agent instruction operations bound to their handlers. */
export const agentInstructionHandlers = implement(agentInstructionOperations, {
  getOrganizationAgentInstructions: (ctx, { params }) => encode(ctx, params.organizationId, agentInstructionsOf(ctx, params.organizationId)),
  updateOrganizationAgentInstructions: (ctx, { params, body }) =>
    encode(ctx, params.organizationId, setAgentInstructions(ctx, params.organizationId, body.instructions)),
})
