import { implement } from '../../core/operation.js'
import { memberOperations } from './operations.js'

export const memberHandlers = implement(memberOperations, {})
