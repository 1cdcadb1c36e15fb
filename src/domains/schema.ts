import { auditCollections } from './audit/rows.js'
import { changeRequestsCollections } from './change-requests/rows.js'
import { collectionsCollections } from './collections/rows.js'
import { commentsCollections } from './comments/rows.js'
import { commonCollections } from './common/rows.js'
import { contentCollections } from './content/rows.js'
import { conversationsCollections } from './conversations/rows.js'
import { gitSyncCollections } from './git-sync/rows.js'
import { insightsCollections } from './insights/rows.js'
import { integrationsCollections } from './integrations/rows.js'
import { membersCollections } from './members/rows.js'
import { openapiSpecsCollections } from './openapi-specs/rows.js'
import { organizationsCollections } from './organizations/rows.js'
import { shareLinksCollections } from './share-links/rows.js'
import { siteRedirectsCollections } from './site-redirects/rows.js'
import { siteStructureCollections } from './site-structure/rows.js'
import { sitesCollections } from './sites/rows.js'
import { spacePermissionsCollections } from './space-permissions/rows.js'
import { sitePermissionsCollections } from './site-permissions/rows.js'
import { collectionPermissionsCollections } from './collection-permissions/rows.js'
import { spacesCollections } from './spaces/rows.js'
import { ssoCollections } from './sso/rows.js'
import { teamsCollections } from './teams/rows.js'
import { translationsCollections } from './translations/rows.js'
import { usersCollections } from './users/rows.js'

/**
 * The storage schema: every area's collections (its rows.ts), one line per area that stores rows.
 * Its type is what types every transaction (domains/context.ts), so it is built from the rows
 * modules rather than from the area list, whose handlers are typed by it; a test checks the two
 * agree (each area's `collections` here, once).
 */
export const schema = {
  ...commonCollections,
  ...usersCollections,
  ...organizationsCollections,
  ...auditCollections,
  ...membersCollections,
  ...teamsCollections,
  ...collectionsCollections,
  ...spacesCollections,
  ...sitesCollections,
  ...siteStructureCollections,
  ...shareLinksCollections,
  ...contentCollections,
  ...siteRedirectsCollections,
  ...changeRequestsCollections,
  ...commentsCollections,
  ...gitSyncCollections,
  ...ssoCollections,
  ...openapiSpecsCollections,
  ...translationsCollections,
  ...conversationsCollections,
  ...spacePermissionsCollections,
  ...sitePermissionsCollections,
  ...collectionPermissionsCollections,
  ...integrationsCollections,
  ...insightsCollections,
}

export type AppSchema = typeof schema
