import type { z } from 'zod'
import type { CollectionName, StateBlob, STATE_FORMAT, STATE_VERSION } from '../state/seed.js'
import type { RowOf } from '../storage/port.js'
import type { AppSchema } from './schema.js'
import type { changeRequestSeedRules } from './change-requests/seed.js'
import type { collectionSeedRules } from './collections/seed.js'
import type { commentSeedRules } from './comments/seed.js'
import type { sequenceSeedRules } from './common/seed.js'
import type { contentSeedRules } from './content/seed.js'
import type { conversationSeedRules } from './conversations/seed.js'
import type { gitSyncSeedRules } from './git-sync/seed.js'
import type { insightsSeedRules } from './insights/seed.js'
import type { integrationSeedRules } from './integrations/seed.js'
import type { memberSeedRules } from './members/seed.js'
import type { openapiSpecSeedRules } from './openapi-specs/seed.js'
import type { organizationSeedRules } from './organizations/seed.js'
import type { shareLinkSeedRules } from './share-links/seed.js'
import type { siteRedirectSeedRules } from './site-redirects/seed.js'
import type { siteStructureSeedRules } from './site-structure/seed.js'
import type { siteSeedRules, siteSettingsSeedRules } from './sites/seed.js'
import type { spacePermissionSeedRules } from './space-permissions/seed.js'
import type { collectionPermissionSeedRules } from './collection-permissions/seed.js'
import type { spaceSeedRules } from './spaces/seed.js'
import type { ssoSeedRules } from './sso/seed.js'
import type { teamSeedRules } from './teams/seed.js'
import type { translationSeedRules } from './translations/seed.js'
import type { userSeedRules } from './users/seed.js'

/**
 * Every seed rule's type, one line per rules array of an area's seed.ts (as schema.ts lists the
 * rows modules): each keeps its schema's input type (state/seed.ts `seedRule`).
 */
type AnySeedRule =
  | (typeof changeRequestSeedRules)[number]
  | (typeof collectionSeedRules)[number]
  | (typeof commentSeedRules)[number]
  | (typeof sequenceSeedRules)[number]
  | (typeof contentSeedRules)[number]
  | (typeof conversationSeedRules)[number]
  | (typeof gitSyncSeedRules)[number]
  | (typeof insightsSeedRules)[number]
  | (typeof integrationSeedRules)[number]
  | (typeof memberSeedRules)[number]
  | (typeof openapiSpecSeedRules)[number]
  | (typeof organizationSeedRules)[number]
  | (typeof shareLinkSeedRules)[number]
  | (typeof siteRedirectSeedRules)[number]
  | (typeof siteStructureSeedRules)[number]
  | (typeof siteSeedRules)[number]
  | (typeof siteSettingsSeedRules)[number]
  | (typeof spacePermissionSeedRules)[number]
  | (typeof collectionPermissionSeedRules)[number]
  | (typeof spaceSeedRules)[number]
  | (typeof ssoSeedRules)[number]
  | (typeof teamSeedRules)[number]
  | (typeof translationSeedRules)[number]
  | (typeof userSeedRules)[number]

/**
 * A row of collection `C` as a state document may give it: the input of the collection's seed
 * schema, so that fields the loader defaults (timestamps, positions, flags) are optional; or the
 * row as `api.dump()` wrote it (stored rows type some lists `readonly`).
 */
export type StateRowInput<C extends CollectionName> = z.input<ReturnType<Extract<AnySeedRule, { collection: C }>['row']>> | RowOf<AppSchema, C>

/**
 * A state document as written by hand (a seed for `createDocsApi({ seed })`, `api.fixtures.load`
 * or `docs-content-api serve --seed`): every collection optional, and in each row the fields the
 * loader fills in left optional. `api.dump()`'s `StateDocument` is one.
 *
 * @example
 * const seed: StateDocumentInput = {
 *   users: [{ id: 'ada', displayName: 'Ada Lovelace', email: 'ada@acme.test' }],
 *   tokens: [{ id: 'gb_api_ada_secret', user: 'ada' }],
 * }
 */
export type StateDocumentInput = { format?: typeof STATE_FORMAT; version?: typeof STATE_VERSION; blobs?: StateBlob[] } & {
  [C in CollectionName]?: Array<StateRowInput<C>>
}
