import { z } from 'zod'
import { ApiError } from '../../core/errors.js'
import type { Role } from '../../core/roles.js'
import { collection, type CollectionDef, type Entry, type RowOf } from '../../storage/port.js'
import { SeedIdSchema, type SeedCheck } from '../../state/seed.js'
import { produce } from '../common/produce.js'
import { RoleSchema } from '../common/schemas.js'
import type { Context } from '../context.js'
import { addMember, memberId } from '../members/model.js'
import type { AppSchema } from '../schema.js'
import type { TeamRow } from '../teams/rows.js'

/**
 * Direct grants of a role on a resource to a user or a team: the one model behind space, collection
 * and site permissions (space-permissions, collection-permissions, site-permissions). Each area
 * declares its kind (`grantKind('space', 'spaceGrants')`): the resource's field in a row, its
 * collection and the collection's indexes. Rows are `{ id, <resource>, organization, principal,
 * role }` with ids `${resource}/user:${id}` and `${resource}/team:${id}` (levels.ts reads them by
 * id); state documents and SQLite rows hold them as such.
 */

/** Who a resource is shared with: one user or one team. */
export type Principal = { user: string } | { team: string }

/** A principal as a grant row holds it. */
export const PrincipalRowSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('user'), user: SeedIdSchema }),
  z.strictObject({ type: z.literal('team'), team: SeedIdSchema }),
])
export type PrincipalRow = z.output<typeof PrincipalRowSchema>

/** The row of a grant on a resource kind `K` (`space`: `{ id, space, organization, principal, role }`). */
export type GrantRow<K extends string> = { id: string } & { [P in K]: string } & { organization: string; principal: PrincipalRow; role: Role }

/** The collections holding grants. */
type GrantCollection = 'spaceGrants' | 'collectionGrants' | 'siteGrants'
/** The collections of the resources they grant roles on. */
type ResourceCollection = 'spaces' | 'collections' | 'sites'

/** A kind of grant: the resource's field in a row, its collection and that collection's index names. */
export interface GrantKind<K extends string, C extends GrantCollection> {
  /** The resource's field in a row and its name in messages: `space`. */
  readonly resource: K
  readonly collection: C
  /** Index of a resource's grants: `bySpace`. */
  readonly byResource: `by${Capitalize<K>}`
  /** Index of a resource's user grants (`${resource}/user`) or team grants (`${resource}/team`), for paging each list: `bySpaceAndType`. */
  readonly byResourceAndType: `by${Capitalize<K>}AndType`
}

export function grantKind<K extends string, C extends GrantCollection>(resource: K, collectionName: C): GrantKind<K, C> {
  const capital = (resource.charAt(0).toUpperCase() + resource.slice(1)) as Capitalize<K>
  return { resource, collection: collectionName, byResource: `by${capital}`, byResourceAndType: `by${capital}AndType` }
}

/** The row schema of a grant kind: `{ id, <resource>, organization, principal, role }`, in that order. */
export function grantRowSchema<K extends string>(resource: K) {
  return z.strictObject({
    /** `${resource}/user:${id}` or `${resource}/team:${id}` */
    id: z.string(),
    ...({ [resource]: SeedIdSchema } as { [P in K]: typeof SeedIdSchema }),
    /** The resource's organization. */
    organization: SeedIdSchema,
    principal: PrincipalRowSchema,
    role: RoleSchema,
  })
}

/** The stored collection of a grant kind, with its indexes (by resource, by resource and type, by principal). */
export function grantCollection<K extends string, R extends GrantRow<K>>(kind: GrantKind<K, GrantCollection>): CollectionDef<R> {
  const resourceOf = (g: R) => (g as GrantRow<K>)[kind.resource] as string
  return collection<R>({
    [kind.byResource]: { key: resourceOf },
    [kind.byResourceAndType]: { key: (g) => `${resourceOf(g)}/${g.principal.type}` },
    byPrincipal: { key: (g) => principalRowKey(g.principal) },
  })
}

/** `user:<id>` or `team:<id>`: a principal in grant ids and in the `byPrincipal` index. */
export function principalRowKey(p: PrincipalRow): string {
  return p.type === 'user' ? `user:${p.user}` : `team:${p.team}`
}

/** The id of a grant row: `${resource}/user:${id}` or `${resource}/team:${id}`. */
export function grantRowId(resource: string, principal: Principal): string {
  return 'user' in principal ? `${resource}/user:${principal.user}` : `${resource}/team:${principal.team}`
}

/**
 * The store as the grant functions use it: the three grant collections have the same row shape
 * but for the resource's field, which TypeScript cannot follow through a collection name that is
 * a type parameter, so this one cast stands for them all.
 */
interface GrantStore<K extends string> {
  get(collection: GrantCollection, id: string): GrantRow<K> | undefined
  insert(collection: GrantCollection, row: GrantRow<K>): GrantRow<K>
  update(collection: GrantCollection, row: GrantRow<K>): GrantRow<K>
  delete(collection: GrantCollection, id: string): boolean
  scan(collection: GrantCollection, index: string, key: string): Entry<GrantRow<K>>[]
}
const store = <K extends string>(ctx: Context) => ctx.tx as unknown as GrantStore<K>

/** The direct grant of a user or team on a resource, if any. */
export function findGrant<K extends string>(
  ctx: Context,
  kind: GrantKind<K, GrantCollection>,
  resource: string,
  principal: Principal,
): GrantRow<K> | undefined {
  return store<K>(ctx).get(kind.collection, grantRowId(resource, principal))
}

/** A team of the organization, or a 404 (a team of another organization is not revealed). */
export function requireTeamOf(ctx: Context, organization: string, team: string): TeamRow {
  const row = ctx.tx.get('teams', team)
  if (!row || row.organization !== organization) throw new ApiError('NOT_FOUND', `Team ${team} not found`)
  return row
}

/** A user who is a member (a guest is fine) of the organization (of the `resource` kind the message names), or a 404. */
export function requireMemberOf(ctx: Context, organization: string, user: string, resource?: string): void {
  if (!ctx.tx.get('users', user)) throw new ApiError('NOT_FOUND', `User ${user} not found`)
  if (!ctx.tx.get('members', memberId(organization, user))) {
    throw new ApiError('NOT_FOUND', `User ${user} is not a member of the organization${resource ? ` of this ${resource}` : ''}`)
  }
}

/**
 * Set the direct role of a user or a team on a resource; `null` removes it. A user must be a
 * member of the resource's organization (a guest is fine) and a team must belong to it (404
 * otherwise), so a grant never reaches outside the organization. Returns the grant, or undefined
 * when removed; setting the role a grant already has writes nothing.
 */
export function setGrant<K extends string>(
  ctx: Context,
  kind: GrantKind<K, GrantCollection>,
  target: { id: string; organization: string },
  principal: Principal,
  role: Role | null,
): GrantRow<K> | undefined {
  if ('user' in principal) requireMemberOf(ctx, target.organization, principal.user, kind.resource)
  else requireTeamOf(ctx, target.organization, principal.team)
  if (role === null) {
    removeGrant(ctx, kind, target.id, principal)
    return undefined
  }
  const existing = findGrant(ctx, kind, target.id, principal)
  if (existing) {
    const next = produce(existing as { role: Role }, (draft) => {
      draft.role = role
    }) as GrantRow<K>
    return next === existing ? existing : store<K>(ctx).update(kind.collection, next)
  }
  const row = {
    id: grantRowId(target.id, principal),
    [kind.resource]: target.id,
    organization: target.organization,
    principal: 'user' in principal ? { type: 'user', user: principal.user } : { type: 'team', team: principal.team },
    role,
  } as GrantRow<K>
  return store<K>(ctx).insert(kind.collection, row)
}

/** Remove the direct grant of a user or a team on a resource; returns whether there was one. */
export function removeGrant(ctx: Context, kind: GrantKind<string, GrantCollection>, resource: string, principal: Principal): boolean {
  return ctx.tx.delete(kind.collection, grantRowId(resource, principal))
}

export interface Invitation {
  role: Role | null
  users?: readonly string[] | undefined
  teams?: readonly string[] | undefined
}

/**
 * Invite users and teams to a resource with a role (re-inviting updates the role). A user who is
 * not yet a member of the resource's organization joins it as a guest, as in the product: the
 * grant is what gives the guest access. `role: null` removes the listed grants and adds nobody.
 * Any unknown user or team fails the whole invitation (the request's transaction rolls back).
 */
export function inviteTo(
  ctx: Context,
  kind: GrantKind<string, GrantCollection>,
  target: { id: string; organization: string },
  invitation: Invitation,
  grant: (principal: Principal, role: Role | null) => unknown = (principal, role) => setGrant(ctx, kind, target, principal, role),
): void {
  for (const user of new Set(invitation.users ?? [])) {
    if (invitation.role !== null) {
      if (!ctx.tx.get('users', user)) throw new ApiError('NOT_FOUND', `User ${user} not found`)
      addMember(ctx, target.organization, user, null)
    }
    grant({ user }, invitation.role)
  }
  for (const team of new Set(invitation.teams ?? [])) grant({ team }, invitation.role)
}

/** The store of a grant's resource, as the seed rules read it: the resource's organization. */
type ResourceTx = { get(collection: ResourceCollection, id: string): { organization: string } | undefined }

/** In a state document: a grant's id when left out, and its resource's organization (`''` for a missing resource, which the check names). */
export function seedGrantDefaults(
  tx: ResourceTx | Context['tx'],
  kind: GrantKind<string, GrantCollection>,
  parents: ResourceCollection,
  g: { principal: PrincipalRow } & Record<string, unknown>,
) {
  const resource = g[kind.resource] as string
  return { id: `${resource}/${principalRowKey(g.principal)}`, organization: (tx as ResourceTx).get(parents, resource)?.organization ?? '' }
}

/**
 * The seed check of a grant row: the id must be the resource's and the principal's, the resource
 * must exist (in `parents`) in the row's organization, the user must be a member of it (a guest is
 * fine) and the team one of its teams.
 */
export function checkGrantRow<K extends string>(kind: GrantKind<K, GrantCollection>, parents: ResourceCollection) {
  const label = kind.resource
  return ({ ctx, fail }: SeedCheck, row: GrantRow<K>): void => {
    const resource = row[kind.resource] as string
    const expected = `${resource}/${principalRowKey(row.principal)}`
    if (row.id !== expected) fail('id', `must be "${expected}" (${label}/principal), or left out`)
    const organization = (ctx.tx as unknown as ResourceTx).get(parents, resource)?.organization
    if (organization === undefined) return fail(label, `no ${label} "${resource}"`)
    if (row.organization !== organization) fail('organization', `must be the ${label}'s organization "${organization}"`)
    const { principal } = row
    if (principal.type === 'user' && !ctx.tx.get('members', `${organization}/${principal.user}`)) {
      fail('principal.user', `"${principal.user}" is not a member of the ${label}'s organization (invite them as a guest first)`)
    }
    if (principal.type === 'team' && ctx.tx.get('teams', principal.team)?.organization !== organization) {
      fail('principal.team', `no team "${principal.team}" in the ${label}'s organization`)
    }
  }
}

/** The stored grant rows are `GrantRow`s (a compile error here if one of them drifts from the shared shape). */
const rowsHold: [
  RowOf<AppSchema, 'spaceGrants'> extends GrantRow<'space'> ? true : never,
  RowOf<AppSchema, 'collectionGrants'> extends GrantRow<'collection'> ? true : never,
  RowOf<AppSchema, 'siteGrants'> extends GrantRow<'site'> ? true : never,
] = [true, true, true]
void rowsHold
