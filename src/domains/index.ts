import type { BoundOperation, OperationDef } from '../core/operation.js'
import { adaptiveContentHandlers } from './adaptive-content/handlers.js'
import { agentInstructionHandlers } from './agent-instructions/handlers.js'
import { changeRequestHandlers } from './change-requests/handlers.js'
import { changeRequestSeedRules } from './change-requests/seed.js'
import { commentHandlers } from './comments/handlers.js'
import { commentSeedRules } from './comments/seed.js'
import { contentHandlers } from './content/handlers.js'
import { conversationHandlers } from './conversations/handlers.js'
import { conversationSeedRules } from './conversations/seed.js'
import { gitSyncHandlers } from './git-sync/handlers.js'
import { gitSyncSeedRules } from './git-sync/seed.js'
import { contentSeedRules } from './content/seed.js'
import { searchHandlers } from './search/handlers.js'
import { askHandlers } from './ask/handlers.js'
import { collectionHandlers } from './collections/handlers.js'
import { memberHandlers } from './members/handlers.js'
import { organizationHandlers } from './organizations/handlers.js'
import { shareLinkHandlers } from './share-links/handlers.js'
import { siteStructureHandlers } from './site-structure/handlers.js'
import { siteHandlers } from './sites/handlers.js'
import { spacePermissionHandlers } from './space-permissions/handlers.js'
import { spaceHandlers } from './spaces/handlers.js'
import { ssoHandlers } from './sso/handlers.js'
import { openapiSpecHandlers } from './openapi-specs/handlers.js'
import { teamHandlers } from './teams/handlers.js'
import { translationHandlers } from './translations/handlers.js'
import { userHandlers } from './users/handlers.js'
import { integrationHandlers } from './integrations/handlers.js'
import { integrationSeedRules } from './integrations/seed.js'

export { levelResolvers } from './access/levels.js'
import type { SeedRule } from '../state/seed.js'
import type { Resumer } from './context.js'
import { openapiSpecResumer } from './openapi-specs/resume.js'
import { translationResumer } from './translations/resume.js'
import { conversationResumer } from './conversations/resume.js'
import { integrationEventResumer } from './integrations/resume.js'
import { gitSyncResumer } from './git-sync/resume.js'
import { collectionSeedRules } from './collections/seed.js'
import { sequenceSeedRules } from './common/seed.js'
import { organizationSeedRules } from './organizations/seed.js'
import { shareLinkSeedRules } from './share-links/seed.js'
import { siteStructureSeedRules } from './site-structure/seed.js'
import { siteSeedRules } from './sites/seed.js'
import { spacePermissionSeedRules } from './space-permissions/seed.js'
import { spaceSeedRules } from './spaces/seed.js'
import { ssoSeedRules } from './sso/seed.js'
import { openapiSpecSeedRules } from './openapi-specs/seed.js'
import { teamSeedRules } from './teams/seed.js'
import { translationSeedRules } from './translations/seed.js'
import { userSeedRules } from './users/seed.js'

/** Every operation of the API, bound to its handler. A new area adds its line here. */
export const boundOperations: readonly BoundOperation[] = [
  ...userHandlers,
  ...organizationHandlers,
  ...agentInstructionHandlers,
  ...memberHandlers,
  ...teamHandlers,
  ...collectionHandlers,
  ...spaceHandlers,
  ...spacePermissionHandlers,
  ...siteHandlers,
  ...siteStructureHandlers,
  ...shareLinkHandlers,
  ...adaptiveContentHandlers,
  ...contentHandlers,
  ...changeRequestHandlers,
  ...commentHandlers,
  ...ssoHandlers,
  ...openapiSpecHandlers,
  ...integrationHandlers,
  ...translationHandlers,
  ...conversationHandlers,
  ...gitSyncHandlers,
  ...searchHandlers,
  ...askHandlers,
]

export const operations: readonly OperationDef[] = boundOperations.map((op) => op.def)

/**
 * How each stored collection is loaded from a state document, dependencies first. Every
 * collection of the storage schema has exactly one rule (a test checks it): a new area adds its
 * rules here.
 */
export const seedRules: readonly SeedRule[] = [
  ...sequenceSeedRules,
  ...userSeedRules,
  ...organizationSeedRules,
  ...teamSeedRules,
  ...collectionSeedRules,
  ...spaceSeedRules,
  ...spacePermissionSeedRules,
  ...siteSeedRules,
  ...siteStructureSeedRules,
  ...shareLinkSeedRules,
  ...contentSeedRules,
  ...changeRequestSeedRules,
  ...commentSeedRules,
  ...ssoSeedRules,
  ...openapiSpecSeedRules,
  ...integrationSeedRules,
  ...translationSeedRules,
  ...conversationSeedRules,
  ...gitSyncSeedRules,
] as readonly SeedRule[]

/**
 * How each area takes up its unfinished background work (core/resume.ts): run by the API after
 * it is created (a seed, a fork, a store that already holds rows), after `fixtures.load` (the
 * loaded rows) and after `restore()` / `reset()`. An area that defers jobs adds its resumer here.
 */
export const resumers: readonly Resumer[] = [openapiSpecResumer, translationResumer, conversationResumer, integrationEventResumer, gitSyncResumer] as readonly Resumer[]
