import { atLeast, type Level } from './roles.js'

// What the policy table says, apart from who is calling (core/access.ts works out the caller's
// level and checks it against this table): encoders and the operation table need only this.

/**
 * The one policy table: for each resource, the minimum level each action needs.
 * Operations name a resource and an action from here, and the `permissions` booleans of every
 * resource are computed from the same rows, so what a resource says the caller may do is what
 * the API lets the caller do. `view` is the level below which a resource is not revealed (404).
 */
export const POLICY = {
  organization: {
    view: 'guest',
    access: 'guest',
    listMembers: 'read',
    listTeams: 'read',
    listIntegrations: 'read',
    createContent: 'create',
    // Members with a role read the organization's OpenAPI specs; creators add, change and delete them.
    viewOpenAPISpecs: 'read',
    createOpenAPISpec: 'create',
    ingestConversations: 'edit',
    admin: 'admin',
    viewBilling: 'admin',
    listInstallations: 'admin',
    installIntegration: 'admin',
    manageMembers: 'admin',
    manageTeams: 'admin',
    // SAML providers hold the organization's sign-in: only admins read or change them.
    manageSSO: 'admin',
    // Members with a role read the organization's sites; editors create and change them.
    listSites: 'read',
    createSite: 'edit',
    // Members with a role read the docs agent's instructions; admins set them.
    viewAgentInstructions: 'read',
    // Translations: members with a role read them; those who may create content manage them
    // (a run creates and writes the result space, as creating a space would).
    viewTranslations: 'read',
    manageTranslations: 'create',
    // Conversations, their issues and clusters: members with a role read them; editors ingest
    // (ingestConversations above) and mute clusters.
    viewConversations: 'read',
    manageConversationClusters: 'edit',
    // Anyone in the organization searches it, each finding the spaces he is a member of
    // (space.searchInOrganization): a guest what he was invited to.
    search: 'guest',
    // Ask in an organization answers from what the caller finds in its search (the same spaces:
    // a guest what he was invited to), so whoever searches it asks it.
    ask: 'guest',
  },
  space: {
    // Visitors (public and unlisted spaces, share keys) read a space and nothing more.
    view: 'visitor',
    access: 'visitor',
    comment: 'comment',
    edit: 'edit',
    triggerGitSync: 'edit',
    // Git Sync's state (repository, last operation) is for members, never visitors.
    viewGitSync: 'read',
    review: 'review',
    merge: 'review',
    admin: 'admin',
    viewInviteLinks: 'admin',
    installIntegration: 'admin',
    // Who a space is shared with is visible to whoever has a role in its organization or a grant
    // on it (as in the product's share dialog), never through visibility or a share key alone.
    listPermissions: 'read',
    managePermissions: 'admin',
    // Change requests are work in progress: members (a role in the organization or a grant on the
    // space) read them, never visitors; editors create and edit them, reviewers review and merge.
    viewChangeRequests: 'read',
    // What a revision changed (its semantic changes) is an editing tool, as the history is in the
    // product: members read it, not visitors of public content (who read old revisions themselves).
    viewRevisionChanges: 'read',
    // Comments are discussions among members, never shown to visitors: readers read them,
    // commenters (`comment`) post, reply and react, and edit or delete what they posted; admins
    // also resolve and delete anyone's (the author resolves their own).
    viewComments: 'read',
    moderateComments: 'admin',
    // A space shows in its organization's search for its members (a role in the organization or a
    // grant on it), never for one who may only visit it (public, unlisted): he searches it alone.
    searchInOrganization: 'read',
    // The integrations installed on a space and their blocks: its readers (never visitors).
    listIntegrations: 'read',
  },
  collection: {
    view: 'read',
    create: 'create',
    admin: 'admin',
    viewInviteLinks: 'admin',
    // As for a space: who a collection is shared with is visible to whoever reads it (a role in
    // its organization or a grant on it or an enclosing collection); admins change it.
    listPermissions: 'read',
    managePermissions: 'admin',
  },
  team: {
    view: 'read',
    admin: 'admin',
  },
  // A site's level is the strongest of the caller's organization role and the direct grants on the
  // site (the user's, the user's teams'): readers read sites, editors change them (settings,
  // structure, share links, publishing), as the sites issue asks.
  site: {
    // A site token's bearer (level `visitor`) knows the site is there: it reads its published
    // content and nothing else; members with a role read the site itself (`access`).
    view: 'visitor',
    access: 'read',
    // The published profile (getPublishedContentSite): members, and the site's token.
    viewPublished: 'visitor',
    edit: 'edit',
    create: 'edit',
    admin: 'edit',
    installIntegration: 'admin',
    // Who a site is shared with (site-permissions), as on spaces: members with a role or a grant
    // on the site read the grants; admins of the site (organization admins, an `admin` grant) change them.
    listPermissions: 'read',
    managePermissions: 'admin',
    viewAdaptiveSchema: 'read',
    editAdaptiveSchema: 'edit',
    // Visitor authentication: its private key signs visitor tokens, so only the organization's
    // admins read it, change it or regenerate the key.
    managePublishingAuth: 'admin',
    // Members with a role ask questions of a site's content (Ask), and so does the visitor of the
    // site's token (GitBook's renderer's Ask panel): Ask reads only what the site publishes.
    ask: 'visitor',
    // Site search (searchSiteContent, prewarmSiteSearch): the same callers as Ask, reading only
    // what the site shows them (the renderer's search box calls it with the visit's site token).
    search: 'visitor',
    // The renderer resolves a path with no content to the site's live redirect with the site
    // token of the visit (level `visitor` on its site): visitors of a site follow its redirects.
    resolveRedirect: 'visitor',
    // A site's insights (aggregated events, visitor segments) are for members with a role.
    viewInsights: 'read',
    // Agents send feedback about a site through its MCP server (the renderer's, with the site
    // token of the visit: level `visitor`) or as members; it is stored, never shown to visitors.
    submitAgentFeedback: 'visitor',
    // The integrations installed on a site and the scripts they inject: its readers.
    listIntegrations: 'read',
  },
  // An integration (addressed by its name): anyone signed in sees a public or unlisted one, the
  // owner organization's members with a role see a private one; the owner's admins administrate
  // it (publish again, unpublish, read its installations and events).
  integration: {
    view: 'visitor',
    admin: 'admin',
  },
} as const satisfies Record<string, Record<string, Level> & { view: Level }>

export type Resource = keyof typeof POLICY
export type Action = { [R in Resource]: keyof (typeof POLICY)[R] }[Resource]
export type ActionOf<R extends Resource> = keyof (typeof POLICY)[R] & string

/** The permission an operation needs: an action on the resource named by a path parameter. */
export type Permission = {
  [R in Resource]: {
    resource: R
    action: ActionOf<R>
    /** Path parameter holding the resource id (default: `${resource}Id`). */
    param?: string
    /**
     * Idempotent deletes: when the resource is missing or hidden from the caller, answer success
     * without running the handler (revealing nothing); a caller who sees it still needs `action`.
     * Only for the resource the request addresses (the last path parameter): a hidden or unknown
     * parent is a 404 whatever the method.
     */
    missingIsSuccess?: boolean
  }
}[Resource]

/** A resource named by a path parameter (`{spaceId}` names a space). */
export interface PathResource {
  resource: Resource
  param: string
}

const RESOURCE_BY_PARAM = new Map<string, Resource>((Object.keys(POLICY) as Resource[]).map((r) => [`${r}Id`, r]))

/**
 * The parents of what a path addresses: the path parameters that name a resource of the policy
 * table, outermost first, leaving out the last parameter (the addressed resource itself) and the
 * one the operation's permission checks. Each must be visible to the caller (404 otherwise), so
 * `DELETE /v1/orgs/{hidden}/sites/{siteId}` is a 404, not an idempotent 204. Operations without
 * a permission (open ones, like a published site) check access themselves, parents included.
 */
export function parentResources(path: string, permission: Permission | undefined): PathResource[] {
  if (!permission) return []
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
  const own = permission.param ?? `${permission.resource}Id`
  const parents: PathResource[] = []
  for (const param of params.slice(0, -1)) {
    const resource = RESOURCE_BY_PARAM.get(param)
    if (resource && param !== own) parents.push({ resource, param })
  }
  return parents
}

export function allows(resource: Resource, level: Level | null | undefined, action: Action): boolean {
  const min = (POLICY[resource] as Record<string, Level>)[action]
  if (!min) throw new Error(`No policy for ${resource}.${String(action)}`)
  return atLeast(level, min)
}

/** Computed permissions by keys array (one per resource type), then by level. */
const permissionsCache = new WeakMap<readonly string[], Map<Level | null | undefined, Readonly<Record<string, boolean>>>>()

/**
 * The `permissions` booleans of a resource for a level, for the keys the resource exposes.
 * There are few (keys, level) pairs, so each answer is computed once and shared (frozen): this
 * runs for every item of every list.
 */
export function permissionsFor<R extends Resource, K extends ActionOf<R>>(
  resource: R,
  level: Level | null | undefined,
  keys: readonly K[],
): Record<K, boolean> {
  let byLevel = permissionsCache.get(keys)
  if (!byLevel) permissionsCache.set(keys, (byLevel = new Map()))
  let out = byLevel.get(level)
  if (!out) {
    const computed: Record<string, boolean> = {}
    for (const key of keys) computed[key] = allows(resource, level, key as Action)
    byLevel.set(level, (out = Object.freeze(computed)))
  }
  return out as Record<K, boolean>
}

/** `permissionsFor` as JSON text, computed once per (keys, level) like the object. */
const permissionsJsonCache = new WeakMap<readonly string[], Map<Level | null | undefined, string>>()

export function permissionsJsonFor<R extends Resource>(resource: R, level: Level | null | undefined, keys: readonly ActionOf<R>[]): string {
  let byLevel = permissionsJsonCache.get(keys)
  if (!byLevel) permissionsJsonCache.set(keys, (byLevel = new Map()))
  let out = byLevel.get(level)
  if (out === undefined) byLevel.set(level, (out = JSON.stringify(permissionsFor(resource, level, keys))))
  return out
}
