import { implement } from '../../core/operation.js'
import { spaceOperations } from './operations.js'

export const spaceHandlers = implement(spaceOperations, {})
