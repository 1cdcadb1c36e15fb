import type { BearerGrant } from '../core/context.js'
import type { BoundOperation, OperationDef } from '../core/operation.js'
import type { Services } from '../core/services.js'
import type { DocsApiOptions } from '../api.js'
import type { SeedRule } from '../state/seed.js'
import type { Area, ReadStore } from './area.js'
import type { Resumer } from './context.js'
import { adaptiveContentArea } from './adaptive-content/index.js'
import { agentInstructionsArea } from './agent-instructions/index.js'
import { auditArea } from './audit/index.js'
import { askArea } from './ask/index.js'
import { changeRequestsArea } from './change-requests/index.js'
import { collectionsArea } from './collections/index.js'
import { commentsArea } from './comments/index.js'
import { commonArea } from './common/index.js'
import { contentArea } from './content/index.js'
import { conversationsArea } from './conversations/index.js'
import { embedsArea } from './embeds/index.js'
import { gitSyncArea } from './git-sync/index.js'
import { insightsArea } from './insights/index.js'
import { integrationsArea } from './integrations/index.js'
import { membersArea } from './members/index.js'
import { metaLinksArea } from './meta-links/index.js'
import { openapiSpecsArea } from './openapi-specs/index.js'
import { organizationsArea } from './organizations/index.js'
import { publishedArea } from './published/index.js'
import { searchArea } from './search/index.js'
import { shareLinksArea } from './share-links/index.js'
import { siteRedirectsArea } from './site-redirects/index.js'
import { siteStructureArea } from './site-structure/index.js'
import { sitesArea } from './sites/index.js'
import { sitePermissionsArea } from './site-permissions/index.js'
import { spacePermissionsArea } from './space-permissions/index.js'
import { collectionPermissionsArea } from './collection-permissions/index.js'
import { permissionAggregatesArea } from './permission-aggregates/index.js'
import { spacesArea } from './spaces/index.js'
import { ssoArea } from './sso/index.js'
import { teamsArea } from './teams/index.js'
import { translationsArea } from './translations/index.js'
import { usersArea } from './users/index.js'

export { levelResolvers } from './access/levels.js'

/**
 * Every area of the API, listed once: a new area adds its line here, and everything below is
 * derived from this list. The order is the order of the operation table, of loading a state
 * document (so an area comes after the areas whose rows its rows name) and of the ownership rules.
 */
export const areas: readonly Area[] = [
  commonArea,
  usersArea,
  organizationsArea,
  auditArea,
  agentInstructionsArea,
  membersArea,
  teamsArea,
  collectionsArea,
  spacesArea,
  spacePermissionsArea,
  collectionPermissionsArea,
  sitesArea,
  sitePermissionsArea,
  permissionAggregatesArea,
  siteStructureArea,
  shareLinksArea,
  adaptiveContentArea,
  contentArea,
  siteRedirectsArea,
  changeRequestsArea,
  metaLinksArea,
  commentsArea,
  ssoArea,
  openapiSpecsArea,
  integrationsArea,
  translationsArea,
  conversationsArea,
  gitSyncArea,
  searchArea,
  askArea,
  publishedArea,
  embedsArea,
  insightsArea,
] as readonly Area[]

/** Every operation of the API, bound to its handler. */
export const boundOperations: readonly BoundOperation[] = areas.flatMap((a) => a.operations ?? [])

export const operations: readonly OperationDef[] = boundOperations.map((op) => op.def)

/** How each stored collection is loaded from a state document, dependencies first (every collection has exactly one rule: a test checks it). */
export const seedRules: readonly SeedRule[] = areas.flatMap((a) => a.seed ?? []) as readonly SeedRule[]

/**
 * How each area takes up its unfinished background work (core/resume.ts): run by the API after
 * it is created (a seed, a fork, a store that already holds rows), after `fixtures.load` (the
 * loaded rows) and after `restore()` / `reset()`.
 */
export const resumers: readonly Resumer[] = areas.flatMap((a) => a.resumers ?? []) as readonly Resumer[]

/** The services of one API: each area's, from the API's options, the ownership rules and the hooks. */
export function createServices(options: DocsApiOptions): Services {
  const services = { owned: areas.flatMap((a) => a.owned ?? []), hooks: areas.flatMap((a) => (a.hooks ? [a.hooks] : [])) } as Partial<Services>
  for (const a of areas) Object.assign(services, a.services?.(options))
  return services as Services
}

/**
 * The grant of a bearer that is not an opaque token of the API (a site token, an installation token): the first area that
 * knows it answers; undefined when none does.
 */
export async function verifyBearer(services: Services, token: string, now: Date, read: ReadStore): Promise<BearerGrant | undefined> {
  for (const a of areas) {
    const grant = await a.bearer?.(services, token, now, read)
    if (grant) return grant
  }
  return undefined
}

/** A ticket was dropped: each area releases what it kept for it. */
export function ticketDropped(services: Services, data: unknown): void {
  for (const a of areas) a.ticketDropped?.(services, data)
}

/** The API went back to a snapshot: each area forgets what it derived from the state it left. */
export function restored(services: Services): void {
  for (const a of areas) a.restored?.(services)
}
