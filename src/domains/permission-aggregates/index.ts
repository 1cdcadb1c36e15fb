import { defineArea } from '../area.js'
import { permissionAggregateHandlers } from './handlers.js'

/** The permission aggregates (see domains/area.ts): computed from other areas' rows, it stores nothing. */
export const permissionAggregatesArea = defineArea({
  name: 'permission-aggregates',
  collections: {},
  operations: permissionAggregateHandlers,
})
