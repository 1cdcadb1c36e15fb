import { implement } from '../../core/operation.js'
import { collectionOperations } from './operations.js'

export const collectionHandlers = implement(collectionOperations, {})
