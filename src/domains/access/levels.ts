import type { LevelResolvers } from '../../core/access.js'
import type { ContentGrant } from '../../core/context.js'
import { siteOpenedByKey } from './share-keys.js'
import { atLeast, strongest, type Level, type Role } from '../../core/roles.js'
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
 * - Integration: the owner organization's role for its members with one; `visitor` for anyone
 *   else when it is public or unlisted (a private one is hidden from them, guests included).
 */

/** The user's membership role: undefined when not an (enabled) member, null for a guest. */
export function memberRole(tx: ReadTx<AppSchema>, organization: string, user: string): Role | null | undefined {
  const member = tx.get('members', `${organization}/${user}`)
  if (!member || member.disabled) return undefined
  return member.role
}

/** Resolve `inherit` up the collection chain; null when nothing sets a level. */
export function resolveDefaultLevel(tx: ReadTx<AppSchema>, level: DefaultLevel, parent: string | undefined): Role | null {
  let current = level
  let next = parent
  for (let depth = 0; current === 'inherit' && depth < 64; depth++) {
    const collection = next ? tx.get('collections', next) : undefined
    if (!collection) return null
    current = collection.defaultLevel
    next = collection.parent
  }
  return current === 'inherit' ? null : current
}

export function organizationLevel(tx: ReadTx<AppSchema>, organization: string, user: string): Level | null | undefined {
  if (!tx.get('organizations', organization)) return undefined
  const role = memberRole(tx, organization, user)
  if (role === undefined) return null
  return role ?? 'guest'
}

/**
 * The strongest direct grant (collection-permissions) a user holds, himself or through his teams of
 * the organization, on a collection or any collection enclosing it: a grant on a collection counts
 * on its sub-collections too.
 */
export function collectionGrantLevel(tx: ReadTx<AppSchema>, collection: CollectionRow, user: string): Level | undefined {
  const teams = tx
    .scan('teamMembers', 'byUser', user)
    .filter(({ row }) => row.organization === collection.organization)
    .map(({ row }) => row.team)
  const levels: Array<Role | undefined> = []
  let current: CollectionRow | undefined = collection
  for (let depth = 0; current && depth < 64; depth++) {
    levels.push(tx.get('collectionGrants', `${current.id}/user:${user}`)?.role)
    for (const team of teams) levels.push(tx.get('collectionGrants', `${current.id}/team:${team}`)?.role)
    current = current.parent ? tx.get('collections', current.parent) : undefined
  }
  return strongest(...levels) ?? undefined
}

export function collectionLevelOf(tx: ReadTx<AppSchema>, collection: CollectionRow, user: string): Level | null {
  const role = memberRole(tx, collection.organization, user)
  // Grants count only for enabled members (guests included), as for spaces.
  if (role === undefined || !user) return null
  if (role === 'admin') return 'admin'
  const grant = collectionGrantLevel(tx, collection, user)
  if (!role) return grant ?? null
  return strongest(role, resolveDefaultLevel(tx, collection.defaultLevel, collection.parent), grant) ?? null
}

export function spaceLevelOf(tx: ReadTx<AppSchema>, space: SpaceRow, user: string): Level | null {
  const role = memberRole(tx, space.organization, user)
  // Nothing ranks above an organization admin's role: the other sources cannot change the level.
  if (role === 'admin') return 'admin'
  const levels: Array<Level | null | undefined> = [role]
  if (role) levels.push(resolveDefaultLevel(tx, space.defaultLevel, space.parent))
  // Grants count only for enabled members (guests included): a disabled or removed member
  // keeps nothing through a grant left behind.
  if (user && role !== undefined) {
    levels.push(tx.get('spaceGrants', `${space.id}/user:${user}`)?.role)
    for (const { row } of tx.scan('teamMembers', 'byUser', user)) {
      if (row.organization === space.organization) levels.push(tx.get('spaceGrants', `${space.id}/team:${row.team}`)?.role)
    }
  }
  if (space.visibility === 'in-collection' && space.parent) {
    const parent = tx.get('collections', space.parent)
    if (parent) levels.push(collectionLevelOf(tx, parent, user))
  }
  if (space.visibility === 'public' || space.visibility === 'unlisted') levels.push('visitor')
  const best = strongest(...levels)
  // A guest level alone gives nothing on a space.
  return best && best !== 'guest' ? best : null
}

/**
 * A user's level on a site: the strongest of the organization role and the direct grants on the
 * site (the user's, and the user's teams'), which count for enabled members only (guests
 * included), as on spaces. A guest without a grant keeps `guest` (names the site, reads nothing).
 */
export function siteLevelOf(tx: ReadTx<AppSchema>, site: SiteRow, user: string): Level | null | undefined {
  const level = organizationLevel(tx, site.organization, user)
  if (!level || level === 'admin' || !user) return level
  const levels: Array<Level | null | undefined> = [level, tx.get('siteGrants', `${site.id}/user:${user}`)?.role]
  for (const { row } of tx.scan('teamMembers', 'byUser', user)) {
    if (row.organization === site.organization) levels.push(tx.get('siteGrants', `${site.id}/team:${row.team}`)?.role)
  }
  return strongest(...levels)
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
 * Levels of the caller. A site token's bearer (`actor.content`) is no user: it gets `visitor` on
 * its site and the spaces the site publishes, `guest` on the site's organization (enough to name
 * it in a path), nothing on anything else.
 */
export const levelResolvers: LevelResolvers = {
  organization: (ctx, id) => {
    const grant = ctx.actor.content
    if (grant) return ctx.tx.get('organizations', id) ? (grant.organization === id ? 'guest' : null) : undefined
    return organizationLevel(ctx.tx, id, ctx.actor.user)
  },
  collection: (ctx, id) => {
    const collection = ctx.tx.get('collections', id)
    return collection ? collectionLevelOf(ctx.tx, collection, ctx.actor.user) : undefined
  },
  space: (ctx, id) => {
    const space = ctx.tx.get('spaces', id)
    if (!space) return undefined
    if (ctx.actor.content) return grantedSpaceLevel(ctx.tx, ctx.actor.content, space)
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
    return siteLevelOf(ctx.tx, site, ctx.actor.user)
  },
  team: (ctx, id) => {
    const team = ctx.tx.get('teams', id)
    return team ? organizationLevel(ctx.tx, team.organization, ctx.actor.user) : undefined
  },
  integration: (ctx, name) => {
    const integration = ctx.tx.get('integrations', name)
    if (!integration) return undefined
    if (ctx.actor.content) return null
    const role = memberRole(ctx.tx, integration.organization, ctx.actor.user)
    return strongest(role, integration.visibility === 'private' ? undefined : 'visitor') ?? null
  },
}
