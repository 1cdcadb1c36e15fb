import type { BoundOperation, OperationDef } from '../core/operation.js'
import { adaptiveContentHandlers } from './adaptive-content/handlers.js'
import { collectionHandlers } from './collections/handlers.js'
import { memberHandlers } from './members/handlers.js'
import { organizationHandlers } from './organizations/handlers.js'
import { shareLinkHandlers } from './share-links/handlers.js'
import { siteStructureHandlers } from './site-structure/handlers.js'
import { siteHandlers } from './sites/handlers.js'
import { spacePermissionHandlers } from './space-permissions/handlers.js'
import { spaceHandlers } from './spaces/handlers.js'
import { teamHandlers } from './teams/handlers.js'
import { userHandlers } from './users/handlers.js'

export { levelResolvers } from './access/levels.js'

/** Every operation of the API, bound to its handler. A new area adds its line here. */
export const boundOperations: readonly BoundOperation[] = [
  ...userHandlers,
  ...organizationHandlers,
  ...memberHandlers,
  ...teamHandlers,
  ...collectionHandlers,
  ...spaceHandlers,
  ...spacePermissionHandlers,
  ...siteHandlers,
  ...siteStructureHandlers,
  ...shareLinkHandlers,
  ...adaptiveContentHandlers,
]

export const operations: readonly OperationDef[] = boundOperations.map((op) => op.def)
