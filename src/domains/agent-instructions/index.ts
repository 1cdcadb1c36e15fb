import { defineArea } from '../area.js'
import { agentInstructionHandlers } from './handlers.js'

/** The agent-instructions area (see domains/area.ts). */
export const agentInstructionsArea = defineArea({
  name: 'agent-instructions',
  collections: {},
  operations: agentInstructionHandlers,
})
