import type { Context, ReadContext } from '../context.js'
import { ApiError } from '../../core/errors.js'
import type { JsonDocument } from '../content/document.js'
import type { OrganizationRow } from '../organizations/rows.js'
import { getOrganization } from '../organizations/model.js'

/** What an organization keeps of its agent instructions (on its row: there is one set per organization). */
export type AgentInstructions = NonNullable<OrganizationRow['agentInstructions']>

/** An organization's agent instructions; a 404 until someone has set them (no default is made up). */
export function agentInstructionsOf(ctx: ReadContext, organizationId: string): AgentInstructions {
  const found = getOrganization(ctx, organizationId).agentInstructions
  if (!found) throw new ApiError('NOT_FOUND', 'This organization has no agent instructions yet (PUT them first)')
  return found
}

/** Replace the instructions: `updatedAt` from the clock, `updatedBy` the caller. */
export function setAgentInstructions(ctx: Context, organizationId: string, instructions: JsonDocument): AgentInstructions {
  const org = getOrganization(ctx, organizationId)
  const agentInstructions: AgentInstructions = { instructions, updatedAt: ctx.nowIso(), updatedBy: ctx.actor.user }
  ctx.tx.update('organizations', { ...org, agentInstructions })
  return agentInstructions
}
