import type { LevelResolvers } from '../../core/access.js'
import type { ContentGrant, InstallationGrant } from '../../core/context.js'
import { installationLevel } from '../../core/scopes.js'
import { siteOpenedByKey } from './share-keys.js'
import { atLeast, rank, strongest, type Level, type Role } from '../../core/roles.js'
import type { AppSchema } from '../schema.js'
import type { CollectionRow } from '../collections/rows.js'
import type { DefaultLevel } from '../common/rows.js'
import type { ReadTx } from '../../storage/port.js'
import type { SpaceRow } from '../spaces/rows.js'
import type { SiteRow } from '../sites/rows.js'

/**
 * Effective levels of a user on organizations, collections and spaces.
 *
 * - Organization: the member's role; `guest` for a member without one; none for a non-member
 *   or a disabled member.
 * - Collection: the strongest of the organization role; for members with a role, the
 *   collection's default level (`inherit` follows the parent collection); and the direct grants
 *   of the user and of his teams on the collection or an enclosing one (enabled members, guests
 *   included). An `in-collection` space gets this level through its parent (below).
 * - Space: the strongest of the organization role; the space's default level for members with a
 *   role; a direct user grant and the grants of the user's teams (for enabled members, guests
 *   included); the parent collection's level when
 *   the space's visibility is `in-collection`; and `visitor` (reads the space, not its grants) for
 *   `public` and `unlisted` spaces, and for the holder of a share key of a published share-link
 *   site that publishes it.
 * - Site: the organization role (members with a role read sites; see POLICY.site); `visitor` for
 *   a site token of the site (reads its published content, nothing of its settings).
 * - A site token: `visitor` on its site and the spaces it publishes; a member's preview token
 *   (`member` in its grant) `read` on those spaces while that member has `read` there.
 * - Integration: for a site token, `visitor` when the integration is installed in its site's
 *   organization (the renderer renders its blocks); the owner organization's role for its members with one; `visitor` for anyone
 *   else when it is public or unlisted (a private one is hidden from them, guests included).
 */

/** The user's membership role: undefined when not an (enabled) member, null for a guest. */
export function memberRole(tx: ReadTx<AppSchema>, organization: string, user: string): Role | null | undefined {
  const member = tx.get('members', `${organization}/${user}`)
  if (!member || member.disabled) return undefined
  return member.role
}

/**
 * Where a user's level on a resource comes from: the strongest source wins, the first listed on a
 * tie (the organization role, then the resource's default level, the user's own grant, his teams'
 * grants, the parent collection, the visibility). The permission aggregates answer it as each
 * item's `origin` (see docs/behaviour/permission-aggregates.md).
 *
 * - `organization`: the member's organization role (`guest` for a guest).
 * - `space` / `collection` / `site` with `reason`: `default` (the default level of that space or
 *   collection: the content's own, or the enclosing collection's it inherits), `member` (a grant to
 *   the user on it), `team` (a grant to `team`, one of the user's teams, on it). A collection grant
 *   counts on its sub-collections: the origin names the collection holding it.
 * - `visibility`: `visitor`, reading a public or unlisted space.
 */
export type AccessOrigin =
  | { type: 'organization'; organization: string }
  | { type: 'space'; space: string; reason: 'member' | 'team' | 'default'; team?: string }
  | { type: 'collection'; collection: string; reason: 'member' | 'team' | 'default'; team?: string }
  | { type: 'site'; site: string; reason: 'member' | 'team'; team?: string }
  | { type: 'visibility' }

/** A user's level on a resource and where it comes from. */
export interface Access {
  level: Level
  origin: AccessOrigin
}

/** The strongest of the candidates (the first on a tie); undefined when none gives a level. */
function best(...candidates: Array<Access | null | undefined>): Access | undefined {
  let found: Access | undefined
  for (const c of candidates) if (c && rank(c.level) > rank(found?.level)) found = c
  return found
}

/** An access of `level` (none when null or undefined) from `origin`. */
function access(level: Level | null | undefined, origin: AccessOrigin): Access | undefined {
  return level ? { level, origin } : undefined
}

/**
 * Resolve `inherit` up the collection chain: the level and the collection that set it (undefined
 * when the content's own level is not `inherit`); null when nothing sets a level.
 */
export function resolveDefault(tx: ReadTx<AppSchema>, level: DefaultLevel, parent: string | undefined): { level: Role; collection?: string } | null {
  let current = level
  let next = parent
  let from: string | undefined
  for (let depth = 0; current === 'inherit' && depth < 64; depth++) {
    const collection = next ? tx.get('collections', next) : undefined
    if (!collection) return null
    current = collection.defaultLevel
    from = collection.id
    next = collection.parent
  }
  if (current === 'inherit' || current === null) return null
  return from === undefined ? { level: current } : { level: current, collection: from }
}

/** Resolve `inherit` up the collection chain; null when nothing sets a level. */
export function resolveDefaultLevel(tx: ReadTx<AppSchema>, level: DefaultLevel, parent: string | undefined): Role | null {
  return resolveDefault(tx, level, parent)?.level ?? null
}

export function organizationLevel(tx: ReadTx<AppSchema>, organization: string, user: string): Level | null | undefined {
  if (!tx.get('organizations', organization)) return undefined
  const role = memberRole(tx, organization, user)
  if (role === undefined) return null
  return role ?? 'guest'
}

/** The teams of an organization a user belongs to. */
export function teamsOf(tx: ReadTx<AppSchema>, organization: string, user: string): string[] {
  return tx
    .scan('teamMembers', 'byUser', user)
    .filter(({ row }) => row.organization === organization)
    .map(({ row }) => row.team)
}

/**
 * The strongest direct grant (collection-permissions) a user holds, himself or through his teams of
 * the organization, on a collection or any collection enclosing it: a grant on a collection counts
 * on its sub-collections too.
 */
export function collectionGrantAccess(
  tx: ReadTx<AppSchema>,
  collection: CollectionRow,
  user: string,
  teams: readonly string[] = teamsOf(tx, collection.organization, user),
): Access | undefined {
  const candidates: Array<Access | undefined> = []
  let current: CollectionRow | undefined = collection
  for (let depth = 0; current && depth < 64; depth++) {
    const id = current.id
    candidates.push(access(tx.get('collectionGrants', `${id}/user:${user}`)?.role, { type: 'collection', collection: id, reason: 'member' }))
    for (const team of teams) {
      candidates.push(access(tx.get('collectionGrants', `${id}/team:${team}`)?.role, { type: 'collection', collection: id, reason: 'team', team }))
    }
    current = current.parent ? tx.get('collections', current.parent) : undefined
  }
  return best(...candidates)
}

export function collectionGrantLevel(tx: ReadTx<AppSchema>, collection: CollectionRow, user: string): Level | undefined {
  return collectionGrantAccess(tx, collection, user)?.level
}

/** The default level a member with a role gets on a space or collection, with its origin. */
function defaultAccess(tx: ReadTx<AppSchema>, level: DefaultLevel, parent: string | undefined, own: AccessOrigin): Access | undefined {
  const resolved = resolveDefault(tx, level, parent)
  if (!resolved) return undefined
  return { level: resolved.level, origin: resolved.collection ? { type: 'collection', collection: resolved.collection, reason: 'default' } : own }
}

/**
 * A user's level on a collection (see the top of this file) and where it comes from. `teams`: the
 * user's teams of the organization, when the caller has them already (a space's level reads them).
 */
export function collectionAccessOf(tx: ReadTx<AppSchema>, collection: CollectionRow, user: string, teams?: readonly string[]): Access | null {
  const role = memberRole(tx, collection.organization, user)
  // Grants count only for enabled members (guests included), as for spaces.
  if (role === undefined || !user) return null
  const organization: AccessOrigin = { type: 'organization', organization: collection.organization }
  if (role === 'admin') return { level: 'admin', origin: organization }
  const grant = collectionGrantAccess(tx, collection, user, teams)
  if (!role) return grant ?? null
  const own: AccessOrigin = { type: 'collection', collection: collection.id, reason: 'default' }
  return best(access(role, organization), defaultAccess(tx, collection.defaultLevel, collection.parent, own), grant) ?? null
}

export function collectionLevelOf(tx: ReadTx<AppSchema>, collection: CollectionRow, user: string): Level | null {
  return collectionAccessOf(tx, collection, user)?.level ?? null
}

/** A user's level on a space (see the top of this file) and where it comes from. */
export function spaceAccessOf(tx: ReadTx<AppSchema>, space: SpaceRow, user: string): Access | null {
  const role = memberRole(tx, space.organization, user)
  const organization: AccessOrigin = { type: 'organization', organization: space.organization }
  // Nothing ranks above an organization admin's role: the other sources cannot change the level.
  if (role === 'admin') return { level: 'admin', origin: organization }
  const candidates: Array<Access | null | undefined> = [access(role, organization)]
  if (role) candidates.push(defaultAccess(tx, space.defaultLevel, space.parent, { type: 'space', space: space.id, reason: 'default' }))
  // Grants count only for enabled members (guests included): a disabled or removed member
  // keeps nothing through a grant left behind.
  // The user's teams, read once (the parent collection's grants need them too).
  const teams = user && role !== undefined ? teamsOf(tx, space.organization, user) : []
  if (user && role !== undefined) {
    candidates.push(access(tx.get('spaceGrants', `${space.id}/user:${user}`)?.role, { type: 'space', space: space.id, reason: 'member' }))
    for (const team of teams) {
      candidates.push(access(tx.get('spaceGrants', `${space.id}/team:${team}`)?.role, { type: 'space', space: space.id, reason: 'team', team }))
    }
  }
  if (space.visibility === 'in-collection' && space.parent) {
    const parent = tx.get('collections', space.parent)
    if (parent) candidates.push(collectionAccessOf(tx, parent, user, teams))
  }
  if (space.visibility === 'public' || space.visibility === 'unlisted') candidates.push({ level: 'visitor', origin: { type: 'visibility' } })
  const found = best(...candidates)
  // A guest level alone gives nothing on a space.
  return found && found.level !== 'guest' ? found : null
}

export function spaceLevelOf(tx: ReadTx<AppSchema>, space: SpaceRow, user: string): Level | null {
  return spaceAccessOf(tx, space, user)?.level ?? null
}

/**
 * A user's level on a site and where it comes from: the strongest of the organization role and
 * the direct grants on the site (the user's, and the user's teams'), which count for enabled
 * members only (guests included), as on spaces. A guest without a grant keeps `guest` (names the
 * site, reads nothing). Undefined when the site's organization is gone; null for a non-member.
 */
export function siteAccessOf(tx: ReadTx<AppSchema>, site: SiteRow, user: string): Access | null | undefined {
  const level = organizationLevel(tx, site.organization, user)
  if (!level) return level
  const organization: Access = { level, origin: { type: 'organization', organization: site.organization } }
  if (level === 'admin' || !user) return organization
  const candidates: Array<Access | undefined> = [
    organization,
    access(tx.get('siteGrants', `${site.id}/user:${user}`)?.role, { type: 'site', site: site.id, reason: 'member' }),
  ]
  for (const team of teamsOf(tx, site.organization, user)) {
    candidates.push(access(tx.get('siteGrants', `${site.id}/team:${team}`)?.role, { type: 'site', site: site.id, reason: 'team', team }))
  }
  return best(...candidates)
}

/** A user's level on a site (see siteAccessOf). */
export function siteLevelOf(tx: ReadTx<AppSchema>, site: SiteRow, user: string): Level | null | undefined {
  const found = siteAccessOf(tx, site, user)
  return found ? found.level : found
}

/**
 * Whether a share key opens a space: the key of an active share link of a published share-link
 * site that publishes the space. It gives `visitor`, on the requests that take a `shareKey`.
 */
export function sharedThroughKey(tx: ReadTx<AppSchema>, space: SpaceRow, key: string): boolean {
  const site = siteOpenedByKey(tx, key)
  if (!site?.published) return false
  return tx.scan('siteSpaces', 'bySpace', space.id).some((e) => e.row.site === site.id)
}

/**
 * Whether a site token's grant still holds: its site is published, still open the way the token
 * was issued (public or unlisted; the share link it was opened with still active; a visitor
 * token checked for a `visitor-auth` site), in the organization the token names.
 */
export function grantHolds(tx: ReadTx<AppSchema>, grant: ContentGrant): boolean {
  const site = tx.get('sites', grant.site)
  if (!site || site.organization !== grant.organization) return false
  // A preview: while its member may still read the site (a member with a role), published or not.
  if (grant.preview) return grant.member !== undefined && atLeast(organizationLevel(tx, site.organization, grant.member), 'read')
  if (!site.published) return false
  switch (site.visibility) {
    case 'public':
    case 'unlisted':
      return true
    case 'share-link':
      return grant.shareKey !== undefined && siteOpenedByKey(tx, grant.shareKey)?.id === site.id
    case 'visitor-auth':
      return grant.authenticated === true
  }
}

/**
 * A site token's level on a space: `visitor` for a space its site still publishes, none otherwise.
 * A preview token (`member`: a member resolved the URL with his token) reads at `read` where that
 * member still does, never more: change requests and what a revision changed, for the renderer's
 * preview; nothing it could write.
 */
function grantedSpaceLevel(tx: ReadTx<AppSchema>, grant: ContentGrant, space: SpaceRow): Level | null {
  if (space.deletedAt || !grant.spaces.includes(space.id) || !grantHolds(tx, grant)) return null
  if (!tx.scan('siteSpaces', 'bySpace', space.id).some((e) => e.row.site === grant.site)) return null
  if (grant.member !== undefined && atLeast(spaceLevelOf(tx, space, grant.member), 'read')) return 'read'
  return 'visitor'
}

/**
 * An installation token's level on a resource: on the targets of its installation (its
 * organization, the live spaces of that organization and the sites it is enabled on) what its
 * scopes give (core/scopes.ts: the scope table then says which operations it may call); nothing
 * anywhere else (a 404, as for a non-member; public spaces included).
 */
function installationTargetLevel(grant: InstallationGrant, target: boolean): Level | null {
  return target ? installationLevel(grant.scopes) : null
}

/**
 * Levels of the caller. A site token's bearer (`actor.content`) is no user: it gets `visitor` on
 * its site and the spaces the site publishes, `guest` on the site's organization (enough to name
 * it in a path), nothing on anything else.
 */
export const levelResolvers: LevelResolvers = {
  organization: (ctx, id) => {
    const installation = ctx.actor.installation
    if (installation) return ctx.tx.get('organizations', id) ? installationTargetLevel(installation, installation.organization === id) : undefined
    const grant = ctx.actor.content
    if (grant) return ctx.tx.get('organizations', id) ? (grant.organization === id ? 'guest' : null) : undefined
    return organizationLevel(ctx.tx, id, ctx.actor.user)
  },
  collection: (ctx, id) => {
    const collection = ctx.tx.get('collections', id)
    if (collection && ctx.actor.installation) return null
    return collection ? collectionLevelOf(ctx.tx, collection, ctx.actor.user) : undefined
  },
  space: (ctx, id) => {
    const space = ctx.tx.get('spaces', id)
    if (!space) return undefined
    if (ctx.actor.content) return grantedSpaceLevel(ctx.tx, ctx.actor.content, space)
    const installation = ctx.actor.installation
    if (installation)
      return installationTargetLevel(installation, !space.deletedAt && space.organization === installation.organization && installation.spaces.includes(id))
    const level = spaceLevelOf(ctx.tx, space, ctx.actor.user)
    // A trashed space is hidden from everyone but its admins (who may restore it): others get the
    // 404 its GET gives, whatever the operation, never a 403 that says it is there.
    if (space.deletedAt) return level === 'admin' ? level : null
    return level ?? (ctx.shareKey && sharedThroughKey(ctx.tx, space, ctx.shareKey) ? 'visitor' : null)
  },
  site: (ctx, id) => {
    const site = ctx.tx.get('sites', id)
    if (!site) return undefined
    const grant = ctx.actor.content
    if (grant) return grant.site === id && grantHolds(ctx.tx, grant) ? 'visitor' : null
    const installation = ctx.actor.installation
    if (installation) return installationTargetLevel(installation, site.organization === installation.organization && installation.sites.includes(id))
    return siteLevelOf(ctx.tx, site, ctx.actor.user)
  },
  team: (ctx, id) => {
    const team = ctx.tx.get('teams', id)
    if (team && ctx.actor.installation) return null
    return team ? organizationLevel(ctx.tx, team.organization, ctx.actor.user) : undefined
  },
  integration: (ctx, name) => {
    const integration = ctx.tx.get('integrations', name)
    if (!integration) return undefined
    if (ctx.actor.installation) return null
    // A site token (GitBook's renderer) sees the integrations installed in its site's organization:
    // it renders their blocks in the pages it reads (renderIntegrationUIWithPost), nothing else of theirs.
    const grant = ctx.actor.content
    if (grant) return ctx.tx.scan('integrationInstallations', 'byIntegrationOrganization', `${name}/${grant.organization}`).length > 0 ? 'visitor' : null
    const role = memberRole(ctx.tx, integration.organization, ctx.actor.user)
    return strongest(role, integration.visibility === 'private' ? undefined : 'visitor') ?? null
  },
}
