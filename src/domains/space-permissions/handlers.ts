import { implement } from '../../core/operation.js'
import { spacePermissionOperations } from './operations.js'

export const spacePermissionHandlers = implement(spacePermissionOperations, {})
