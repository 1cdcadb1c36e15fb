import { implement } from '../../core/operation.js'
import { teamOperations } from './operations.js'

export const teamHandlers = implement(teamOperations, {})
