import { z } from 'zod'
import { TimestampSchema } from '../common/schemas.js'
import { JsonDocumentSchema } from '../content/schemas.js'

export const AgentInstructionsSchema = z
  .object({
    object: z.literal('agent-instructions'),
    instructions: JsonDocumentSchema,
    updatedAt: TimestampSchema,
    updatedBy: z.string(),
    urls: z.object({ location: z.string() }),
  })
  .meta({ id: 'OrganizationAgentInstructions', description: 'The instructions an organization gives its docs agent.' })

/** Other keys are ignored, as in most bodies (docs/behaviour/everywhere.md). */
export const UpdateAgentInstructionsSchema = z.object({ instructions: JsonDocumentSchema })
